import Foundation
import ObjDB
import TestSupport

/// The conformance suite's data as plain Swift values: the store is built from these, and
/// every expected result is computed from these (never by running a query).
enum Seed {
    struct Person {
        var name: String
        var age: Int
        var height: Double?
        var nickname: String?
        var isMember: Bool
        var born: Date
        var key: UUID
        var balance: Decimal
        var avatar: Data?
        var level: Int16
        var visits: Int64
        var rating: Float
        var luckyNumbers: [Int]
        var ratings: [Double]
        var tags: Set<String>
        var scores: [String: Int]
        /// Names of the dogs in the list, in order (a dog may appear twice).
        var dogs: [String]
        var best: String?
        var city: String?

        var dogValues: [Dog] { dogs.map { Seed.dog($0) } }
        var bestDog: Dog? { best.map { Seed.dog($0) } }
    }

    struct Dog {
        var name: String
        var age: Int
        var breed: String?
        var weight: Double

        /// The people whose `dogs` list holds this dog (once each, as backlinks count them).
        var owners: [Person] { Seed.people.filter { $0.dogs.contains(name) } }
    }

    struct Allergen {
        var name: String
        var populationAffected: Double
    }

    struct Item {
        var name: String
        var isComplete: Bool
        var assignee: String?
        var priority: Int
        var progressMinutes: Int
        var price: Double
        var allergens: [String]

        var allergenValues: [Allergen] { allergens.map { Seed.allergen($0) } }
        var projects: [Project] { Seed.projects.filter { $0.items.contains(name) } }
    }

    struct Project {
        var name: String
        var quota: Int
        var items: [String]
        var comments: [String: String]

        var itemValues: [Item] { items.map { Seed.item($0) } }
    }

