import Foundation
import TestSupport
import Testing

@testable import ObjDB

@Suite("Objects: every property type round-trips")
struct RoundTripTests {
    let directory = TemporaryDirectory()

    /// Adds `object`, then reads it back from a fresh view of a reopened database.
    func roundTrip(_ object: Everything) throws -> Everything {
        let key = object.key
        do {
            let db = try makeDatabase(directory)
            try db.write { try $0.add(object) }
        }
        let db = try makeDatabase(directory)
        return try #require(try db.view().object(ofType: Everything.self, forPrimaryKey: key))
    }

    @Test func extremesOfEveryScalarSurvive() throws {
        let object = Everything()
        object.bool = true
        object.int = Int.min
        object.int8 = Int8.min
        object.int16 = Int16.max
        object.int32 = Int32.min
        object.int64 = Int64.max
        object.float = -Float.infinity
        object.double = -0.0
        object.string = "🇫🇷 e\u{301}té — 日本語"
        object.data = Data([0, 255, 0, 1])
        object.date = Date(timeIntervalSinceReferenceDate: -1e10)
        object.uuid = UUID()
        object.decimal = Decimal(string: "-1234567890.0987654321")!
        object.mood = .grumpy
        object.priority = .high
        let stored = try roundTrip(object)
        #expect(stored.bool == true)
        #expect(stored.int == Int.min)
        #expect(stored.int8 == Int8.min)
        #expect(stored.int16 == Int16.max)
        #expect(stored.int32 == Int32.min)
        #expect(stored.int64 == Int64.max)
        #expect(stored.float == -Float.infinity)
        #expect(stored.double == 0 && stored.double.sign == .minus)
        #expect(stored.string == "🇫🇷 e\u{301}té — 日本語")
        #expect(stored.data == Data([0, 255, 0, 1]))
        #expect(stored.date == Date(timeIntervalSinceReferenceDate: -1e10))
        #expect(stored.uuid == object.uuid)
        #expect(stored.decimal == Decimal(string: "-1234567890.0987654321")!)
        #expect(stored.mood == .grumpy)
        #expect(stored.priority == .high)
    }

    @Test func nanAndInfinitiesSurvive() throws {
        let object = Everything()
        object.double = .nan
        object.float = .infinity
        object.optionalDouble = -.infinity
        object.doubles.append(contentsOf: [.nan, .infinity, -0.0, .leastNonzeroMagnitude])
        let stored = try roundTrip(object)
        #expect(stored.double.isNaN)
        #expect(stored.float == .infinity)
        #expect(stored.optionalDouble == -.infinity)
        #expect(stored.doubles.count == 4)
        #expect(stored.doubles[0].isNaN)
        #expect(Array(stored.doubles.dropFirst()) == [.infinity, -0.0, .leastNonzeroMagnitude])
    }

    @Test func everyOptionalIsNilByDefaultAndStaysNil() throws {
        let stored = try roundTrip(Everything())
        #expect(stored.optionalBool == nil)
        #expect(stored.optionalInt == nil)
        #expect(stored.optionalInt8 == nil)
        #expect(stored.optionalInt16 == nil)
        #expect(stored.optionalInt32 == nil)
        #expect(stored.optionalInt64 == nil)
        #expect(stored.optionalFloat == nil)
        #expect(stored.optionalDouble == nil)
        #expect(stored.optionalString == nil)
        #expect(stored.optionalData == nil)
        #expect(stored.optionalDate == nil)
        #expect(stored.optionalUUID == nil)
        #expect(stored.optionalDecimal == nil)
        #expect(stored.optionalMood == nil)
        #expect(stored.address == nil)
    }

