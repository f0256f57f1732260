import Foundation
import Testing

@testable import ObjDB

/// Aggregates of a property through a to-many link, and paths through two collections (#17.4, #17.11).
/// alice holds [milk 2.0 ×3, bread 3.5 ×1, milk 2.0 ×3], bob [cheese 7.0 ×2], carol nothing.
@Suite("Queries: aggregates through links")
struct LinkAggregateTests {
    @Test func aListCountsALinkHeldTwiceTwice() throws {
        let store = try OperandStore()
        #expect(try store.names("items.@count == 3") == ["alice"])
        #expect(try store.names("items.@size == 1") == ["bob"])
    }

    @Test func aSumOfAPropertyThroughLinksComparesWithAnotherProperty() throws {
        let store = try OperandStore()
        // alice 2 + 3.5 + 2 = 7.5 < 20; bob 7 > 5; carol 0 = 0.
        #expect(try store.names("items.@sum.price > balance") == ["bob"])
        #expect(try store.names("items.@sum.price == 0") == ["carol"])
        #expect(try store.names("items.@sum.quantity == 7") == ["alice"])
    }

    @Test func averageMinimumAndMaximumThroughLinks() throws {
        let store = try OperandStore()
        #expect(try store.names("items.@avg.price == 2.5") == ["alice"])
        #expect(try store.names("items.@min.price == 2") == ["alice"])
        #expect(try store.names("items.@max.price == 7") == ["bob"])
    }

    @Test func anEmptyCollectionHasNoMinimumMaximumOrAverage() throws {
        let store = try OperandStore()
        #expect(try store.names("items.@max.price == nil") == ["carol"])
        #expect(try store.names("items.@avg.price == nil") == ["carol"])
        #expect(try store.names("items.@min.price < 100") == ["alice", "bob"])
    }

    @Test func theAggregateMayFollowThePropertyItAggregates() throws {
        let store = try OperandStore()
        #expect(try store.names("items.price.@sum == 7.5") == ["alice"])
        #expect(try store.names("items.price.@count == 3") == ["alice"])
    }

    @Test func aPathThroughTwoCollectionsQuantifiesOverEveryValue() throws {
        let store = try OperandStore()
        // Allergens: alice lactose, gluten, lactose; bob lactose, mould; carol none.
        #expect(try store.names("items.allergens.name == 'mould'") == ["bob"])
        #expect(try store.names("ANY items.allergens.name == 'gluten'") == ["alice"])
        #expect(try store.names("ALL items.allergens.name BEGINSWITH 'l'") == ["carol"])
        #expect(try store.names("NONE items.allergens.name == 'lactose'") == ["carol"])
        #expect(try store.names("'mould' IN items.allergens.name") == ["bob"])
    }

    @Test func anAggregateThroughTwoCollections() throws {
        let store = try OperandStore()
        // Smallest share affected: alice 0.05 (gluten), bob 0.01 (mould).
        #expect(try store.names("items.allergens.@min.populationAffected < 0.02") == ["bob"])
        #expect(try store.names("items.allergens.@count == 3") == ["alice"])
    }

    @Test func aSumOfStringsIsRejectedNamingTheProperty() throws {
        let store = try OperandStore()
        #expect(throws: ObjDBError.self) { try store.names("items.@sum.name > 0") }
        do {
            _ = try store.names("tags.@avg > 1")
            Issue.record("the query ran")
        } catch let error as ObjDBError {
            #expect(error.code == .invalidQuery)
            #expect(error.message.contains("@avg needs a collection of numbers; tags holds string"))
        }
    }

    @Test func anAggregateOfObjectsNeedsAProperty() throws {
        let store = try OperandStore()
        #expect(throws: ObjDBError.self) { try store.names("items.@sum > 1") }
    }
}
