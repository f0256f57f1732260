import Foundation
import Testing

/// Realm's operand forms: a property against another, constant lists and quantifiers on either
/// side, aggregates through links, `@links`, map keys and values, list indexing, `.length`,
/// `SUBQUERY`, arithmetic and paths through two collections.
@Suite("Query conformance: operands")
struct OperandConformanceTests {
    static let propertyAgainstProperty: [ConformanceCase] = [
        .person("nickname == name") { $0.nickname == $0.name },
        .person("name == nickname") { $0.nickname == $0.name },
        .person("nickname != name") { $0.nickname != $0.name },
        .person("nickname ==[c] name") { p in p.nickname.map { same($0, p.name, [.caseInsensitive]) } ?? false },
        .person("nickname != nil AND name BEGINSWITH nickname") { p in p.nickname.map { p.name.hasPrefix($0) } ?? false
        },
        .person("nickname BEGINSWITH[c] name") { p in
            p.nickname.map { fold($0, [.caseInsensitive]).hasPrefix(fold(p.name, [.caseInsensitive])) } ?? false
        },
        .person("age > level") { $0.age > Int($0.level) },
        .person("level * 10 > age") { Int($0.level) * 10 > $0.age },
        .person("visits < age") { $0.visits < Int64($0.age) },
        .person("height > rating") { ($0.height ?? -.infinity) > Double($0.rating) },
        .person("rating >= level") { Double($0.rating) >= Double($0.level) },
        .person("best.age > age") { ($0.bestDog?.age ?? .min) > $0.age },
        .person("best.age < level") { p in p.bestDog.map { $0.age < Int(p.level) } ?? false },
        .person("ANY dogs.age > level") { person in person.dogValues.contains { $0.age > Int(person.level) } },
        .person("ALL dogs.age < age") { person in person.dogValues.allSatisfy { $0.age < person.age } },
        .person("ANY luckyNumbers == level") { person in person.luckyNumbers.contains(Int(person.level)) },
        .item("priority > progressMinutes") { $0.priority > $0.progressMinutes },
        .project("items.@count > quota") { $0.items.count > $0.quota },
        .project("items.@count == quota") { $0.items.count == $0.quota },
    ]

    static let listsAndQuantifiersEitherSide: [ConformanceCase] = [
        .person("age == ANY {8, 27}") { [8, 27].contains($0.age) },
        .person("age == SOME {8, 27}") { [8, 27].contains($0.age) },
        .person("age == ALL {34}") { $0.age == 34 },
        .person("age == ALL {34, 35}") { _ in false },
        .person("age != ALL {8, 27}") { ![8, 27].contains($0.age) },
        .person("age == NONE {8, 27}") { ![8, 27].contains($0.age) },
        .person("age != ANY {8, 27}") { _ in true },
        .person("age > ANY {40, 60}") { $0.age > 40 },
        .person("age > ALL {40, 60}") { $0.age > 60 },
        .person("age == {8, 27}") { [8, 27].contains($0.age) },
        .person("{8, 27} == age") { [8, 27].contains($0.age) },
        .person("ANY {8, 27} == age") { [8, 27].contains($0.age) },
        .person("name ==[c] ANY {'ann', 'BOB'}") { ["ann", "bob"].contains(fold($0.name, [.caseInsensitive])) },
        .person("name BEGINSWITH ANY {'A', 'h'}") { $0.name.hasPrefix("A") || $0.name.hasPrefix("h") },
        .person("ANY {3, 7} IN luckyNumbers") { !Set($0.luckyNumbers).isDisjoint(with: [3, 7]) },
        .person("SOME {3, 7} IN luckyNumbers") { !Set($0.luckyNumbers).isDisjoint(with: [3, 7]) },
        .person("ALL {3, 7} IN luckyNumbers") { Set($0.luckyNumbers).isSuperset(of: [3, 7]) },
        .person("NONE {3, 7} IN luckyNumbers") { Set($0.luckyNumbers).isDisjoint(with: [3, 7]) },
        .person("ANY {'go', 'rust'} IN tags") { !$0.tags.isDisjoint(with: ["go", "rust"]) },
        .person("ALL {'swift', 'go'} IN tags") { $0.tags.isSuperset(of: ["swift", "go"]) },
        .person("NONE {'go', 'rust'} IN tags") { $0.tags.isDisjoint(with: ["go", "rust"]) },
        .person("ANY {'Rex', 'Max'} IN dogs.name") { !Set($0.dogs).isDisjoint(with: ["Rex", "Max"]) },
        .person("age IN $0", .list([.int(19), .int(61)])) { [19, 61].contains($0.age) },
        .person("ANY $0 IN luckyNumbers", .list([.int(13), .int(42)])) {
            !Set($0.luckyNumbers).isDisjoint(with: [13, 42])
        },
    ]

