import Foundation
import Testing

@testable import ObjDB

/// Every spelling of `indexedProperty == constant`, a range or `IN` reaches the planner (#17.12):
/// `explain()` shows the index, and the answers are the same as the plain spelling's.
@Suite("Queries: new spellings use the index")
struct OperandPlanningTests {
    /// The plan of `predicate`, given `argument` when it names `$0`.
    private func explain(_ store: OperandStore, _ predicate: String, _ argument: Int = 0) throws -> String {
        var parser = try PredicateParser(predicate, arguments: predicate.contains("$0") ? [argument] : [])
        return try store.people.filtered(by: try parser.parse()).explain()
    }

    private func names(_ store: OperandStore, _ predicate: String, _ argument: Int) throws -> [String] {
        predicate.contains("$0") ? try store.names(predicate, argument) : try store.names(predicate)
    }

    @Test(arguments: ["30 == age", "age == ANY {30}", "age == {30}", "{30} == age", "age IN {30}", "$0 == age"])
    func anEqualitySpelledAnyWayIsAnIndexLookup(predicate: String) throws {
        let store = try OperandStore()
        #expect(try explain(store, predicate, 30).contains("index lookup on age (1 key)"))
        #expect(try names(store, predicate, 30) == ["alice"])
    }

    @Test(arguments: ["age == ANY {30, 40}", "age == {40, 30}", "ANY {30, 40} == age", "age IN {30, 40}"])
    func aListOfValuesSpelledAnyWayIsAnIndexLookupOfEach(predicate: String) throws {
        let store = try OperandStore()
        #expect(try explain(store, predicate).contains("index lookup on age (2 keys)"))
        #expect(try store.names(predicate) == ["alice", "bob"])
    }

    @Test(arguments: ["26 <= age", "age >= 26", "$0 < age"])
    func aRangeWithTheConstantOnTheLeftIsAnIndexRange(predicate: String) throws {
        let store = try OperandStore()
        #expect(try explain(store, predicate, 26).contains("index range scan on age"))
        #expect(try names(store, predicate, 26) == ["alice", "bob"])
    }

    @Test func aComparisonOfTwoPropertiesBesideAnIndexedEqualityStillUsesTheIndex() throws {
        let store = try OperandStore()
        #expect(try explain(store, "40 == age AND balance < age").contains("index lookup on age (1 key)"))
        #expect(try store.names("40 == age AND balance < age") == ["bob"])
    }

    @Test func aComparisonOfTwoPropertiesAloneIsAScan() throws {
        let store = try OperandStore()
        #expect(try explain(store, "balance < age").contains("full scan"))
    }
}
