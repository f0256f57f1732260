import Foundation
import Testing

/// Lists, sets, to-many links and backlinks with Realm's quantifiers (`ANY`/`SOME`, `ALL`,
/// `NONE`, and the implicit `ANY`), `IN`, and `@count`. An empty collection makes `ALL` and
/// `NONE` true and `ANY` false, as in Realm.
@Suite("Query conformance: collections")
struct CollectionConformanceTests {
    static let lists: [ConformanceCase] = [
        .person("ANY luckyNumbers == 7") { $0.luckyNumbers.contains(7) },
        .person("luckyNumbers == 7") { $0.luckyNumbers.contains(7) },
        .person("SOME luckyNumbers > 10") { $0.luckyNumbers.contains { $0 > 10 } },
        .person("any luckyNumbers < 0") { $0.luckyNumbers.contains { $0 < 0 } },
        .person("ALL luckyNumbers > 2") { $0.luckyNumbers.allSatisfy { $0 > 2 } },
        .person("ALL luckyNumbers == 8") { $0.luckyNumbers.allSatisfy { $0 == 8 } },
        .person("all luckyNumbers != 7") { $0.luckyNumbers.allSatisfy { $0 != 7 } },
        .person("NONE luckyNumbers > 5") { !$0.luckyNumbers.contains { $0 > 5 } },
        .person("NONE luckyNumbers == 7") { !$0.luckyNumbers.contains(7) },
        .person("NOT ANY luckyNumbers == 7") { !$0.luckyNumbers.contains(7) },
        .person("NOT ALL luckyNumbers > 2") { !$0.luckyNumbers.allSatisfy { $0 > 2 } },
        .person("7 IN luckyNumbers") { $0.luckyNumbers.contains(7) },
        .person("NONE 7 IN luckyNumbers") { !$0.luckyNumbers.contains(7) },
        .person("ANY 7 IN luckyNumbers") { $0.luckyNumbers.contains(7) },
        .person("%@ IN luckyNumbers", .int(13)) { $0.luckyNumbers.contains(13) },
        .person("$0 IN luckyNumbers", .int(8)) { $0.luckyNumbers.contains(8) },
        .person("ANY luckyNumbers IN {1, 13}") { $0.luckyNumbers.contains { [1, 13].contains($0) } },
        .person("ALL luckyNumbers IN {8}") { $0.luckyNumbers.allSatisfy { $0 == 8 } },
        .person("NONE luckyNumbers IN {7, 8}") { !$0.luckyNumbers.contains { [7, 8].contains($0) } },
        .person("ANY luckyNumbers BETWEEN {2, 4}") { $0.luckyNumbers.contains { (2...4).contains($0) } },
        .person("ALL luckyNumbers BETWEEN {0, 10}") { $0.luckyNumbers.allSatisfy { (0...10).contains($0) } },
        .person("ANY luckyNumbers == 7 AND age > 30") { $0.luckyNumbers.contains(7) && $0.age > 30 },
        .person("ANY luckyNumbers > 3 OR height == nil") { $0.luckyNumbers.contains { $0 > 3 } || $0.height == nil },
        .person("ANY ratings >= 4.5") { $0.ratings.contains { $0 >= 4.5 } },
        .person("ALL ratings > 2") { $0.ratings.allSatisfy { $0 > 2 } },
        .person("NONE ratings < 2") { !$0.ratings.contains { $0 < 2 } },
        .person("4.5 IN ratings") { $0.ratings.contains(4.5) },
        .person("ANY ratings == 4") { $0.ratings.contains(4) },
        .person("ANY ratings BETWEEN {2.5, 3.5}") { $0.ratings.contains { (2.5...3.5).contains($0) } },
    ]