    static func date(_ text: String) -> Date {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text) ?? ISO8601DateFormatter().date(from: text)!
    }

    static func uuid(_ last: String) -> UUID { UUID(uuidString: "\(last)-0000-4000-8000-000000000000")! }

    static func decimal(_ text: String) -> Decimal { Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))! }

    static let people: [Person] = [
        Person(
            name: "Ann", age: 34, height: 1.68, nickname: "Annie", isMember: true, born: date("1990-05-01T08:00:00Z"),
            key: uuid("1A2B3C4D"), balance: decimal("1250.50"), avatar: Data([1, 2, 3]), level: 3, visits: 120,
            rating: 4.5, luckyNumbers: [3, 7, 7], ratings: [4.5, 3.0], tags: ["swift", "rust"],
            scores: ["math": 90, "art": 75], dogs: ["Rex", "Fido"], best: "Rex", city: "Oslo"),
        Person(
            name: "Bob", age: 27, height: nil, nickname: nil, isMember: false, born: date("1997-11-23T00:00:00Z"),
            key: uuid("00000001"), balance: decimal("0"), avatar: nil, level: 0, visits: 0, rating: 0,
            luckyNumbers: [], ratings: [], tags: [], scores: [:], dogs: [], best: nil, city: nil),
        Person(
            name: "Cleo", age: 45, height: 1.75, nickname: "Cle", isMember: true, born: date("1979-02-14T18:30:00Z"),
            key: uuid("FFEEDDCC"), balance: decimal("-20.25"), avatar: Data(), level: -2, visits: 5_000_000_000,
            rating: 3.25, luckyNumbers: [1, 2, 3, 4], ratings: [5.0], tags: ["swift"], scores: ["math": 60],
            dogs: ["Luna"], best: "Luna", city: "Lima"),
        Person(
            name: "Dmitri", age: 19, height: 1.82, nickname: "Dima", isMember: false,
            born: date("2005-07-30T23:59:59Z"),
            key: uuid("7F000000"), balance: decimal("99.99"), avatar: Data([0xFF]), level: 7, visits: 42, rating: 1.5,
            luckyNumbers: [13], ratings: [2.5, 2.5, 1.0], tags: ["go", "swift", "rust"],
            scores: ["art": 100, "music": 80], dogs: ["Rex", "Luna", "Bolt"], best: "Bolt", city: "Oslo"),
        Person(
            name: "Émile", age: 34, height: 1.60, nickname: "emile", isMember: true, born: date("1990-05-01T08:00:00Z"),
            key: uuid("80000000"), balance: decimal("3.141592653589793238"), avatar: Data([1, 2]), level: 3,
            visits: 7, rating: 4.5, luckyNumbers: [7], ratings: [], tags: ["Swift"], scores: ["math": 75],
            dogs: ["Fido", "Fido"], best: "Fido", city: "Paris"),
        Person(
            name: "Fay", age: 61, height: 1.55, nickname: "Fay", isMember: false, born: date("1963-09-09T12:00:00Z"),
            key: uuid("0000FFFF"), balance: decimal("1000000"), avatar: Data([1, 2]), level: 12, visits: 3,
            rating: 2.0, luckyNumbers: [0, -5], ratings: [3.5], tags: ["rust"], scores: ["music": 55, "math": 95],
            dogs: ["Max"], best: nil, city: "Lima"),
        Person(
            name: "Gus", age: 8, height: 1.2, nickname: nil, isMember: false, born: date("2016-12-31T06:15:00Z"),
            key: uuid("C0FFEE00"), balance: decimal("5"), avatar: nil, level: 1, visits: 1, rating: 5.0,
            luckyNumbers: [8, 8, 8], ratings: [1.5, 4.5], tags: [], scores: ["art": 40], dogs: [], best: "Max",
            city: nil),
        Person(
            name: "hana", age: 27, height: nil, nickname: "HANA", isMember: true, born: date("1997-11-23T12:30:00Z"),
            key: uuid("1A2B3C4E"), balance: decimal("42"), avatar: Data([3, 2, 1]), level: 5, visits: 99,
            rating: 3.75, luckyNumbers: [42], ratings: [4.0], tags: ["swift", "go"], scores: ["math": 85, "art": 85],
            dogs: ["Luna"], best: "Luna", city: "Tokyo"),
    ]

    static let dogs: [Dog] = [
        Dog(name: "Rex", age: 5, breed: "Labrador", weight: 30.5),
        Dog(name: "Fido", age: 3, breed: nil, weight: 12.0),
        Dog(name: "Luna", age: 9, breed: "Husky", weight: 22.25),
        Dog(name: "Bolt", age: 1, breed: "Labrador Mix", weight: 8.0),
        Dog(name: "Max", age: 12, breed: "Poodle", weight: 18.0),
        Dog(name: "Pip", age: 2, breed: "husky", weight: 4.5),
    ]

    static let allergens: [Allergen] = [
        Allergen(name: "milk", populationAffected: 0.1), Allergen(name: "gluten", populationAffected: 0.01),
        Allergen(name: "peanut", populationAffected: 0.02), Allergen(name: "soy", populationAffected: 0.005),
    ]

    static let items: [Item] = [
        Item(
            name: "Write tests", isComplete: false, assignee: "Ali", priority: 10, progressMinutes: 120, price: 3.5,
            allergens: ["milk"]),
        Item(
            name: "Fix bug", isComplete: true, assignee: "Ali", priority: 7, progressMinutes: 30, price: 12.0,
            allergens: []),
        Item(
            name: "Plan sprint", isComplete: false, assignee: nil, priority: 3, progressMinutes: 0, price: 0.5,
            allergens: ["gluten", "milk"]),
        Item(
            name: "Ship release", isComplete: false, assignee: "Mia", priority: 9, progressMinutes: 45, price: 20.0,
            allergens: ["peanut"]),
        Item(
            name: "Review PR", isComplete: true, assignee: "mia", priority: 5, progressMinutes: 15, price: 7.25,
            allergens: ["soy", "gluten"]),
        Item(
            name: "Write docs", isComplete: true, assignee: "Sam", priority: 2, progressMinutes: 200, price: 1.0,
            allergens: []),
    ]

    static let projects: [Project] = [
        Project(
            name: "Apollo", quota: 3, items: ["Write tests", "Fix bug", "Plan sprint"],
            comments: ["status": "green", "owner": "Ali"]),
        Project(name: "Gemini", quota: 1, items: ["Ship release"], comments: ["status": "red"]),
        Project(name: "Mercury", quota: 5, items: [], comments: [:]),
        Project(
            name: "Voyager", quota: 2, items: ["Review PR", "Write docs", "Review PR"],
            comments: ["status": "green", "note": "long"]),
    ]

    static func dog(_ name: String) -> Dog { dogs.first { $0.name == name }! }
    static func item(_ name: String) -> Item { items.first { $0.name == name }! }
    static func allergen(_ name: String) -> Allergen { allergens.first { $0.name == name }! }
}

