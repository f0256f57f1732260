import Foundation
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

    @Test(arguments: placeholders) func valueArguments(query: ConformanceCase) throws { try query.check() }
    @Test(arguments: keyPaths) func keyPathArguments(query: ConformanceCase) throws { try query.check() }
}
