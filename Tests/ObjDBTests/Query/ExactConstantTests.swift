import Foundation
import TestSupport
import Testing

@testable import ObjDB

/// Dates and decimals passed to a query compare exactly, with no `Double` on the way (#16.6).
@Suite("Queries: exact constants")
struct ExactConstantTests {
    let directory = TemporaryDirectory()

    static let dates = [
        Date(timeIntervalSinceReferenceDate: 1.000_000_1), Date(timeIntervalSinceReferenceDate: -978_307_200.5),
        Date(timeIntervalSinceReferenceDate: 1e15 + 0.125), Date(timeIntervalSinceReferenceDate: -1e15),
        Date(timeIntervalSinceReferenceDate: .leastNonzeroMagnitude),
    ]
    static let decimals = [
        "3.141592653589793238", "0.000000000000000000000000000001", "-12345678901234567890123456789012345678",
        "1e-100", "99999999999999999999999999999999999999",
    ].map { Decimal(string: $0, locale: Locale(identifier: "en_US_POSIX"))! }

    private func store(dates: [Date] = [], decimals: [Decimal] = []) throws -> Results<Everything> {
        let db = try makeDatabase(directory)
        try db.write { transaction in
            for date in dates {
                let object = Everything()
                object.date = date
                try transaction.add(object)
            }
            for decimal in decimals {
                let object = Everything()
                object.decimal = decimal
                try transaction.add(object)
            }
        }
        return try db.view().objects(Everything.self)
    }

    @Test(arguments: dates)
    func aDateArgumentFindsExactlyItsDate(date: Date) throws {
        let objects = try store(dates: [date, date.nextUp, date.nextDown])
        #expect(try objects.filter("date == %@", date).map(\.date) == [date])
        #expect(objects.where { $0.date == date }.map(\.date) == [date])
        #expect(try objects.filter(#Predicate<Everything> { $0.date == date }).map(\.date) == [date])
        #expect(try objects.filter("date > %@", date).count == 1)
    }

    @Test(arguments: decimals)
    func aDecimalArgumentFindsExactlyItsDecimal(decimal: Decimal) throws {
        let tiny = Decimal(string: "1e-30")!
        let neighbour = decimal + tiny == decimal ? decimal * 2 : decimal + tiny
        let objects = try store(decimals: [decimal, neighbour])
        #expect(try objects.filter("decimal == %@", decimal).map(\.decimal) == [decimal])
        #expect(objects.where { $0.decimal == decimal }.map(\.decimal) == [decimal])
        #expect(try objects.filter(#Predicate<Everything> { $0.decimal == decimal }).map(\.decimal) == [decimal])
    }
}

extension Date {
    fileprivate var nextUp: Date { Date(timeIntervalSinceReferenceDate: timeIntervalSinceReferenceDate.nextUp) }
    fileprivate var nextDown: Date { Date(timeIntervalSinceReferenceDate: timeIntervalSinceReferenceDate.nextDown) }
}
