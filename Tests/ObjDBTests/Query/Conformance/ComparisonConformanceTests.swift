import Foundation
import Testing

/// Realm's comparison operators on every scalar type, optionals, links, embedded objects and
/// the logical operators, with the expected objects worked out from ``Seed`` in plain Swift.
@Suite("Query conformance: comparisons")
struct ComparisonConformanceTests {
    static let numbers: [ConformanceCase] = [
        .person("age == 34") { $0.age == 34 },
        .person("age = 34") { $0.age == 34 },
        .person("age != 34") { $0.age != 34 },
        .person("age <> 34") { $0.age != 34 },
        .person("age > 30") { $0.age > 30 },
        .person("age >= 34") { $0.age >= 34 },
        .person("age => 45") { $0.age >= 45 },
        .person("age < 27") { $0.age < 27 },
        .person("age <= 27") { $0.age <= 27 },
        .person("age =< 19") { $0.age <= 19 },
        .person("age>30") { $0.age > 30 },
        .person("34 == age") { $0.age == 34 },
        .person("30 < age") { $0.age > 30 },
        .person("27 >= age") { $0.age <= 27 },
        .person("45 <= age") { $0.age >= 45 },
        .person("61 != age") { $0.age != 61 },
        .person("age > 30.5") { Double($0.age) > 30.5 },
        .person("age == 34.0") { $0.age == 34 },
        .person("age < -1") { $0.age < -1 },
        .person("age BETWEEN {19, 34}") { (19...34).contains($0.age) },
        .person("age BETWEEN {34, 34}") { $0.age == 34 },
        .person("age BETWEEN {40, 30}") { _ in false },
        .person("age IN {8, 27, 61}") { [8, 27, 61].contains($0.age) },
        .person("age IN {}") { _ in false },
        .person("level > 2") { $0.level > 2 },
        .person("level < 0") { $0.level < 0 },
        .person("level == -2") { $0.level == -2 },
        .person("visits > 1000") { $0.visits > 1000 },
        .person("visits == 5000000000") { $0.visits == 5_000_000_000 },
        .person("rating == 4.5") { $0.rating == 4.5 },
        .person("rating > 3.3") { Double($0.rating) > 3.3 },
        .person("rating >= 3.25") { $0.rating >= 3.25 },
        .person("rating < 2") { $0.rating < 2 },
        .dog("weight < 10") { $0.weight < 10 },
        .dog("weight == 22.25") { $0.weight == 22.25 },
        .dog("age > 4") { $0.age > 4 },
        .item("priority > 5") { $0.priority > 5 },
        .item("priority IN {1, 2, 3}") { [1, 2, 3].contains($0.priority) },
        .item("price BETWEEN {1, 10}") { (1...10).contains($0.price) },
        .item("progressMinutes == 0") { $0.progressMinutes == 0 },
        .project("quota >= 2") { $0.quota >= 2 },
    ]

    static let optionals: [ConformanceCase] = [
        .person("height == nil") { $0.height == nil },
        .person("height == NULL") { $0.height == nil },
        .person("height == NIL") { $0.height == nil },
        .person("height != nil") { $0.height != nil },
        .person("height <> NULL") { $0.height != nil },
        .person("nil == height") { $0.height == nil },
        .person("height > 1.6") { ($0.height ?? -.infinity) > 1.6 },
        .person("height <= 1.6") { $0.height.map { $0 <= 1.6 } ?? false },
        .person("height != 1.68") { $0.height != 1.68 },
        .person("height == 1.2") { $0.height == 1.2 },
        .person("height BETWEEN {1.5, 1.7}") { $0.height.map { (1.5...1.7).contains($0) } ?? false },
        .person("height IN {1.2, 1.55}") { [1.2, 1.55].contains($0.height) },
        .person("avatar == nil") { $0.avatar == nil },
        .person("avatar != nil") { $0.avatar != nil },
        .dog("breed == nil") { $0.breed == nil },
        .dog("breed != nil") { $0.breed != nil },
        .item("assignee == nil") { $0.assignee == nil },
        .item("assignee != nil") { $0.assignee != nil },
    ]