    static let aggregatesThroughLinks: [ConformanceCase] = [
        .person("dogs.@sum.age > 10") { $0.dogValues.map(\.age).reduce(0, +) > 10 },
        .person("dogs.@sum.age == 0") { $0.dogValues.map(\.age).reduce(0, +) == 0 },
        .person("dogs.@avg.weight < 15") { average($0.dogValues.map(\.weight)).map { $0 < 15 } ?? false },
        .person("dogs.@min.age == 1") { $0.dogValues.map(\.age).min() == 1 },
        .person("dogs.@max.weight > 25") { ($0.dogValues.map(\.weight).max() ?? 0) > 25 },
        .person("dogs.@max.age >= age") { ($0.dogValues.map(\.age).max() ?? .min) >= $0.age },
        .person("dogs.@size == 2") { $0.dogs.count == 2 },
        .person("luckyNumbers.@size > 2") { $0.luckyNumbers.count > 2 },
        .person("tags.@size == 0") { $0.tags.isEmpty },
        .dog("owners.@max.age > 40") { ($0.owners.map(\.age).max() ?? 0) > 40 },
        .dog("owners.@min.age < 20") { ($0.owners.map(\.age).min() ?? .max) < 20 },
        .dog("owners.@avg.age > 30") { average($0.owners.map { Double($0.age) }).map { $0 > 30 } ?? false },
        .project("items.@sum.price > 10") { $0.itemValues.map(\.price).reduce(0, +) > 10 },
        .project("items.@avg.priority >= 5") {
            average($0.itemValues.map { Double($0.priority) }).map { $0 >= 5 } ?? false
        },
        .project("items.@max.progressMinutes > 100") { ($0.itemValues.map(\.progressMinutes).max() ?? 0) > 100 },
        .project("items.@min.price < 1") { ($0.itemValues.map(\.price).min() ?? .infinity) < 1 },
        .project("items.@sum.price > quota * 5") { $0.itemValues.map(\.price).reduce(0, +) > Double($0.quota * 5) },
        .item("allergens.@max.populationAffected > 0.05") {
            ($0.allergenValues.map(\.populationAffected).max() ?? 0) > 0.05
        },
        .item("allergens.@sum.populationAffected < 0.02") {
            $0.allergenValues.map(\.populationAffected).reduce(0, +) < 0.02
        },
    ]

    /// Links into each dog: from the people's `dogs` lists (a list holding it twice links twice)
    /// and their `best` links.
    static func links(to dog: Seed.Dog) -> (dogs: Int, best: Int) {
        (
            Seed.people.map { $0.dogs.filter { $0 == dog.name }.count }.reduce(0, +),
            Seed.people.filter { $0.best == dog.name }.count
        )
    }

