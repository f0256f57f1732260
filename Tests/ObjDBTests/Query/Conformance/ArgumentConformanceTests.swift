import Foundation
import ObjDB
import Testing

/// Realm's parameterised queries: `$0`, `$1`, … and `%@` values, `$K0` and `%K` key paths,
/// a value of any stored type, a list for `IN` and `BETWEEN`, an object for a link.
@Suite("Query conformance: arguments")
struct ArgumentConformanceTests {
    static let placeholders: [ConformanceCase] = [
        .person("age > $0", .int(30)) { $0.age > 30 },
        .person("$0 < age", .int(30)) { $0.age > 30 },
        .person("age > %@", .int(30)) { $0.age > 30 },
        .person("age > $0 AND age < $1", .int(20), .int(40)) { $0.age > 20 && $0.age < 40 },
        .person("age < $1 AND age > $0", .int(20), .int(40)) { $0.age > 20 && $0.age < 40 },
        .person("age == $0 OR age == $0", .int(34)) { $0.age == 34 },
        .person("age > %@ AND name BEGINSWITH %@", .int(20), .string("D")) { $0.age > 20 && $0.name.hasPrefix("D") },
        .person("name == $0", .string("Émile")) { $0.name == "Émile" },
        .person("name ==[c] $0", .string("HANA")) { same($0.name, "HANA", [.caseInsensitive]) },
        .person("nickname == $0", .null) { $0.nickname == nil },
        .person("nickname != %@", .null) { $0.nickname != nil },
        .person("height > $0", .double(1.7)) { ($0.height ?? 0) > 1.7 },
        .person("height == $0", .null) { $0.height == nil },
        .person("isMember == $0", .bool(true)) { $0.isMember },
        .person("age IN $0", .list([.int(8), .int(19)])) { [8, 19].contains($0.age) },
        .person("age IN %@", .list([])) { _ in false },
        .person("name IN $0", .list([.string("Ann"), .string("Gus")])) { ["Ann", "Gus"].contains($0.name) },
        .person("age BETWEEN $0", .list([.int(27), .int(34)])) { (27...34).contains($0.age) },
        .person("rating == $0", .double(4.5)) { $0.rating == 4.5 },
        .person("level > $0", .int(4)) { $0.level > 4 },
        .person("visits >= $0", .int(5_000_000_000)) { $0.visits >= 5_000_000_000 },
        .person("balance > $0", .decimal(Seed.decimal("99.98"))) { $0.balance > Seed.decimal("99.98") },
        .person("balance < $0", .int(1)) { $0.balance < 1 },
        .person("key == $0", .uuid(Seed.people[4].key)) { $0.key == Seed.people[4].key },
        .person("born == $0", .date(Seed.people[7].born)) { $0.born == Seed.people[7].born },
        .person("avatar == $0", .data(Data([0xFF]))) { $0.avatar == Data([0xFF]) },
        .person("best == $0", .dog("Rex")) { $0.best == "Rex" },
        .person("best == $0", .null) { $0.best == nil },
        .person("ANY dogs == $0", .dog("Bolt")) { $0.dogs.contains("Bolt") },
        .person("ANY luckyNumbers == $0", .int(7)) { $0.luckyNumbers.contains(7) },
        .dog("breed == %@ OR breed == %@", .string("Poodle"), .null) { $0.breed == "Poodle" || $0.breed == nil },
        .item("progressMinutes > $0 AND assignee == $1", .int(1), .string("Ali")) {
            $0.progressMinutes > 1 && $0.assignee == "Ali"
        },
    ]

    static let keyPaths: [ConformanceCase] = [
        .person("%K > %@", .string("age"), .int(30)) { $0.age > 30 },
        .person("$K0 > $1", .string("age"), .int(30)) { $0.age > 30 },
        .person("$K0 == $1", .string("best.name"), .string("Luna")) { $0.best == "Luna" },
        .person("%K BEGINSWITH %@", .string("nickname"), .string("D")) { $0.nickname?.hasPrefix("D") ?? false },
        .person("ANY %K == %@", .string("tags"), .string("go")) { $0.tags.contains("go") },
        .person("%@ IN %K", .int(7), .string("luckyNumbers")) { $0.luckyNumbers.contains(7) },
        .person("%K > %K", .string("age"), .string("level")) { $0.age > Int($0.level) },
    ]