    static let booleans: [ConformanceCase] = [
        .person("isMember == true") { $0.isMember },
        .person("isMember == TRUE") { $0.isMember },
        .person("isMember == YES") { $0.isMember },
        .person("isMember == false") { !$0.isMember },
        .person("isMember == NO") { !$0.isMember },
        .person("isMember != true") { !$0.isMember },
        .person("isMember = true || isMember = false") { _ in true },
        .person("true == isMember") { $0.isMember },
        .item("isComplete == false") { !$0.isComplete },
        .item("isComplete == true AND priority > 4") { $0.isComplete && $0.priority > 4 },
    ]

    static let logic: [ConformanceCase] = [
        .person("TRUEPREDICATE") { _ in true },
        .person("truepredicate") { _ in true },
        .person(" TRUEPREDICATE ") { _ in true },
        .person("FALSEPREDICATE") { _ in false },
        .person("!TRUEPREDICATE") { _ in false },
        .person("!FALSEPREDICATE") { _ in true },
        .person("TRUEPREDICATE AND age > 30") { $0.age > 30 },
        .person("FALSEPREDICATE OR age > 30") { $0.age > 30 },
        .person("FALSEPREDICATE AND age > 30") { _ in false },
        .person("NOT age IN {8, 27}") { ![8, 27].contains($0.age) },
        .person("!(age >= 30)") { !($0.age >= 30) },
        .person("! (age >= 30)") { !($0.age >= 30) },
        .person("not (age < 30)") { !($0.age < 30) },
        .person("NOT(age < 30)") { !($0.age < 30) },
        .person("NOT NOT age < 30") { $0.age < 30 },
        .person("NOT (!(age < 30))") { $0.age < 30 },
        .person("age > 20 AND age < 40") { $0.age > 20 && $0.age < 40 },
        .person("age > 20 && age < 40") { $0.age > 20 && $0.age < 40 },
        .person("age > 20 and age < 40") { $0.age > 20 && $0.age < 40 },
        .person("age < 20 OR age > 50") { $0.age < 20 || $0.age > 50 },
        .person("age < 20 || age > 50") { $0.age < 20 || $0.age > 50 },
        .person("age < 20 or age > 50") { $0.age < 20 || $0.age > 50 },
        .person("age=8||age==61") { $0.age == 8 || $0.age == 61 },
        .person("(age > 30 OR isMember == false) AND age != 61") {
            ($0.age > 30 || !$0.isMember) && $0.age != 61
        },
        .person("age > 30 OR isMember == false AND age != 61") {
            $0.age > 30 || (!$0.isMember && $0.age != 61)
        },
        .person("isMember == false AND age != 61 OR age > 30") {
            (!$0.isMember && $0.age != 61) || $0.age > 30
        },
        .person("NOT (age > 30 AND isMember == true)") { !($0.age > 30 && $0.isMember) },
        .person("NOT age > 30 AND isMember == true") { !($0.age > 30) && $0.isMember },
        .person("((age > 30))") { $0.age > 30 },
        .person("( age > 30 )") { $0.age > 30 },
        .person("(age > 1 || height >= 1.7) && age == 45") { ($0.age > 1 || ($0.height ?? 0) >= 1.7) && $0.age == 45 },
        .person("age > 30 AND age > 30 AND age > 30 AND age < 60") { $0.age > 30 && $0.age < 60 },
        .person("age == 8 OR age == 19 OR age == 27 OR age == 34 OR age == 45") {
            [8, 19, 27, 34, 45].contains($0.age)
        },
        .item("progressMinutes > 1 AND assignee == 'Ali'") { $0.progressMinutes > 1 && $0.assignee == "Ali" },
        .item("priority > 5 OR isComplete == true") { $0.priority > 5 || $0.isComplete },
    ]