    static let undeclaredBacklinks: [ConformanceCase] = [
        .dog("@links.RQLPerson.dogs.@count == 0") { links(to: $0).dogs == 0 },
        .dog("@links.RQLPerson.dogs.@count > 1") { links(to: $0).dogs > 1 },
        .dog("ANY @links.RQLPerson.dogs.name == 'Dmitri'") { $0.owners.contains { $0.name == "Dmitri" } },
        .dog("@links.RQLPerson.best.@count > 0") { links(to: $0).best > 0 },
        .dog("@links.RQLPerson.best.@count == 2") { links(to: $0).best == 2 },
        .dog("@links.@count == 0") { links(to: $0).dogs + links(to: $0).best == 0 },
        .dog("@links.@count > 3") { links(to: $0).dogs + links(to: $0).best > 3 },
        .dog("@links.@count == 2") { links(to: $0).dogs + links(to: $0).best == 2 },
        .dog("ALL @links.RQLPerson.best.isMember == true") {
            dog in Seed.people.filter { $0.best == dog.name }.allSatisfy(\.isMember)
        },
        .item("@links.RQLProject.items.@count == 2") { item in
            Seed.projects.map { $0.items.filter { $0 == item.name }.count }.reduce(0, +) == 2
        },
        .item("ANY @links.RQLProject.items.quota > 2") { $0.projects.contains { $0.quota > 2 } },
    ]

    static let maps: [ConformanceCase] = [
        .person("scores['math'] > 80") { ($0.scores["math"] ?? .min) > 80 },
        .person("scores[\"math\"] > 80") { ($0.scores["math"] ?? .min) > 80 },
        .person("scores.math > 80") { ($0.scores["math"] ?? .min) > 80 },
        .person("scores['art'] == nil") { $0.scores["art"] == nil },
        .person("scores['art'] != nil") { $0.scores["art"] != nil },
        .person("scores['math'] == scores['art']") { $0.scores["math"] == $0.scores["art"] },
        .person("scores['math'] > age * 2") { ($0.scores["math"] ?? .min) > $0.age * 2 },
        .person("ANY scores.@keys == 'music'") { $0.scores.keys.contains("music") },
        .person("scores.@keys == 'music'") { $0.scores.keys.contains("music") },
        .person("'music' IN scores.@keys") { $0.scores.keys.contains("music") },
        .person("ANY scores.@keys BEGINSWITH 'm'") { $0.scores.keys.contains { $0.hasPrefix("m") } },
        .person("ANY scores.@values > 90") { $0.scores.values.contains { $0 > 90 } },
        .person("ALL scores.@values >= 75") { $0.scores.values.allSatisfy { $0 >= 75 } },
        .person("NONE scores.@values < 60") { !$0.scores.values.contains { $0 < 60 } },
        .person("scores == 75") { $0.scores.values.contains(75) },
        .person("scores.@sum > 150") { $0.scores.values.reduce(0, +) > 150 },
        .person("scores.@max == 100") { $0.scores.values.max() == 100 },
        .person("scores.@min < 50") { ($0.scores.values.min() ?? .max) < 50 },
        .person("scores.@avg >= 85") {
            average($0.scores.values.map(Double.init)).map { $0 >= 85 } ?? false
        },
        .person("scores.@size == 2") { $0.scores.count == 2 },
        .project("comments['status'] == 'green'") { $0.comments["status"] == "green" },
        .project("comments.status == 'red'") { $0.comments["status"] == "red" },
        .project("comments['status'] != 'green'") { $0.comments["status"] != "green" },
        .project("comments['status'] == nil") { $0.comments["status"] == nil },
        .project("comments['owner'] BEGINSWITH 'A'") { $0.comments["owner"]?.hasPrefix("A") ?? false },
        .project("comments['status'] ==[c] 'GREEN'") { $0.comments["status"] == "green" },
        .project("ANY comments.@keys == 'note'") { $0.comments.keys.contains("note") },
        .project("ANY comments.@values CONTAINS 'ee'") { $0.comments.values.contains { $0.contains("ee") } },
        .project("comments == 'red'") { $0.comments.values.contains("red") },
    ]

