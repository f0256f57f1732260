import Foundation
import TestSupport

@testable import ObjDB

// Models after realm-core's parser tests (test_parser.cpp): people with items, items with
// allergens, for the general operand forms (#17).

final class RqPerson: Object {
    @Persisted(primaryKey: true) var name = ""
    @Persisted(indexed: true) var age = 0
    @Persisted var balance = 0.0
    @Persisted var nickname: String?
    @Persisted var blob = Data()
    @Persisted var ints: List<Int>
    @Persisted var doubles: List<Double>
    @Persisted var tags: List<String>
    @Persisted var items: List<RqItem>
    @Persisted var prices: Map<String, Double>
    @Persisted var favorites: Map<String, RqItem?>
    @Persisted var buddy: RqPerson?
}

final class RqItem: Object {
    @Persisted(primaryKey: true) var name = ""
    @Persisted var price = 0.0
    @Persisted var quantity = 0
    @Persisted var allergens: List<RqAllergen>
    @Persisted(originProperty: "items") var owners: LinkingObjects<RqPerson>
}

final class RqAllergen: Object {
    @Persisted(primaryKey: true) var name = ""
    @Persisted var populationAffected = 0.0
}

/// A store of three people and their shopping, each test's data spelled out here so the
/// expected answers can be worked out by hand:
///
/// | person | age | balance | nickname | ints | doubles | tags | items | prices | buddy |
/// |---|---|---|---|---|---|---|---|---|---|
/// | alice | 30 | 20.0 | "Al" | [1, 2, 3] | [1.0, 2.0, 3.0] | ["x", "y"] | [milk, bread, milk] | a: 1.5, b: 4 | bob |
/// | bob | 40 | 5.0 | nil | [4] | [4.5] | [] | [cheese] | c: 10 | nil |
/// | carol | 25 | 0.0 | "Caz" | [] | [] | ["X"] | [] | (empty) | alice |
///
/// Items: milk 2.0 × 3 (allergens: lactose), bread 3.5 × 1 (gluten), cheese 7.0 × 2 (lactose, mould).
/// Allergens: lactose 0.6, gluten 0.05, mould 0.01. favorites: alice fav → bread, bob fav → nil.
struct OperandStore {
    let directory = TemporaryDirectory()
    let database: Database

    init() throws {
        database = try Database(
            path: directory.store("operands.objdb"), types: [RqPerson.self, RqItem.self, RqAllergen.self])
        try database.write { transaction in
            func allergen(_ name: String, _ share: Double) -> RqAllergen {
                let allergen = RqAllergen()
                allergen.name = name
                allergen.populationAffected = share
                return allergen
            }
            let lactose = allergen("lactose", 0.6)
            let gluten = allergen("gluten", 0.05)
            let mould = allergen("mould", 0.01)
            func item(_ name: String, _ price: Double, _ quantity: Int, _ allergens: [RqAllergen]) -> RqItem {
                let item = RqItem()
                item.name = name
                item.price = price
                item.quantity = quantity
                item.allergens.append(contentsOf: allergens)
                return item
            }
            let milk = item("milk", 2.0, 3, [lactose])
            let bread = item("bread", 3.5, 1, [gluten])
            let cheese = item("cheese", 7.0, 2, [lactose, mould])
            func person(_ name: String, _ age: Int, _ balance: Double, _ nickname: String?) -> RqPerson {
                let person = RqPerson()
                person.name = name
                person.age = age
                person.balance = balance
                person.nickname = nickname
                person.blob = Data(name.utf8)
                return person
            }
            let alice = person("alice", 30, 20.0, "Al")
            alice.ints.append(contentsOf: [1, 2, 3])
            alice.doubles.append(contentsOf: [1.0, 2.0, 3.0])
            alice.tags.append(contentsOf: ["x", "y"])
            alice.items.append(contentsOf: [milk, bread, milk])
            alice.prices["a"] = 1.5
            alice.prices["b"] = 4
            alice.favorites["fav"] = bread
            let bob = person("bob", 40, 5.0, nil)
            bob.ints.append(4)
            bob.doubles.append(4.5)
            bob.items.append(cheese)
            bob.prices["c"] = 10
            bob.favorites["fav"] = .some(nil)
            alice.buddy = bob
            let carol = person("carol", 25, 0.0, "Caz")
            carol.tags.append("X")
            carol.buddy = alice
            for object in [alice, bob, carol] { try transaction.add(object) }
        }
    }

    var people: Results<RqPerson> { get throws { try database.view().objects(RqPerson.self) } }

    /// The code of the error `predicate` is rejected with, or `nil` when it runs.
    func errorCode(_ predicate: String) -> ObjDBError.Code? {
        do {
            _ = try names(predicate)
            return nil
        } catch let error as ObjDBError {
            return error.code
        } catch {
            return nil
        }
    }

    /// The names of the people matching `predicate`, sorted.
    func names(_ predicate: String, _ arguments: Any...) throws -> [String] {
        var parser = try PredicateParser(predicate, arguments: arguments)
        let expression = try parser.parse()
        return try people.filtered(by: expression).map(\.name).sorted()
    }
}