/// One store of the seed data per test process, shared (read-only) by every conformance test.
enum ConformanceStore {
    static func database() throws -> Database { try shared.get() }

    private static let shared: Result<Database, Error> = Result {
        let directory = TemporaryDirectory()
        let db = try Database(
            path: directory.store(),
            types: [RQLPerson.self, RQLDog.self, RQLAllergen.self, RQLItem.self, RQLProject.self, Address.self])
        try db.write { transaction in
            var dogs: [String: RQLDog] = [:]
            for seed in Seed.dogs {
                let dog = RQLDog()
                dog.name = seed.name
                dog.age = seed.age
                dog.breed = seed.breed
                dog.weight = seed.weight
                try transaction.add(dog)
                dogs[seed.name] = dog
            }
            for seed in Seed.people {
                let person = RQLPerson()
                person.name = seed.name
                person.age = seed.age
                person.height = seed.height
                person.nickname = seed.nickname
                person.isMember = seed.isMember
                person.born = seed.born
                person.key = seed.key
                person.balance = seed.balance
                person.avatar = seed.avatar
                person.level = seed.level
                person.visits = seed.visits
                person.rating = seed.rating
                person.luckyNumbers.append(contentsOf: seed.luckyNumbers)
                person.ratings.append(contentsOf: seed.ratings)
                person.tags.insert(contentsOf: seed.tags)
                for (key, value) in seed.scores { person.scores[key] = value }
                person.dogs.append(contentsOf: seed.dogs.map { dogs[$0]! })
                person.best = seed.best.map { dogs[$0]! }
                if let city = seed.city {
                    let home = Address()
                    home.street = "1 Main St"
                    home.city = city
                    person.home = home
                }
                try transaction.add(person)
            }
            var allergens: [String: RQLAllergen] = [:]
            for seed in Seed.allergens {
                let allergen = RQLAllergen()
                allergen.name = seed.name
                allergen.populationAffected = seed.populationAffected
                try transaction.add(allergen)
                allergens[seed.name] = allergen
            }
            var items: [String: RQLItem] = [:]
            for seed in Seed.items {
                let item = RQLItem()
                item.name = seed.name
                item.isComplete = seed.isComplete
                item.assignee = seed.assignee
                item.priority = seed.priority
                item.progressMinutes = seed.progressMinutes
                item.price = seed.price
                item.allergens.append(contentsOf: seed.allergens.map { allergens[$0]! })
                try transaction.add(item)
                items[seed.name] = item
            }
            for seed in Seed.projects {
                let project = RQLProject()
                project.name = seed.name
                project.quota = seed.quota
                project.items.append(contentsOf: seed.items.map { items[$0]! })
                for (key, value) in seed.comments { project.comments[key] = value }
                try transaction.add(project)
            }
        }
        // The open store keeps its files open and mapped, so the directory can go when this
        // returns: a test process leaves nothing behind.
        return db
    }
}