    static let listIndexing: [ConformanceCase] = [
        .person("luckyNumbers[0] == 7") { $0.luckyNumbers.first == 7 },
        .person("luckyNumbers[1] > 1") { $0.luckyNumbers.count > 1 && $0.luckyNumbers[1] > 1 },
        .person("luckyNumbers[FIRST] == 3") { $0.luckyNumbers.first == 3 },
        .person("luckyNumbers[first] == 3") { $0.luckyNumbers.first == 3 },
        .person("luckyNumbers[LAST] == 7") { $0.luckyNumbers.last == 7 },
        .person("luckyNumbers[SIZE] == 3") { $0.luckyNumbers.count == 3 },
        .person("luckyNumbers[*] == 8") { $0.luckyNumbers.contains(8) },
        .person("luckyNumbers[3] == 4") { $0.luckyNumbers.count > 3 && $0.luckyNumbers[3] == 4 },
        .person("luckyNumbers[9] > 0") { _ in false },
        .person("ratings[0] >= 4") { ($0.ratings.first ?? 0) >= 4 },
        .person("ratings[LAST] < 2") { ($0.ratings.last ?? .infinity) < 2 },
        .person("dogs[0].name == 'Rex'") { $0.dogs.first == "Rex" },
        .person("dogs[FIRST].age > 4") { ($0.dogValues.first?.age ?? 0) > 4 },
        .person("dogs[LAST].name == 'Bolt'") { $0.dogs.last == "Bolt" },
        .person("dogs[1].name == 'Fido'") { $0.dogs.count > 1 && $0.dogs[1] == "Fido" },
        .person("dogs[SIZE] == 2") { $0.dogs.count == 2 },
        .project("items[0].priority > 8") { ($0.itemValues.first?.priority ?? 0) > 8 },
        .project("items[LAST].isComplete == true") { $0.itemValues.last?.isComplete ?? false },
    ]

    /// An index through two collections picks from each element's own list, as Realm does:
    /// `items.allergens[0]` is every item's first allergen, not the first of all of them.
    static let indexingThroughTwoCollections: [ConformanceCase] = [
        .project("items[0].allergens.name == 'milk'") { $0.itemValues.first?.allergens.contains("milk") ?? false },
        .project("items.allergens[FIRST].name == 'gluten'") {
            $0.itemValues.contains { $0.allergens.first == "gluten" }
        },
        .project("items.allergens[0].name == 'soy'") { $0.itemValues.contains { $0.allergens.first == "soy" } },
        .project("items.allergens[LAST].name == 'gluten'") { $0.itemValues.contains { $0.allergens.last == "gluten" } },
        .project("items.allergens[1].name == 'milk'") {
            $0.itemValues.contains { $0.allergens.count > 1 && $0.allergens[1] == "milk" }
        },
        .project("items.allergens[SIZE] == 2") { $0.itemValues.contains { $0.allergens.count == 2 } },
        .project("ALL items.allergens[SIZE] >= 1") { $0.itemValues.allSatisfy { !$0.allergens.isEmpty } },
        .project("NONE items.allergens[0].name == 'milk'") {
            !$0.itemValues.contains { $0.allergens.first == "milk" }
        },
        .project("items[LAST].allergens[0].name == 'soy'") { $0.itemValues.last?.allergens.first == "soy" },
        .project("items[FIRST].allergens[SIZE] == 1") { $0.itemValues.first?.allergens.count == 1 },
        .project("items.allergens[FIRST].populationAffected > 0.05") {
            $0.itemValues.contains { ($0.allergenValues.first?.populationAffected ?? 0) > 0.05 }
        },
        .project("items.allergens[*].name == 'peanut'") { $0.itemValues.contains { $0.allergens.contains("peanut") } },
        .dog("owners.dogs[0].name == 'Rex'") { $0.owners.contains { $0.dogs.first == "Rex" } },
        .dog("owners.dogs[LAST].age > 8") { $0.owners.contains { ($0.dogValues.last?.age ?? 0) > 8 } },
        .dog("owners.luckyNumbers[LAST] == 7") { $0.owners.contains { $0.luckyNumbers.last == 7 } },
        .dog("ALL owners.luckyNumbers[SIZE] > 0") { $0.owners.allSatisfy { !$0.luckyNumbers.isEmpty } },
        .dog("owners.dogs[FIRST] == %@", .dog("Fido")) { $0.owners.contains { $0.dogs.first == "Fido" } },
    ]

