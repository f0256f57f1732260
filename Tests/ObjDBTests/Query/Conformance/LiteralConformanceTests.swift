import Foundation
import Testing

/// Realm's literals: `uuid(…)`, dates (`YYYY-MM-DD@HH:MM:SS[:NANOS]`, `T<seconds>:<nanos>`),
/// `B64"…"`, `inf`/`NaN`, signed, hexadecimal and float numbers, and decimals kept exact. Dates
/// are UTC; UUIDs order by their bytes, as Realm orders them.
@Suite("Query conformance: literals")
struct LiteralConformanceTests {
    static let uuids: [ConformanceCase] = [
        .person("key == uuid(1A2B3C4D-0000-4000-8000-000000000000)") { $0.key == Seed.uuid("1A2B3C4D") },
        .person("key == uuid(1a2b3c4d-0000-4000-8000-000000000000)") { $0.key == Seed.uuid("1A2B3C4D") },
        .person("key != uuid(1A2B3C4D-0000-4000-8000-000000000000)") { $0.key != Seed.uuid("1A2B3C4D") },
        .person("uuid(FFEEDDCC-0000-4000-8000-000000000000) == key") { $0.key == Seed.uuid("FFEEDDCC") },
        .person("key < uuid(7F000000-0000-4000-8000-000000000000)") { bytesPrecede($0.key, Seed.uuid("7F000000")) },
        .person("key <= uuid(7F000000-0000-4000-8000-000000000000)") {
            !bytesPrecede(Seed.uuid("7F000000"), $0.key)
        },
        .person("key > uuid(1A2B3C4D-0000-4000-8000-000000000000)") { bytesPrecede(Seed.uuid("1A2B3C4D"), $0.key) },
        .person("key >= uuid(80000000-0000-4000-8000-000000000000)") {
            !bytesPrecede($0.key, Seed.uuid("80000000"))
        },
        .person("key BETWEEN {uuid(10000000-0000-4000-8000-000000000000), uuid(90000000-0000-4000-8000-000000000000)}")
        {
            !bytesPrecede($0.key, Seed.uuid("10000000")) && !bytesPrecede(Seed.uuid("90000000"), $0.key)
        },
        .person("key IN {uuid(00000001-0000-4000-8000-000000000000), uuid(C0FFEE00-0000-4000-8000-000000000000)}") {
            [Seed.uuid("00000001"), Seed.uuid("C0FFEE00")].contains($0.key)
        },
        .person("key < %@", .uuid(Seed.uuid("80000000"))) { bytesPrecede($0.key, Seed.uuid("80000000")) },
        .person("key > $0", .uuid(Seed.uuid("0000FFFF"))) { bytesPrecede(Seed.uuid("0000FFFF"), $0.key) },
    ]

    static let dates: [ConformanceCase] = [
        .person("born == 1990-05-01@08:00:00") { $0.born == Seed.date("1990-05-01T08:00:00Z") },
        .person("born == 1990-05-01T08:00:00") { $0.born == Seed.date("1990-05-01T08:00:00Z") },
        .person("born != 1990-05-01@08:00:00") { $0.born != Seed.date("1990-05-01T08:00:00Z") },
        .person("1990-05-01@08:00:00 == born") { $0.born == Seed.date("1990-05-01T08:00:00Z") },
        .person("born > 2000-01-01@00:00:00") { $0.born > Seed.date("2000-01-01T00:00:00Z") },
        .person("born < 1980-1-1@0:0:0") { $0.born < Seed.date("1980-01-01T00:00:00Z") },
        .person("born >= 1997-11-23@12:30:00:0") { $0.born >= Seed.date("1997-11-23T12:30:00Z") },
        // A microsecond: a Date (a Double of seconds since 2001) cannot tell a nanosecond apart in 1997.
        .person("born == 1997-11-23@12:30:00:1000") { _ in false },
        .person("born < 1997-11-23@12:30:00:1000") { $0.born <= Seed.date("1997-11-23T12:30:00Z") },
        .person("born > T631152000:0") { $0.born > Seed.date("1990-01-01T00:00:00Z") },
        .person("born == T1512130073:0") { _ in false },
        .person("born < T0:0") { $0.born < Date(timeIntervalSince1970: 0) },
        .person("born BETWEEN {1990-01-01@00:00:00, 1999-12-31@23:59:59}") {
            (Seed.date("1990-01-01T00:00:00Z")...Seed.date("1999-12-31T23:59:59Z")).contains($0.born)
        },
        .person("born IN {1963-09-09@12:00:00, 2016-12-31@06:15:00}") {
            [Seed.date("1963-09-09T12:00:00Z"), Seed.date("2016-12-31T06:15:00Z")].contains($0.born)
        },
        .person("born > 1990-05-01@08:00:00 AND born < 2000-01-01@00:00:00") {
            $0.born > Seed.date("1990-05-01T08:00:00Z") && $0.born < Seed.date("2000-01-01T00:00:00Z")
        },
    ]

