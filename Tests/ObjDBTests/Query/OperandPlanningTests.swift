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

/// Two conjuncts bounding one indexed property walk one range, as `BETWEEN` does (#17.12).
@Suite("Queries: ranges from two conjuncts")
struct ConjunctRangePlanningTests {
    private func plan(_ store: OperandStore, _ predicate: String) throws -> QueryPlan {
        try store.people.filter(predicate).query.plan
    }

    @Test(arguments: ["age >= 26 AND age <= 35", "age <= 35 AND 26 <= age", "age > 25 AND age < 36 AND name != 'x'"])
    func twoBoundsOnAnIndexedPropertyAreOneRange(predicate: String) throws {
        let store = try OperandStore()
        guard case .indexRange(let property, let lower, let upper) = try plan(store, predicate) else {
            Issue.record("\(predicate) is not an index range")
            return
        }
        #expect(property.schema.name == "age" && lower != nil && upper != nil)
        #expect(try store.names(predicate) == ["alice"])
    }

    @Test func boundsThatCannotMeetFindNothing() throws {
        let store = try OperandStore()
        #expect(try store.names("age >= 35 AND age <= 26").isEmpty)
        #expect(try store.names("age >= 30 AND age <= 30") == ["alice"])
    }
}

/// An `OR` of equalities on one property and `NOT (x != c)` are lookups, as `IN` and `==` are (#17.12).
@Suite("Queries: equalities spelled with OR and NOT")
struct EqualitySpellingPlanningTests {
    private func explain(_ store: OperandStore, _ predicate: String) throws -> String {
        try store.people.filter(predicate).explain()
    }

    @Test(arguments: ["age == 30 OR age == 40", "age == 30 OR age IN {40}", "30 == age OR age == 40"])
    func anOrOfEqualitiesIsALookupOfEachKey(predicate: String) throws {
        let store = try OperandStore()
        #expect(try explain(store, predicate).contains("index lookup on age (2 keys)"))
        #expect(try store.names(predicate) == ["alice", "bob"])
    }

    @Test func anOrOverTwoPropertiesStaysAScan() throws {
        let store = try OperandStore()
        #expect(try explain(store, "age == 30 OR name == 'bob'").contains("full scan"))
        #expect(try store.names("age == 30 OR name == 'bob'") == ["alice", "bob"])
    }

    @Test func notUnequalIsALookup() throws {
        let store = try OperandStore()
        #expect(try explain(store, "NOT (age != 30)").contains("index lookup on age (1 key)"))
        #expect(try store.names("NOT (age != 30)") == ["alice"])
        #expect(try store.names("NOT (nickname != 'Al')") == ["alice"])
    }
}