    /// Realm indexes a list right after it: not one value of each element (`items.name[0]`).
    static let indexAfterOneValue: [RejectedQuery] = [
        RejectedQuery(.project, "items.name[0] == 'Fix bug'", at: nil, mentioning: "[0] picks from a list"),
        RejectedQuery(.project, "items.name[0] == 'Fix bug'", at: nil, mentioning: "(at position 0)"),
        RejectedQuery("dogs.age[FIRST] > 3", at: nil, mentioning: "in dogs.age[FIRST] it follows one value"),
        RejectedQuery(
            .project, "items.allergens.name[LAST] == 'milk'", at: nil, mentioning: "[LAST] picks from a list"),
        RejectedQuery(.dog, "owners.age[SIZE] > 1", at: nil, mentioning: "[SIZE] picks from a list"),
        RejectedQuery("best[0].name == 'Rex'", at: nil, mentioning: "[0] needs a list"),
        RejectedQuery("age > 1 AND best.age[0] == 1", at: nil, mentioning: "(at position 12)"),
    ]

    static let lengths: [ConformanceCase] = [
        .person("name.length == 3") { $0.name.utf8.count == 3 },
        .person("name.length > 4") { $0.name.utf8.count > 4 },
        .person("name.@count == 4") { $0.name.utf8.count == 4 },
        .person("name.@size == 6") { $0.name.utf8.count == 6 },
        .person("nickname.length > 3") { ($0.nickname?.utf8.count ?? 0) > 3 },
        .person("name.length == nickname.length") { $0.nickname.map(\.utf8.count) == $0.name.utf8.count },
        .person("avatar.length == 2") { $0.avatar?.count == 2 },
        .person("avatar.@count == 3") { $0.avatar?.count == 3 },
        .person("home.city.length == 4") { $0.city?.utf8.count == 4 },
        .dog("breed.length > 6") { ($0.breed?.utf8.count ?? 0) > 6 },
        .dog("name.length == 4 AND age > 2") { $0.name.utf8.count == 4 && $0.age > 2 },
        .item("name.length < 8") { $0.name.utf8.count < 8 },
        .item("assignee.length == 3") { $0.assignee?.utf8.count == 3 },
    ]

    static let subqueries: [ConformanceCase] = [
        .person("SUBQUERY(dogs, $d, $d.age > 4).@count > 0") { $0.dogValues.contains { $0.age > 4 } },
        .person("SUBQUERY(dogs, $d, $d.age > 2 AND $d.breed != nil).@count == 2") {
            $0.dogValues.filter { $0.age > 2 && $0.breed != nil }.count == 2
        },
        .person("SUBQUERY(dogs, $d, $d.name == 'Fido').@count == 2") {
            $0.dogValues.filter { $0.name == "Fido" }.count == 2
        },
        .person("SUBQUERY(dogs, $dog, $dog.age > 3 AND $dog.weight > 20).@size >= 1") {
            $0.dogValues.contains { $0.age > 3 && $0.weight > 20 }
        },
        .person("SUBQUERY(dogs, $d, $d.breed BEGINSWITH[c] 'lab').@count == dogs.@count") {
            $0.dogValues.filter { $0.breed.map { fold($0, [.caseInsensitive]).hasPrefix("lab") } ?? false }.count
                == $0.dogs.count
        },
        .person("SUBQUERY(dogs, $d, ANY $d.owners.age < 20).@count > 0") {
            $0.dogValues.contains { $0.owners.contains { $0.age < 20 } }
        },
        .person("SUBQUERY(dogs, $d, $d.age > 4).@count > 0 AND age < 40") {
            $0.dogValues.contains { $0.age > 4 } && $0.age < 40
        },
        .project("SUBQUERY(items, $x, $x.isComplete == false AND $x.priority > 5).@count > 0") {
            $0.itemValues.contains { !$0.isComplete && $0.priority > 5 }
        },
        .project("SUBQUERY(items, $x, $x.price > 5).@count == items.@count") {
            $0.itemValues.allSatisfy { $0.price > 5 }
        },
        .project("SUBQUERY(items, $x, ANY $x.allergens.name == 'milk').@count > 0") {
            $0.itemValues.contains { $0.allergens.contains("milk") }
        },
        .project("SUBQUERY(items, $x, $x.allergens.@count > 1).@count >= 1") {
            $0.itemValues.contains { $0.allergens.count > 1 }
        },
        .project(
            "SUBQUERY(items, $x, $x.assignee == 'Ali').@count == SUBQUERY(items, $x, $x.isComplete == true).@count"
        ) { project in
            project.itemValues.filter { $0.assignee == "Ali" }.count == project.itemValues.filter(\.isComplete).count
        },
        // The variable alone is the element (an object): compared with an object argument.
        .person("SUBQUERY(dogs, $d, $d == %@).@count > 0", .dog("Rex")) { $0.dogs.contains("Rex") },
        .person("SUBQUERY(dogs, $d, $d != %@ AND $d.age > 2).@count >= 2", .dog("Fido")) {
            $0.dogValues.filter { $0.name != "Fido" && $0.age > 2 }.count >= 2
        },
        .dog("SUBQUERY(owners, $o, $o.age > 30).@count > 0") { $0.owners.contains { $0.age > 30 } },
    ]

