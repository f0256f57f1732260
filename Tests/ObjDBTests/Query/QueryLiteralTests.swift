import Foundation
import TestSupport
import Testing

@testable import ObjDB

/// Realm's literal forms in the string front-end (#17.10): each finds the objects Realm finds,
/// and a malformed one is a syntax error at its position.
@Suite("Queries: literals")
struct QueryLiteralTests: EverythingFixture {
    let directory = TemporaryDirectory()

    /// 2017-12-01 12:07:53 UTC, Realm's test timestamp.
    static let december: Int64 = 1_512_130_073

    static func date(_ seconds: Int64, nanoseconds: Int64 = 0) -> Date {
        Date(timeIntervalSinceReferenceDate: Double(seconds - 978_307_200) + Double(nanoseconds) / 1e9)
    }

    // MARK: UUID

    static let uuids = [
        "00000000-0000-0000-0000-000000000001", "7F000000-0000-0000-0000-000000000000",
        "80000000-0000-0000-0000-000000000000", "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF",
    ].map { UUID(uuidString: $0)! }

    @Test func aUUIDLiteralFindsItsObject() throws {
        let all = try store(Self.uuids.map { uuid in { $0.uuid = uuid } })
        #expect(positions(try all.filter("uuid == uuid(7f000000-0000-0000-0000-000000000000)")) == [1])
        #expect(positions(try all.filter("uuid == uuid(FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF)")) == [3])
    }

    @Test func uuidsOrderByTheirBytes() throws {
        let all = try store(Self.uuids.map { uuid in { $0.uuid = uuid } })
        #expect(positions(try all.filter("uuid > uuid(7f000000-0000-0000-0000-000000000000)")) == [2, 3])
        #expect(positions(try all.filter("uuid <= uuid(7f000000-0000-0000-0000-000000000000)")) == [0, 1])
    }

    @Test func betweenTwoUUIDsIsInclusive() throws {
        let all = try store(Self.uuids.map { uuid in { $0.uuid = uuid } })
        let between =
            "uuid BETWEEN {uuid(7F000000-0000-0000-0000-000000000000), uuid(80000000-0000-0000-0000-000000000000)}"
        #expect(positions(try all.filter(between)) == [1, 2])
    }

    @Test func aUUIDRangeOnThePrimaryKeyReadsOnlyTheRange() throws {
        let all = try store(Array(repeating: { _ in }, count: 5))
        let range = try all.filter(
            "key BETWEEN {uuid(00000000-0000-0000-0000-000000000001), uuid(00000000-0000-0000-0000-000000000003)}")
        #expect(positions(range) == [1, 2, 3])
        #expect(try range.explain().contains("primary key range"))
        #expect(positions(try all.filter("key > uuid(00000000-0000-0000-0000-000000000003)")) == [4])
    }

    @Test func aUUIDArgumentOrdersAsItsLiteralDoes() throws {
        let all = try store(Self.uuids.map { uuid in { $0.uuid = uuid } })
        #expect(positions(try all.filter("uuid < %@", Self.uuids[2])) == [0, 1])
    }

    @Test func aUUIDLiteralWithBadDigitsIsASyntaxErrorAtTheLiteral() throws {
        let error = try syntaxError("uuid == uuid(7f000000-0000-0000-0000-00000000000g)")
        #expect(error?.position == 8)
        #expect(error?.message.contains("not a UUID") == true)
    }

    @Test func aUUIDLiteralWithoutItsParenthesisIsASyntaxError() throws {
        #expect(try syntaxError("uuid == uuid(7f000000-0000-0000-0000-000000000000")?.position == 8)
    }

    @Test func stringOperatorsDoNotApplyToUUIDs() throws {
        #expect(try queryError("uuid BEGINSWITH uuid(7f000000-0000-0000-0000-000000000000)") != nil)
    }

    @Test func anObjectIdLiteralNamesTheMissingType() throws {
        #expect(try syntaxError("uuid == oid(507f1f77bcf86cd799439011)")?.message.contains("ObjectId") == true)
    }

    // MARK: Dates

    @Test func aDateLiteralIsAnInstantInUTC() throws {
        let all = try store([{ $0.date = Self.date(Self.december) }, { $0.date = Self.date(Self.december + 1) }])
        #expect(positions(try all.filter("date == 2017-12-01@12:07:53")) == [0])
        #expect(positions(try all.filter("date > 2017-12-1@12:07:53")) == [1])
    }

    @Test func aDateLiteralMaySeparateTheTimeWithT() throws {
        let all = try store([{ $0.date = Self.date(Self.december) }])
        #expect(positions(try all.filter("date == 2017-12-01T12:07:53")) == [0])
    }