    static let sets: [ConformanceCase] = [
        .person("ANY tags == 'swift'") { $0.tags.contains("swift") },
        .person("tags == 'rust'") { $0.tags.contains("rust") },
        .person("'swift' IN tags") { $0.tags.contains("swift") },
        .person("%@ IN tags", .string("go")) { $0.tags.contains("go") },
        .person("ANY tags ==[c] 'SWIFT'") { $0.tags.contains { same($0, "SWIFT", [.caseInsensitive]) } },
        .person("ALL tags == 'swift'") { $0.tags.allSatisfy { $0 == "swift" } },
        .person("ALL tags != 'rust'") { !$0.tags.contains("rust") },
        .person("NONE tags == 'rust'") { !$0.tags.contains("rust") },
        .person("ANY tags BEGINSWITH 'g'") { $0.tags.contains { $0.hasPrefix("g") } },
        .person("ANY tags CONTAINS[c] 'W'") { $0.tags.contains { fold($0, [.caseInsensitive]).contains("w") } },
        .person("ANY tags LIKE '?o'") { $0.tags.contains { like($0, "?o") } },
        .person("ANY tags IN {'go', 'rust'}") { !$0.tags.isDisjoint(with: ["go", "rust"]) },
        .person("NONE tags IN {'go', 'rust'}") { $0.tags.isDisjoint(with: ["go", "rust"]) },
        .person("ALL tags BEGINSWITH[c] 's'") { $0.tags.allSatisfy { fold($0, [.caseInsensitive]).hasPrefix("s") } },
        .person("tags.@count == 2") { $0.tags.count == 2 },
        .person("tags.@count == 0") { $0.tags.isEmpty },
        .person("tags.@count > 1 AND 'go' IN tags") { $0.tags.count > 1 && $0.tags.contains("go") },
    ]

    static let toManyLinks: [ConformanceCase] = [
        .person("ANY dogs.name == 'Rex'") { $0.dogs.contains("Rex") },
        .person("dogs.name == 'Rex'") { $0.dogs.contains("Rex") },
        .person("'Rex' IN dogs.name") { $0.dogs.contains("Rex") },
        .person("ANY dogs.age > 8") { $0.dogValues.contains { $0.age > 8 } },
        .person("ALL dogs.age > 2") { $0.dogValues.allSatisfy { $0.age > 2 } },
        .person("NONE dogs.age > 8") { !$0.dogValues.contains { $0.age > 8 } },
        .person("ANY dogs.breed == nil") { $0.dogValues.contains { $0.breed == nil } },
        .person("ALL dogs.breed != nil") { $0.dogValues.allSatisfy { $0.breed != nil } },
        .person("ANY dogs.breed BEGINSWITH[c] 'lab'") {
            $0.dogValues.contains { $0.breed.map { fold($0, [.caseInsensitive]).hasPrefix("lab") } ?? false }
        },
        .person("NONE dogs.name IN {'Rex', 'Max'}") { !$0.dogs.contains { ["Rex", "Max"].contains($0) } },
        .person("ANY dogs.weight BETWEEN {10, 25}") { $0.dogValues.contains { (10...25).contains($0.weight) } },
        .person("%@ IN dogs", .dog("Luna")) { $0.dogs.contains("Luna") },
        .person("%@ IN dogs", .dog("Pip")) { $0.dogs.contains("Pip") },
        .person("NOT %@ IN dogs", .dog("Fido")) { !$0.dogs.contains("Fido") },
        .person("dogs.@count == 0") { $0.dogs.isEmpty },
        .person("dogs.@count >= 2") { $0.dogs.count >= 2 },
        .person("dogs.@count == 2") { $0.dogs.count == 2 },
        .person("dogs.@count == 3") { $0.dogs.count == 3 },
        .person("ANY dogs.weight > 20 AND dogs.@count < 3") {
            $0.dogValues.contains { $0.weight > 20 } && $0.dogs.count < 3
        },
        .person("ANY dogs.age > 8 OR best.age > 8") {
            $0.dogValues.contains { $0.age > 8 } || ($0.bestDog?.age ?? 0) > 8
        },
        .item("ANY allergens.name == 'milk'") { $0.allergens.contains("milk") },
        .item("allergens.@count == 0") { $0.allergens.isEmpty },
        .item("allergens.@count > 1") { $0.allergens.count > 1 },
        .item("ALL allergens.populationAffected < 0.05") {
            $0.allergenValues.allSatisfy { $0.populationAffected < 0.05 }
        },
        .item("NONE allergens.name == 'gluten'") { !$0.allergens.contains("gluten") },
        .project("ANY items.isComplete == true") { $0.itemValues.contains { $0.isComplete } },
        .project("ALL items.isComplete == true") { $0.itemValues.allSatisfy { $0.isComplete } },
        .project("NONE items.isComplete == true") { !$0.itemValues.contains { $0.isComplete } },
        .project("items.@count > 2") { $0.items.count > 2 },
        .project("items.@count == 3") { $0.items.count == 3 },
        .project("ANY items.priority > 8") { $0.itemValues.contains { $0.priority > 8 } },
        .project("ANY items.assignee == nil") { $0.itemValues.contains { $0.assignee == nil } },
        .project("ANY items.assignee ==[c] 'MIA'") {
            $0.itemValues.contains { $0.assignee.map { same($0, "MIA", [.caseInsensitive]) } ?? false }
        },
        .project("'Ship release' IN items.name") { $0.items.contains("Ship release") },
        .project("%@ IN items", .item("Fix bug")) { $0.items.contains("Fix bug") },
        .project("ANY items.progressMinutes > 100 AND quota < 3") {
            $0.itemValues.contains { $0.progressMinutes > 100 } && $0.quota < 3
        },
    ]