    /// Realm: "A subquery can not operate on a list of primitive values": ObjDB rejects it too,
    /// naming the collection and where it is.
    static let subqueriesOverValues: [RejectedQuery] = [
        RejectedQuery(
            "SUBQUERY(luckyNumbers, $x, $x > 5).@count > 1", at: nil,
            mentioning: "a SUBQUERY cannot operate on a collection of plain values, as in Realm"),
        RejectedQuery(
            "SUBQUERY(luckyNumbers, $x, $x > 5).@count > 1", at: nil,
            mentioning: "luckyNumbers holds a number each; compare the values themselves"),
        RejectedQuery("SUBQUERY(luckyNumbers, $x, $x > 5).@count > 1", at: nil, mentioning: "(at position 9)"),
        RejectedQuery(
            "age > 3 AND SUBQUERY(tags, $t, $t BEGINSWITH 's').@count > 0", at: nil, mentioning: "(at position 21)"),
        RejectedQuery(
            "SUBQUERY(tags, $t, $t BEGINSWITH 's').@count > 0", at: nil, mentioning: "tags holds a string each"),
        RejectedQuery("SUBQUERY(ratings, $r, $r.foo > 1).@count > 0", at: nil, mentioning: "plain values"),
        RejectedQuery("SUBQUERY(scores, $s, $s > 80).@count > 0", at: nil, mentioning: "plain values"),
        RejectedQuery("SUBQUERY(dogs.age, $a, $a > 3).@count > 0", at: nil, mentioning: "plain values"),
        RejectedQuery(
            .project, "SUBQUERY(items.allergens.name, $n, $n == 'milk').@count > 0", at: nil, mentioning: "plain values"
        ),
        RejectedQuery("SUBQUERY(dogs, $d, $d > 5).@count > 0", at: nil, mentioning: "but $d is a RQLDog"),
        RejectedQuery("SUBQUERY(dogs, $d, $d.x.y > 5).@count > 0", at: nil, mentioning: "RQLDog has no property x"),
    ]