    @Test func aDateLiteralCountsNanoseconds() throws {
        let all = try store([
            { $0.date = Self.date(Self.december, nanoseconds: 505) }, { $0.date = Self.date(Self.december) },
        ])
        #expect(positions(try all.filter("date == 2017-12-01@12:07:53:505")) == [0])
        #expect(positions(try all.filter("date < 2017-12-01@12:07:53:505")) == [1])
    }

    @Test func aTimestampLiteralCountsFrom1970() throws {
        let all = try store([
            { $0.date = Self.date(0) }, { $0.date = Self.date(1, nanoseconds: 2) },
            { $0.date = Self.date(Self.december) },
        ])
        #expect(positions(try all.filter("date == T1:2")) == [1])
        #expect(positions(try all.filter("date > T0:0")) == [1, 2])
        #expect(positions(try all.filter("date == T1512130073:0")) == [2])
    }

    @Test func aNegativeTimestampIsBefore1970() throws {
        let all = try store([{ $0.date = Self.date(-1, nanoseconds: -500_000_000) }, { $0.date = Self.date(0) }])
        #expect(positions(try all.filter("date == T-1:-500000000")) == [0])
        #expect(positions(try all.filter("date < T0:0")) == [0])
    }

    @Test func aDateBefore1970CountsItsNanosecondsAwayFrom1970() throws {
        // Realm keeps a Timestamp's two parts with one sign: -1 s and -0.5 s, so -1.5 s.
        let all = try store([
            { $0.date = Self.date(-1) }, { $0.date = Self.date(-1, nanoseconds: -500_000_000) },
            { $0.date = Self.date(-86_400 * 365) },
        ])
        #expect(positions(try all.filter("date == 1969-12-31@23:59:59")) == [0])
        #expect(positions(try all.filter("date == 1969-12-31@23:59:59:500000000")) == [1])
        #expect(positions(try all.filter("date == 1969-01-01@00:00:00")) == [2])
    }

    @Test func aTimestampWithPartsOfTwoSignsIsASyntaxError() throws {
        #expect(try syntaxError("date == T-1:5")?.position == 8)
    }

    @Test(arguments: [
        "2017-02-29@00:00:00", "2017-13-01@00:00:00", "2017-12-00@00:00:00", "2017-12-01@24:00:00",
        "2017-12-01@12:60:00", "2017-12-01@12:07:61", "2017-12-01@12:07:53:1000000000", "2017-12-01@12:07",
        "1899-12-31@23:59:59",
    ])
    func aMalformedDateIsASyntaxErrorAtTheDate(date: String) throws {
        #expect(try syntaxError("date == \(date)")?.position == 8)
    }

    @Test func aLeapDayIsADate() throws {
        let all = try store([{ $0.date = Self.date(951_782_400) }])
        #expect(positions(try all.filter("date == 2000-02-29@00:00:00")) == [0])
    }

    // MARK: Binary

    @Test func aBase64LiteralIsBinaryData() throws {
        let all = try store([{ $0.data = Data([0, 1, 2, 255]) }, { $0.data = Data([0, 1, 2]) }])
        #expect(positions(try all.filter("data == B64\"AAEC/w==\"")) == [0])
        #expect(positions(try all.filter("data == B64\"AAEC\"")) == [1])
    }

    @Test func aBase64LiteralMayOmitItsPadding() throws {
        let all = try store([{ $0.data = Data([0, 1, 2, 255]) }])
        #expect(positions(try all.filter("data == B64\"AAEC/w\"")) == [0])
    }

    @Test func aBase64LiteralComparesWithAStringAsItsUTF8() throws {
        let all = try store([{ $0.string = "hello" }, { $0.string = "world" }])
        #expect(positions(try all.filter("string == B64\"aGVsbG8=\"")) == [0])
    }

    @Test func aBadBase64LiteralIsASyntaxErrorAtTheLiteral() throws {
        let error = try syntaxError("data == B64\"AA!C\"")
        #expect(error?.position == 8)
        #expect(error?.message.contains("base64") == true)
    }

    @Test func aStringLiteralComparesWithDataAsItsUTF8() throws {
        let all = try store([{ $0.data = Data("abc".utf8) }, { $0.data = Data("xbc".utf8) }])
        #expect(positions(try all.filter("data == 'abc'")) == [0])
        #expect(positions(try all.filter("data BEGINSWITH 'ab'")) == [0])
        #expect(positions(try all.filter("data ENDSWITH 'bc'")) == [0, 1])
    }

    @Test func caseInsensitiveOperatorsApplyToData() throws {
        let all = try store([{ $0.data = Data("Hello".utf8) }, { $0.data = Data("world".utf8) }])
        #expect(positions(try all.filter("data BEGINSWITH[c] 'he'")) == [0])
        #expect(positions(try all.filter("data CONTAINS[c] 'LL'")) == [0])
        #expect(positions(try all.filter("data ==[c] 'HELLO'")) == [0])
        #expect(positions(try all.filter("data LIKE[c] 'W*D'")) == [1])
    }

