import Foundation
import TestSupport
import Testing

@testable import ObjDB

/// `min`, `max` and `sum` answer in the property's own type, as Realm's do (#16.9).
@Suite("Queries: typed aggregates")
struct TypedAggregateTests {
    let directory = TemporaryDirectory()

    private func store(_ fill: (Everything, Int) -> Void, count: Int = 3) throws -> Results<Everything> {
        let db = try makeDatabase(directory)
        try db.write { transaction in
            for index in 0..<count {
                let object = Everything()
                fill(object, index)
                try transaction.add(object)
            }
        }
        return try db.view().objects(Everything.self)
    }

    @Test func minAndMaxOfAnIntegerAreIntegers() throws {
        let objects = try store { object, index in object.int = [7, -2, 40][index] }
        let smallest: Int? = try objects.min(ofProperty: "int")
        let largest: Int? = try objects.max(ofProperty: "int")
        #expect(smallest == -2)
        #expect(largest == 40)
    }

    @Test func minAndMaxOfADateAreDates() throws {
        let dates = [Date(timeIntervalSince1970: 5.25), Date(timeIntervalSince1970: 1), Date(timeIntervalSince1970: 9)]
        let objects = try store { object, index in object.date = dates[index] }
        let oldest: Date? = try objects.min(ofProperty: "date")
        let newest: Date? = try objects.max(ofProperty: "date")
        #expect(oldest == dates[1])
        #expect(newest == dates[2])
    }

    @Test func theSumOfIntegersIsExact() throws {
        let objects = try store { object, index in object.int64 = Int64.max / 4 + Int64(index) }
        let total: Int64 = try objects.sum(ofProperty: "int64")
        #expect(total == 3 * (Int64.max / 4) + 3)
    }

    @Test func theSumOfDecimalsIsExact() throws {
        let objects = try store { object, _ in object.decimal = Decimal(string: "0.1")! }
        let total: Decimal = try objects.sum(ofProperty: "decimal")
        #expect(total == Decimal(string: "0.3")!)
    }

    @Test func aSumThatDoesNotFitThrows() throws {
        let objects = try store { object, _ in object.int8 = 100 }
        #expect(throws: ObjDBError.self) { let _: Int8 = try objects.sum(ofProperty: "int8") }
    }

    @Test func askingForAnotherTypeThanThePropertyHoldsThrows() throws {
        let objects = try store { object, index in object.double = Double(index) }
        #expect(throws: ObjDBError.self) { let _: Int? = try objects.max(ofProperty: "double") }
        let largest: Double? = try objects.max(ofProperty: "double")
        #expect(largest == 2)
    }

    @Test func noObjectsHaveNoMinimumAndSumToZero() throws {
        let objects = try store({ _, _ in }, count: 0)
        let smallest: Int? = try objects.min(ofProperty: "int")
        let total: Double = try objects.sum(ofProperty: "double")
        #expect(smallest == nil)
        #expect(total == 0)
    }
}