    static let arithmetic: [ConformanceCase] = [
        .person("age + 10 > 40") { $0.age + 10 > 40 },
        .person("age * 2 == 68") { $0.age * 2 == 68 },
        .person("(age + 10) * 2 == 80") { ($0.age + 10) * 2 == 80 },
        .person("age / 10 == 3") { $0.age / 10 == 3 },
        .person("age - level > 30") { $0.age - Int($0.level) > 30 },
        .person("height * 100 > 170") { ($0.height ?? 0) * 100 > 170 },
        .person("age > 10 + 20 * 1") { $0.age > 30 },
        .person("2 * age > 100") { 2 * $0.age > 100 },
        .person("age / 0 == 1") { _ in false },
        .person("age - 1 == 33") { $0.age == 34 },
        .person("age-1 == 33") { $0.age == 34 },
        .person("age + $0 > 50", .int(20)) { $0.age + 20 > 50 },
        .person("rating * 2 >= 9") { $0.rating * 2 >= 9 },
        .item("price * 2 > 20") { $0.price * 2 > 20 },
        .item("progressMinutes / 60 >= 2") { $0.progressMinutes / 60 >= 2 },
        .item("priority * 10 + progressMinutes > 150") { $0.priority * 10 + $0.progressMinutes > 150 },
        .project("items.@sum.price / items.@count > 5") { project in
            project.items.isEmpty
                ? false : project.itemValues.map(\.price).reduce(0, +) / Double(project.items.count) > 5
        },
    ]

    static let twoCollections: [ConformanceCase] = [
        .project("ANY items.allergens.name == 'milk'") { $0.itemValues.contains { $0.allergens.contains("milk") } },
        .project("items.allergens.name == 'gluten'") { $0.itemValues.contains { $0.allergens.contains("gluten") } },
        .project("'soy' IN items.allergens.name") { $0.itemValues.contains { $0.allergens.contains("soy") } },
        .project("ALL items.allergens.populationAffected < 0.05") {
            $0.itemValues.allSatisfy { $0.allergenValues.allSatisfy { $0.populationAffected < 0.05 } }
        },
        .project("NONE items.allergens.name == 'milk'") { !$0.itemValues.contains { $0.allergens.contains("milk") } },
        .person("ANY dogs.owners.name == 'Cleo'") {
            $0.dogValues.contains { $0.owners.contains { $0.name == "Cleo" } }
        },
        .person("NONE dogs.owners.age > 50") { !$0.dogValues.contains { $0.owners.contains { $0.age > 50 } } },
    ]

    static let constantsOnTheLeft: [ConformanceCase] = [
        .person("'Annie' BEGINSWITH name") { "Annie".hasPrefix($0.name) },
        .person("'Dmitri Ivanov' CONTAINS name") { "Dmitri Ivanov".contains($0.name) },
        .person("'xAnn' ENDSWITH name") { "xAnn".hasSuffix($0.name) },
        .person("'HANA' ==[c] name") { same("HANA", $0.name, [.caseInsensitive]) },
        .person("NULL == nickname") { $0.nickname == nil },
        .person("nil != nickname") { $0.nickname != nil },
        .person("'Cleopatra' BEGINSWITH[c] nickname") {
            $0.nickname.map { fold("Cleopatra", [.caseInsensitive]).hasPrefix(fold($0, [.caseInsensitive])) } ?? false
        },
    ]

