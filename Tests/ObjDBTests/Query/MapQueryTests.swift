import Foundation
import Testing

@testable import ObjDB

/// Map queries (#17.7). prices: alice {a: 1.5, b: 4}, bob {c: 10}, carol {}; favorites: alice {fav: bread},
/// bob {fav: nil}, carol {}.
@Suite("Queries: maps")
struct MapQueryTests {
    @Test func aValueByKey() throws {
        let store = try OperandStore()
        #expect(try store.names("prices['a'] == 1.5") == ["alice"])
        #expect(try store.names("prices.a == 1.5") == ["alice"])
        #expect(try store.names("prices[\"c\"] > 5") == ["bob"])
    }

    @Test func aMissingKeyReadsAsNil() throws {
        let store = try OperandStore()
        #expect(try store.names("prices['c'] == nil") == ["alice", "carol"])
    }

    @Test func keysAndValues() throws {
        let store = try OperandStore()
        #expect(try store.names("prices.@keys == 'c'") == ["bob"])
        #expect(try store.names("ANY prices.@keys BEGINSWITH 'b'") == ["alice"])
        #expect(try store.names("prices.@values > 5") == ["bob"])
        #expect(try store.names("ALL prices.@values > 1") == ["alice", "bob", "carol"])
    }

    @Test func aMapComparedWithAValueComparesItsValues() throws {
        let store = try OperandStore()
        #expect(try store.names("prices == 4") == ["alice"])
        #expect(try store.names("NONE prices > 2") == ["carol"])
    }

    @Test func aggregatesOfAMapsValues() throws {
        let store = try OperandStore()
        #expect(try store.names("prices.@count == 2") == ["alice"])
        #expect(try store.names("prices.@size == 0") == ["carol"])
        #expect(try store.names("prices.@sum == 5.5") == ["alice"])
        #expect(try store.names("prices.@max == 10") == ["bob"])
        #expect(try store.names("prices.@avg == 2.75") == ["alice"])
        #expect(try store.names("prices.@min == nil") == ["carol"])
    }

    @Test func aMapOfLinksLeadsToTheObjects() throws {
        let store = try OperandStore()
        #expect(try store.names("favorites['fav'].name == 'bread'") == ["alice"])
        #expect(try store.names("favorites.fav == nil") == ["bob", "carol"])
        #expect(try store.names("favorites.@values.price > 3") == ["alice"])
    }

    @Test func aMapIsNotIndexedByPosition() throws {
        let store = try OperandStore()
        #expect(throws: ObjDBError.self) { try store.names("prices[0] == 1") }
    }
}
