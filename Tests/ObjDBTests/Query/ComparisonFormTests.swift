import Foundation
import Testing

@testable import ObjDB

/// A comparison's form is decided once, by the normalizer, against the schema: the planner and
/// the compiler read it and never change it (#29).
@Suite("Queries: each comparison's form is decided once")
struct ComparisonFormTests {
    /// The prepared filter of `predicate` on people.
    private func prepared(_ store: OperandStore, _ predicate: String) throws -> QueryExpression? {
        try store.people.filter(predicate).query.spec.filter
    }

    private func isFieldTest(_ expression: QueryExpression?) -> Bool {
        if case .comparison = expression { return true }
        return false
    }

    private func isGeneral(_ expression: QueryExpression?) -> Bool {
        if case .operands = expression { return true }
        return false
    }

    @Test(arguments: [
        "age > 30", "nickname == nil", "ANY tags == 'x'", "ints.@count == 3", "buddy.age == 40",
        "ANY items.price > 3", "'milk' IN items.name", "owners.@count == 1",
    ])
    func aValueReadInPlaceIsAFieldTest(predicate: String) throws {
        let store = try OperandStore()
        let filter =
            predicate == "owners.@count == 1"
            ? try store.database.view().objects(RqItem.self).filter(predicate).query.spec.filter
            : try prepared(store, predicate)
        #expect(isFieldTest(filter), "\(predicate) → \(String(describing: filter))")
    }

    @Test(arguments: [
        "items.price.@sum > 5", "ANY items.allergens.name == 'gluten'", "prices.@max > 2", "nickname.length == 2",
        "buddy.nickname BEGINSWITH nil", "tags == {'x', 'y'}",
    ])
    func whatOnlyTheGeneralEvaluatorAnswersIsRaisedBeforePlanning(predicate: String) throws {
        let store = try OperandStore()
        #expect(isGeneral(try prepared(store, predicate)), "\(predicate)")
    }

    @Test func realmsNullPatternOnAStringOfTheObjectItselfIsDecidedBeforeCompiling() throws {
        let store = try OperandStore()
        #expect(try prepared(store, "nickname BEGINSWITH nil") == .constant(true))
        guard case .comparison(let like) = try prepared(store, "nickname LIKE nil") else {
            Issue.record("LIKE nil is not a field test")
            return
        }
        #expect(like.op == .equal && like.value.isNull)
        #expect(try store.names("nickname LIKE nil") == ["bob"])
        #expect(try store.names("nickname BEGINSWITH nil") == ["alice", "bob", "carol"])
    }

    @Test func raisedComparisonsAnswerAsRealmDoes() throws {
        let store = try OperandStore()
        #expect(try store.names("items.price.@sum > 5") == ["alice", "bob"])
        #expect(try store.names("tags == {'x', 'y'}") == ["alice"])
    }
}