    static let rejected: [RejectedQuery] = [
        RejectedQuery("name == age", at: nil, mentioning: "cannot compare name (a string) and age (a number)"),
        RejectedQuery("name + 1 == 2", at: nil, mentioning: "arithmetic (+) needs numbers, but name is a string"),
        RejectedQuery("age * 'x' == 1", at: nil, mentioning: "arithmetic (*) needs numbers"),
        RejectedQuery("SUBQUERY(best, $d, $d.age > 1).@count > 0", at: nil, mentioning: "SUBQUERY needs a list"),
        RejectedQuery("SUBQUERY(dogs, $d, $d.age > 1) > 0", at: 31, mentioning: "compared by its .@count"),
        RejectedQuery("SUBQUERY(dogs, $d, $d.age > 1).@sum > 0", at: 30, mentioning: "compared by its .@count"),
        RejectedQuery("SUBQUERY(dogs, d, d.age > 1).@count > 0", at: 15, mentioning: "variable starting with '$'"),
        RejectedQuery("SUBQUERY(, $d, $d.age > 1).@count > 0", at: 9, mentioning: "expected a key path"),
        RejectedQuery("SUBQUERY(dogs, $d, ).@count > 0", at: 19, mentioning: "expected a key path or a value"),
        RejectedQuery("age[0] == 1", at: nil, mentioning: "[0] needs a list"),
        RejectedQuery("luckyNumbers[FOO] == 1", at: 13, mentioning: "expected an index"),
        RejectedQuery("luckyNumbers[-1] == 1", at: 13, mentioning: "a list index is a whole number from 0"),
        RejectedQuery(.dog, "@links.RQLPerson.name.@count > 0", at: nil, mentioning: "RQLPerson.name is not a link"),
        RejectedQuery(.dog, "@links.Nope.dogs.@count > 0", at: nil, mentioning: "there is no type Nope"),
        RejectedQuery("@prop > 2", at: 0, mentioning: "not @prop"),
        RejectedQuery("prop@links > 2", at: 4, mentioning: "expected an operator"),
        RejectedQuery("tags.@sum.age > 1", at: nil, mentioning: "@sum needs numbers"),
        RejectedQuery("dogs.@sum.name > 1", at: nil, mentioning: "@sum needs numbers"),
        RejectedQuery("dogs.@sum > 1", at: nil, mentioning: "@sum needs a collection of numbers"),
        RejectedQuery("name.length == 'x'", at: nil, mentioning: "cannot compare name.length (a number)"),
        RejectedQuery("age.length == 1", at: nil, mentioning: "length needs a string, binary data or a collection"),
        RejectedQuery("scores['math'] BEGINSWITH 'a'", at: nil, mentioning: "BEGINSWITH compares strings"),
        RejectedQuery("age == ANY age", at: nil, mentioning: "ANY needs a list"),
        RejectedQuery("{1, 2} == {1, 2}", at: 0, mentioning: "needs a key path"),
    ]

    @Test(arguments: propertyAgainstProperty) func aPropertyAgainstAProperty(query: ConformanceCase) throws {
        try query.check()
    }
    @Test(arguments: listsAndQuantifiersEitherSide) func constantListsAndQuantifiersOnEitherSide(
        query: ConformanceCase
    ) throws { try query.check() }
    @Test(arguments: aggregatesThroughLinks) func aggregatesOfPropertiesThroughLinks(query: ConformanceCase) throws {
        try query.check()
    }
    @Test(arguments: undeclaredBacklinks) func linksWithoutADeclaredProperty(query: ConformanceCase) throws {
        try query.check()
    }
    @Test(arguments: maps) func mapKeysValuesAndAggregates(query: ConformanceCase) throws { try query.check() }
    @Test(arguments: listIndexing) func indexedListElements(query: ConformanceCase) throws { try query.check() }
    @Test(arguments: indexingThroughTwoCollections) func indexesPickFromEachElementsList(query: ConformanceCase)
        throws
    { try query.check() }
    @Test(arguments: indexAfterOneValue) func anIndexAfterOneValueIsRejected(query: RejectedQuery) throws {
        try query.check()
    }
    @Test(arguments: lengths) func lengthsOfStringsAndData(query: ConformanceCase) throws { try query.check() }
    @Test(arguments: subqueries) func subqueryCounts(query: ConformanceCase) throws { try query.check() }
    @Test(arguments: subqueriesOverValues) func subqueriesOverPlainValuesAreRejected(query: RejectedQuery) throws {
        try query.check()
    }
    @Test(arguments: arithmetic) func arithmeticInComparisons(query: ConformanceCase) throws { try query.check() }
    @Test(arguments: twoCollections) func pathsThroughTwoCollections(query: ConformanceCase) throws {
        try query.check()
    }
    @Test(arguments: constantsOnTheLeft) func constantsLeftOfStringOperators(query: ConformanceCase) throws {
        try query.check()
    }
    @Test(arguments: rejected) func operandQueriesRealmRejects(query: RejectedQuery) throws { try query.check() }
}