    @Test func diacriticInsensitivityDoesNotApplyToData() throws {
        #expect(try queryError("data CONTAINS[d] 'e'") != nil)
    }

    // MARK: Numbers

    @Test func infinityLiteralsBoundEveryDouble() throws {
        let all = try store([
            { $0.double = -.infinity }, { $0.double = -1 }, { $0.double = 1e308 }, { $0.double = .infinity },
        ])
        #expect(positions(try all.filter("double < inf")) == [0, 1, 2])
        #expect(positions(try all.filter("double == Infinity")) == [3])
        #expect(positions(try all.filter("double == -inf")) == [0])
        #expect(positions(try all.filter("double > -INF")) == [1, 2, 3])
        #expect(positions(try all.filter("double == +inf")) == [3])
    }

    @Test func nanEqualsNothingAsIEEE754Says() throws {
        let all = try store([{ $0.double = .nan }, { $0.double = 1 }])
        #expect(positions(try all.filter("double == NaN")) == [])
        #expect(positions(try all.filter("double != nan")) == [0, 1])
    }

    @Test func anIntegerCannotBeComparedWithInfinity() throws {
        #expect(try queryError("int < inf") != nil)
    }

    @Test func aLeadingPlusIsASign() throws {
        let all = try store([{ $0.int = 5 }, { $0.double = 2.5 }])
        #expect(positions(try all.filter("int == +5")) == [0])
        #expect(positions(try all.filter("double == +2.5")) == [1])
    }

    @Test func hexadecimalIntegersAreIntegers() throws {
        let all = try store([{ $0.int = 31 }, { $0.int = -16 }, { $0.int = .max }])
        #expect(positions(try all.filter("int == 0x1F")) == [0])
        #expect(positions(try all.filter("int == -0X10")) == [1])
        #expect(positions(try all.filter("int == 0x7fffffffffffffff")) == [2])
    }

    @Test func aHexadecimalIntegerPastInt64IsASyntaxError() throws {
        #expect(try syntaxError("int == 0x10000000000000000")?.position == 7)
    }

    @Test func anFSuffixMakesAFloat() throws {
        let all = try store([{ $0.float = 0.1 }, { $0.double = 0.1 }])
        #expect(positions(try all.filter("float == 0.1f")) == [0])
        #expect(positions(try all.filter("double == 0.1f")) == [])
    }

    @Test func aNumberMayStartWithItsPoint() throws {
        let all = try store([{ $0.double = 0.5 }, { $0.double = 5 }])
        #expect(positions(try all.filter("double == .5")) == [0])
        #expect(positions(try all.filter("double == 5.")) == [1])
    }

    static let pi = Decimal(string: "3.141592653589793238", locale: Locale(identifier: "en_US_POSIX"))!

    @Test func aDecimalLiteralComparesExactly() throws {
        let all = try store([
            { $0.decimal = Self.pi }, { $0.decimal = Decimal(string: "3.141592653589793")! },
        ])
        #expect(positions(try all.filter("decimal == 3.141592653589793238")) == [0])
        #expect(positions(try all.filter("decimal < 3.141592653589793238")) == [1])
        #expect(positions(try all.filter("decimal IN {1, 3.141592653589793238}")) == [0])
    }

    @Test func aLongLiteralComparesWithADoubleAsTheNearestDouble() throws {
        let all = try store([{ $0.double = 3.141592653589793 }, { $0.double = 3.14 }])
        #expect(positions(try all.filter("double == 3.141592653589793238")) == [0])
    }

    @Test func decimalsCompareWithIntegersAndDoublesByValue() throws {
        let all = try store([{ $0.decimal = 5 }, { $0.decimal = Decimal(string: "0.1")! }])
        #expect(positions(try all.filter("decimal == 5")) == [0])
        #expect(positions(try all.filter("decimal == 0.1")) == [1])
        #expect(positions(try all.filter("decimal < 5.5")) == [0, 1])
    }

    @Test func anIntegerPastInt64IsAnExactDecimal() throws {
        let big = Decimal(string: "99999999999999999999")!
        let all = try store([{ $0.decimal = big }, { $0.decimal = big - 1 }])
        #expect(positions(try all.filter("decimal == 99999999999999999999")) == [0])
    }

    @Test func everyDecimalLiesBetweenTheInfinities() throws {
        let all = try store([{ $0.decimal = -1 }, { $0.decimal = Self.pi }])
        #expect(positions(try all.filter("decimal < inf AND decimal > -inf")) == [0, 1])
        #expect(positions(try all.filter("decimal == inf OR decimal == NaN")) == [])
    }

    @Test func aUnicodeEscapeIsItsCharacter() throws {
        let all = try store([{ $0.string = "é" }, { $0.string = "e" }])
        #expect(positions(try all.filter("string == '\\u00e9'")) == [0])
    }
}