    @Test func everyOptionalHoldsAValue() throws {
        let object = Everything()
        object.optionalBool = false
        object.optionalInt = 0
        object.optionalInt8 = -1
        object.optionalInt16 = 300
        object.optionalInt32 = 70_000
        object.optionalInt64 = Int64.min
        object.optionalFloat = 1.5
        object.optionalDouble = 2.25
        object.optionalString = ""
        object.optionalData = Data()
        object.optionalDate = Date(timeIntervalSince1970: 1_376_759_209)
        object.optionalUUID = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
        object.optionalDecimal = Decimal(string: "0.1")
        object.optionalMood = .excited
        let stored = try roundTrip(object)
        #expect(stored.optionalBool == false)
        #expect(stored.optionalInt == 0)
        #expect(stored.optionalInt8 == -1)
        #expect(stored.optionalInt16 == 300)
        #expect(stored.optionalInt32 == 70_000)
        #expect(stored.optionalInt64 == Int64.min)
        #expect(stored.optionalFloat == 1.5)
        #expect(stored.optionalDouble == 2.25)
        #expect(stored.optionalString == "")
        #expect(stored.optionalData == Data())
        #expect(stored.optionalDate == Date(timeIntervalSince1970: 1_376_759_209))
        #expect(stored.optionalUUID == UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        #expect(stored.optionalDecimal == Decimal(string: "0.1"))
        #expect(stored.optionalMood == .excited)
    }

    @Test func emptyAndHugeValuesSurvive() throws {
        let object = Everything()
        let huge = String(repeating: "ÿ€😀", count: 1 << 18)  // over 1 MiB of UTF-8
        object.string = huge
        object.data = Data()
        let stored = try roundTrip(object)
        #expect(stored.string.utf8.count > 1 << 20)
        #expect(stored.string == huge)
        #expect(stored.data.isEmpty)
    }

    @Test func collectionsOfPrimitivesSurvive() throws {
        let object = Everything()
        object.ints.append(contentsOf: [3, Int.min, 0, Int.max, 3])
        object.strings.append(contentsOf: ["", "b", "ä", "b"])
        object.optionalStrings.append(contentsOf: [nil, "x", nil])
        object.dates.append(Date(timeIntervalSince1970: 0))
        object.stringSet.insert(contentsOf: ["a", "b", "a", "c"])
        object.scores["untappd"] = 4.1
        object.scores["ratebeer"] = 3.9
        object.labels["missing"] = .some(nil)
        object.labels["present"] = "yes"
        let stored = try roundTrip(object)
        #expect(Array(stored.ints) == [3, Int.min, 0, Int.max, 3])
        #expect(Array(stored.strings) == ["", "b", "ä", "b"])
        #expect(Array(stored.optionalStrings) == [nil, "x", nil])
        #expect(Array(stored.dates) == [Date(timeIntervalSince1970: 0)])
        #expect(Array(stored.stringSet) == ["a", "b", "c"])
        #expect(stored.scores.dictionary == ["untappd": 4.1, "ratebeer": 3.9])
        #expect(stored.labels.count == 2)
        #expect(stored.labels["present"] == "yes")
        #expect(stored.labels["missing"] == .some(nil))
    }

    @Test func emptyCollectionsStayEmpty() throws {
        let stored = try roundTrip(Everything())
        #expect(stored.ints.isEmpty)
        #expect(stored.strings.isEmpty)
        #expect(stored.stringSet.isEmpty)
        #expect(stored.scores.count == 0)
        #expect(stored.addresses.isEmpty)
    }

    @Test func embeddedObjectsSurviveAlone_andInLists() throws {
        let object = Everything()
        let home = Address()
        home.street = "1 Infinite Loop"
        home.city = "Cupertino"
        object.address = home
        for city in ["Brussels", "Ghent"] {
            let address = Address()
            address.city = city
            object.addresses.append(address)
        }
        let stored = try roundTrip(object)
        #expect(stored.address?.street == "1 Infinite Loop")
        #expect(stored.address?.city == "Cupertino")
        #expect(stored.addresses.map(\.city) == ["Brussels", "Ghent"])
    }

    @Test func integerValuesOutOfANarrowTypesRangeAreATypedError() throws {
        let db = try makeDatabase(directory)
        #expect(
            throws: ObjDBError.typeMismatch(
                type: "Everything", property: "int8", expected: "int8", found: "Int out of range")
        ) {
            try db.write { try $0.create(Everything.self, value: ["key": UUID(), "int8": 300]) }
        }
    }
}
