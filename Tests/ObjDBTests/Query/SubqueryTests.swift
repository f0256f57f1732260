import Foundation
import Testing

@testable import ObjDB

/// `SUBQUERY(collection, $x, predicate).@count` (#17.11): how many elements match, per object.
@Suite("Queries: SUBQUERY")
struct SubqueryTests {
    @Test func aSubqueryCountsTheElementsThatMatch() throws {
        let store = try OperandStore()
        #expect(try store.names("SUBQUERY(items, $x, $x.price > 3).@count > 0") == ["alice", "bob"])
        // alice holds milk twice.
        #expect(try store.names("SUBQUERY(items, $x, $x.name == 'milk').@count == 2") == ["alice"])
        #expect(try store.names("SUBQUERY(items, $item, $item.price > 100).@size == 0") == ["alice", "bob", "carol"])
    }

    @Test func aSubqueryPredicateCombinesConditionsOnOneElement() throws {
        let store = try OperandStore()
        #expect(try store.names("SUBQUERY(items, $x, $x.price < 3 AND $x.quantity == 3).@count == 2") == ["alice"])
        #expect(try store.names("SUBQUERY(items, $x, $x.price > 3 AND $x.quantity == 3).@count > 0") == [])
    }

    @Test func aSubqueryPredicateReachesIntoTheElementsCollections() throws {
        let store = try OperandStore()
        #expect(try store.names("SUBQUERY(items, $x, $x.allergens.@count > 1).@count == 1") == ["bob"])
        #expect(try store.names("SUBQUERY(items, $x, ANY $x.allergens.name == 'gluten').@count == 1") == ["alice"])
    }

    @Test func twoSubqueriesCompareWithEachOther() throws {
        let store = try OperandStore()
        #expect(
            try store.names("SUBQUERY(items, $x, $x.price < 3).@count > SUBQUERY(items, $x, $x.price >= 3).@count")
                == ["alice"])
    }

    @Test func aSubqueryOverOneObjectIsRejected() throws {
        let store = try OperandStore()
        do {
            _ = try store.names("SUBQUERY(buddy, $x, $x.age > 3).@count > 0")
            Issue.record("the query ran")
        } catch let error as ObjDBError {
            #expect(error.code == .invalidQuery)
            #expect(error.message.contains("SUBQUERY needs a list, a set or linking objects"))
        }
    }

    @Test func aSubqueryWithoutItsCountIsASyntaxError() throws {
        let store = try OperandStore()
        #expect(store.errorCode("SUBQUERY(items, $x, $x.price > 3) > 0") == .predicateSyntax)
        #expect(store.errorCode("SUBQUERY(items, x, x.price > 3).@count > 0") == .predicateSyntax)
    }

    @Test func aSubqueryPathWithoutTheVariableIsASyntaxError() throws {
        let store = try OperandStore()
        do {
            _ = try store.names("SUBQUERY(items, $x, price > 3).@count > 0")
            Issue.record("the query ran")
        } catch let error as ObjDBError {
            #expect(error.code == .predicateSyntax)
            #expect(error.message.contains("every key path starts with $x"))
        }
    }
}