    static let backlinks: [ConformanceCase] = [
        .dog("owners.@count == 0") { $0.owners.isEmpty },
        .dog("owners.@count > 1") { $0.owners.count > 1 },
        .dog("ANY owners.name == 'Dmitri'") { $0.owners.contains { $0.name == "Dmitri" } },
        .dog("owners.name == 'Ann'") { $0.owners.contains { $0.name == "Ann" } },
        .dog("ALL owners.isMember == true") { $0.owners.allSatisfy(\.isMember) },
        .dog("NONE owners.age < 20") { !$0.owners.contains { $0.age < 20 } },
        .dog("ANY owners.home.city == 'Oslo'") { $0.owners.contains { $0.city == "Oslo" } },
        .dog("ANY owners.nickname BEGINSWITH[c] 'h'") {
            $0.owners.contains { $0.nickname.map { fold($0, [.caseInsensitive]).hasPrefix("h") } ?? false }
        },
        .item("ANY projects.name == 'Apollo'") { $0.projects.contains { $0.name == "Apollo" } },
        .item("ALL projects.quota > 1") { $0.projects.allSatisfy { $0.quota > 1 } },
        .item("projects.@count >= 1") { !$0.projects.isEmpty },
    ]

    static let maps: [ConformanceCase] = [
        .project("comments.@count == 2") { $0.comments.count == 2 },
        .project("comments.@count == 0") { $0.comments.isEmpty },
        .person("scores.@count >= 2") { $0.scores.count >= 2 },
        .person("scores.@count == 1 OR age > 60") { $0.scores.count == 1 || $0.age > 60 },
    ]

    @Test(arguments: lists) func listsOfValues(query: ConformanceCase) throws { try query.check() }
    @Test(arguments: sets) func setsOfValues(query: ConformanceCase) throws { try query.check() }
    @Test(arguments: toManyLinks) func propertiesThroughToManyLinks(query: ConformanceCase) throws { try query.check() }
    @Test(arguments: backlinks) func declaredBacklinks(query: ConformanceCase) throws { try query.check() }
    @Test(arguments: maps) func mapCounts(query: ConformanceCase) throws { try query.check() }
}