    static let numbers: [ConformanceCase] = [
        .person("balance == 3.141592653589793238") { $0.balance == Seed.decimal("3.141592653589793238") },
        .person("balance > 3.141592653589793237") { $0.balance > Seed.decimal("3.141592653589793237") },
        .person("balance < 3.141592653589793239") { $0.balance < Seed.decimal("3.141592653589793239") },
        .person("balance == 1250.50") { $0.balance == Seed.decimal("1250.50") },
        .person("balance == -20.25") { $0.balance == Seed.decimal("-20.25") },
        .person("balance >= 1000000") { $0.balance >= Seed.decimal("1000000") },
        .person("balance < inf") { _ in true },
        .person("balance > -inf") { _ in true },
        .person("height < inf") { $0.height != nil },
        .person("height > -inf") { $0.height != nil },
        .person("height == +inf") { _ in false },
        .person("height == NaN") { _ in false },
        .person("rating < Infinity") { _ in true },
        .person("ANY ratings < inf") { !$0.ratings.isEmpty },
        .person("ALL ratings < INF") { _ in true },
        .dog("weight > -INF") { _ in true },
        .person("age == +34") { $0.age == 34 },
        .person("age > -1") { _ in true },
        .person("age == 0x22") { $0.age == 34 },
        .person("age > 0X1e") { $0.age > 30 },
        .person("height > .5") { $0.height != nil },
        .person("rating == 4.5f") { $0.rating == 4.5 },
        .person("rating > 3.2f") { $0.rating > 3.2 },
        .person("visits > 0x100000000") { $0.visits > 0x1_0000_0000 },
        .person("visits > -0x8000000000000000") { $0.visits > Int64.min },
        .person("visits < 0x7FFFFFFFFFFFFFFF") { $0.visits < Int64.max },
    ]

    static let data: [ConformanceCase] = [
        .person("avatar == B64\"AQID\"") { $0.avatar == Data([1, 2, 3]) },
        .person("avatar == B64\"AQI=\"") { $0.avatar == Data([1, 2]) },
        .person("avatar == B64\"AQI\"") { $0.avatar == Data([1, 2]) },
        .person("avatar == B64\"\"") { $0.avatar == Data() },
        .person("avatar != B64\"AQID\"") { $0.avatar != Data([1, 2, 3]) },
        .person("B64\"/w==\" == avatar") { $0.avatar == Data([0xFF]) },
        .person("avatar BEGINSWITH B64\"AQ==\"") { $0.avatar?.starts(with: [1]) ?? false },
        .person("avatar ENDSWITH B64\"AQ==\"") { $0.avatar?.last == 1 },
        .person("avatar CONTAINS B64\"Ag==\"") { $0.avatar?.contains(2) ?? false },
        .person("avatar IN {B64\"AQID\", B64\"AwIB\"}") { [Data([1, 2, 3]), Data([3, 2, 1])].contains($0.avatar) },
        .person("avatar == ''") { $0.avatar == Data() },
        .person("name == B64\"QW5u\"") { $0.name == "Ann" },
    ]

    static let rejected: [RejectedQuery] = [
        RejectedQuery("born > 1899-12-31@00:00:00", at: 7, mentioning: "dates before 1900"),
        RejectedQuery("born > 2020-13-01@00:00:00", at: 7, mentioning: "the month 13 is not 1 to 12"),
        RejectedQuery("born > 2021-02-29@00:00:00", at: 7, mentioning: "the day 29 is not 1 to 28"),
        RejectedQuery("born > 2021-02-01@24:00:00", at: 7, mentioning: "the hour 24"),
        RejectedQuery("born == T1:-2", at: 8, mentioning: "differ in sign"),
        RejectedQuery("key == uuid(xyz)", at: 7, mentioning: "is not a UUID"),
        RejectedQuery("key == uuid(1A2B3C4D-0000-4000-8000-000000000000", at: 7, mentioning: "closing ')'"),
        RejectedQuery("avatar == B64\"@@\"", at: 10, mentioning: "is not base64"),
        RejectedQuery("avatar == B64\"AQID", at: 10, mentioning: "closing quote"),
        RejectedQuery(
            "age > 0x1FFFFFFFFFFFFFFFF", at: 6, mentioning: "0x1FFFFFFFFFFFFFFFF does not fit in a 64-bit integer"),
        RejectedQuery("age > 0xFFFFFFFFFFFFFFFF", at: 6, mentioning: "does not fit in a 64-bit integer"),
        RejectedQuery("age > 0x8000000000000000", at: 6, mentioning: "does not fit in a 64-bit integer"),
        RejectedQuery("key == oid(507f1f77bcf86cd799439011)", at: 7, mentioning: "ObjectId"),
        RejectedQuery("age > inf", at: nil, mentioning: "inf"),
        RejectedQuery("key BEGINSWITH uuid(1A2B3C4D-0000-4000-8000-000000000000)", at: nil, mentioning: "key"),
        RejectedQuery("born > 'yesterday'", at: nil, mentioning: "born (date) cannot be compared with String"),
    ]

    @Test(arguments: uuids) func uuidLiteralsAndOrder(query: ConformanceCase) throws { try query.check() }
    @Test(arguments: dates) func dateLiterals(query: ConformanceCase) throws { try query.check() }
    @Test(arguments: numbers) func numberLiterals(query: ConformanceCase) throws { try query.check() }
    @Test(arguments: data) func dataLiterals(query: ConformanceCase) throws { try query.check() }
    @Test(arguments: rejected) func badLiteralsAreRejectedWhereTheyStand(query: RejectedQuery) throws {
        try query.check()
    }
}

/// Whether `uuid`'s 16 bytes come before `other`'s, as Realm orders UUIDs.
func bytesPrecede(_ uuid: UUID, _ other: UUID) -> Bool {
    withUnsafeBytes(of: uuid.uuid) { left in
        withUnsafeBytes(of: other.uuid) { right in left.lexicographicallyPrecedes(right) }
    }
}