    static let typed: [ConformanceCase] = [
        .person("born > %@", .date(Seed.date("1990-01-01T00:00:00Z"))) { $0.born > Seed.date("1990-01-01T00:00:00Z") },
        .person("born == %@", .date(Seed.people[0].born)) { $0.born == Seed.people[0].born },
        .person("born != %@", .date(Seed.people[0].born)) { $0.born != Seed.people[0].born },
        .person("born < %@", .date(Seed.date("1980-01-01T00:00:00Z"))) { $0.born < Seed.date("1980-01-01T00:00:00Z") },
        .person("born >= %@", .date(Seed.date("1997-11-23T12:30:00Z"))) {
            $0.born >= Seed.date("1997-11-23T12:30:00Z")
        },
        .person(
            "born BETWEEN %@",
            .list([.date(Seed.date("1990-01-01T00:00:00Z")), .date(Seed.date("2000-01-01T00:00:00Z"))])
        ) { (Seed.date("1990-01-01T00:00:00Z")...Seed.date("2000-01-01T00:00:00Z")).contains($0.born) },
        .person("key == %@", .uuid(Seed.people[0].key)) { $0.key == Seed.people[0].key },
        .person("key != %@", .uuid(Seed.people[0].key)) { $0.key != Seed.people[0].key },
        .person("key IN %@", .list([.uuid(Seed.people[2].key), .uuid(Seed.people[3].key)])) {
            [Seed.people[2].key, Seed.people[3].key].contains($0.key)
        },
        .person("balance > 100") { $0.balance > 100 },
        .person("balance == 0") { $0.balance == 0 },
        .person("balance < 0") { $0.balance < 0 },
        .person("balance >= 42") { $0.balance >= 42 },
        .person("balance == 1250.5") { $0.balance == Seed.decimal("1250.5") },
        .person("balance > 3.14") { $0.balance > Seed.decimal("3.14") },
        .person("balance == %@", .decimal(Seed.decimal("1250.50"))) { $0.balance == Seed.decimal("1250.50") },
        .person("balance == %@", .decimal(Seed.decimal("3.141592653589793238"))) {
            $0.balance == Seed.decimal("3.141592653589793238")
        },
        .person("balance BETWEEN {0, 100}") { $0.balance >= 0 && $0.balance <= 100 },
        .person("avatar == %@", .data(Data([1, 2]))) { $0.avatar == Data([1, 2]) },
        .person("avatar != %@", .data(Data([1, 2]))) { $0.avatar != Data([1, 2]) },
        .person("avatar == %@", .data(Data())) { $0.avatar == Data() },
    ]

    static let links: [ConformanceCase] = [
        .person("best == nil") { $0.best == nil },
        .person("best != nil") { $0.best != nil },
        .person("best.name == 'Rex'") { $0.best == "Rex" },
        .person("best.name != 'Rex'") { $0.best != "Rex" },
        .person("best.age > 4") { ($0.bestDog?.age ?? 0) > 4 },
        .person("best.breed == nil") { $0.bestDog?.breed == nil },
        .person("best.weight >= 20") { ($0.bestDog?.weight ?? 0) >= 20 },
        .person("best == %@", .dog("Luna")) { $0.best == "Luna" },
        .person("best != %@", .dog("Luna")) { $0.best != "Luna" },
        .person("%@ == best", .dog("Max")) { $0.best == "Max" },
        .person("best.age > 4 AND age < 40") { ($0.bestDog?.age ?? 0) > 4 && $0.age < 40 },
        .person("home.city == 'Oslo'") { $0.city == "Oslo" },
        .person("home.city != 'Oslo'") { $0.city != "Oslo" },
        .person("home == nil") { $0.city == nil },
        .person("home != nil") { $0.city != nil },
        .person("home.street == '1 Main St'") { $0.city != nil },
    ]

    @Test(arguments: numbers) func numberComparisons(query: ConformanceCase) throws { try query.check() }
    @Test(arguments: optionals) func optionalComparisons(query: ConformanceCase) throws { try query.check() }
    @Test(arguments: booleans) func booleanComparisons(query: ConformanceCase) throws { try query.check() }
    @Test(arguments: logic) func logicalOperators(query: ConformanceCase) throws { try query.check() }
    @Test(arguments: typed) func datesUUIDsDecimalsAndData(query: ConformanceCase) throws { try query.check() }
    @Test(arguments: links) func linksAndEmbeddedObjects(query: ConformanceCase) throws { try query.check() }
}