    /// The argument's key path spliced in before what the predicate writes after it: any step
    /// after `%K` (NSPredicate), only `.@count`, `.@size` and aggregates after `$K0` (Realm).
    static let continuedKeyPaths: [ConformanceCase] = [
        .person("%K.@count > 1", .string("dogs")) { $0.dogs.count > 1 },
        .person("%K.@size == 0", .string("luckyNumbers")) { $0.luckyNumbers.isEmpty },
        .person("$K0.@count > 1", .string("dogs")) { $0.dogs.count > 1 },
        .person("$K0.@size >= $1", .string("tags"), .int(2)) { $0.tags.count >= 2 },
        .person("$K0.@sum.age > 10", .string("dogs")) { $0.dogValues.map(\.age).reduce(0, +) > 10 },
        .person("$K0.@max.weight < 20", .string("dogs")) { ($0.dogValues.map(\.weight).max() ?? .infinity) < 20 },
        .person("$K0.@sum > 10", .string("luckyNumbers")) { $0.luckyNumbers.reduce(0, +) > 10 },
        .person("$K0.@avg >= 4", .string("ratings")) {
            !$0.ratings.isEmpty && $0.ratings.reduce(0, +) / Double($0.ratings.count) >= 4
        },
        .person("%K.name == 'Rex'", .string("best")) { $0.best == "Rex" },
        .person("%K.age > 8", .string("best")) { ($0.bestDog?.age ?? 0) > 8 },
        .person("ANY %K.name == 'Luna'", .string("dogs")) { $0.dogs.contains("Luna") },
        .person("%K.breed BEGINSWITH[c] %@", .string("best"), .string("lab")) {
            $0.bestDog?.breed?.lowercased().hasPrefix("lab") ?? false
        },
        .person("%K.city == 'Oslo'", .string("home")) { $0.city == "Oslo" },
        .person("%K[0] == 7", .string("luckyNumbers")) { $0.luckyNumbers.first == 7 },
        .person("%K['math'] > 80", .string("scores")) { ($0.scores["math"] ?? 0) > 80 },
        .person("%K.@avg.weight > 20", .string("dogs")) {
            !$0.dogs.isEmpty && $0.dogValues.map(\.weight).reduce(0, +) / Double($0.dogs.count) > 20
        },
        .person("%K.length > 4", .string("best.name")) { ($0.best?.utf8.count ?? 0) > 4 },
        .person("SUBQUERY(%K, $d, $d.age > 4).@count > 0", .string("dogs")) {
            $0.dogValues.contains { $0.age > 4 }
        },
        .project("%K.allergens.name == 'milk'", .string("items")) {
            $0.itemValues.contains { $0.allergens.contains("milk") }
        },
    ]

    /// Key path arguments that do not name a key path, or are continued as Realm does not allow.
    static let badKeyPaths: [RejectedQuery] = [
        RejectedQuery("$K0.name == 'Rex'", .string("best"), at: 3, mentioning: "followed only by .@count"),
        RejectedQuery("$K0[0] == 7", .string("luckyNumbers"), at: 3, mentioning: "put the whole key path"),
        RejectedQuery("$K0.@sum.age.name > 1", .string("dogs"), at: 3, mentioning: "followed only by .@count"),
        RejectedQuery("%K > 1", .string("a..b"), at: 0, mentioning: "needs a key path such as 'dogs.age'"),
        RejectedQuery("$K0 > 1", .string(""), at: 0, mentioning: "not ''"),
        RejectedQuery("%K. > 1", .string("dogs"), at: 4, mentioning: "a property name after '.'"),
        RejectedQuery("%K.@foo > 1", .string("dogs"), at: 0, mentioning: "unknown aggregate @foo"),
        RejectedQuery("%K.nosuch == 1", .string("best"), at: nil, mentioning: "RQLDog has no property nosuch"),
        RejectedQuery("%K.nosuch == 1", .string("best"), at: nil, mentioning: "(at position 0)"),
        RejectedQuery("age > 1 AND %K.@count > 1", .string("age"), at: nil, mentioning: "(at position 12)"),
    ]

    @Test(arguments: placeholders) func valueArguments(query: ConformanceCase) throws { try query.check() }
    @Test(arguments: keyPaths) func keyPathArguments(query: ConformanceCase) throws { try query.check() }
    @Test(arguments: continuedKeyPaths) func keyPathArgumentsContinue(query: ConformanceCase) throws {
        try query.check()
    }
    @Test(arguments: badKeyPaths) func badKeyPathArgumentsAreRejected(query: RejectedQuery) throws {
        try query.check()
    }

    /// A continued key path argument is the written path: the planner sees the same query.
    @Test(arguments: [
        ("%K.@count > 1", "dogs", "dogs.@count > 1"), ("$K0.@sum.age > 10", "dogs", "dogs.@sum.age > 10"),
        ("%K.name == 'Rex'", "best", "best.name == 'Rex'"), ("%K.@size >= 2", "tags", "tags.@size >= 2"),
    ])
    func aContinuedKeyPathArgumentPlansAsTheWrittenPath(continued: String, argument: String, written: String) throws {
        let people = try ConformanceStore.database().view().objects(RQLPerson.self)
        #expect(try people.filter(continued, argument).explain() == people.filter(written).explain())
    }
}
