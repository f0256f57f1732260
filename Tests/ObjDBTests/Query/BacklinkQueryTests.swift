import Foundation
import Testing

@testable import ObjDB

/// `@links.Class.property` and `@links.@count`, without a declared linking-objects property (#17.6).
/// Buddies: alice → bob, carol → alice. alice's items list holds milk twice.
@Suite("Queries: backlinks by @links")
struct BacklinkQueryTests {
    private func items(_ store: OperandStore, _ predicate: String) throws -> [String] {
        var parser = try PredicateParser(predicate, arguments: [])
        let expression = try parser.parse()
        return try store.database.view().objects(RqItem.self).filtered(by: expression).map(\.name).sorted()
    }

    @Test func theCountOfLinksFromOneProperty() throws {
        let store = try OperandStore()
        #expect(try store.names("@links.RqPerson.buddy.@count == 1") == ["alice", "bob"])
        #expect(try store.names("@links.RqPerson.buddy.@count == 0") == ["carol"])
    }

    @Test func aListHoldingAnObjectTwiceLinksToItTwice() throws {
        let store = try OperandStore()
        #expect(try items(store, "@links.RqPerson.items.@count == 2") == ["milk"])
    }

    @Test func aDeclaredLinkingObjectsPropertyCountsALinkHeldTwiceTwice() throws {
        let store = try OperandStore()
        #expect(try items(store, "owners.@count == 2") == ["milk"])
        #expect(try items(store, "owners.@count == 1") == ["bread", "cheese"])
    }

    @Test func anArithmeticExpressionOfTooManyTermsIsASyntaxError() throws {
        let store = try OperandStore()
        let terms = Array(repeating: "age", count: 200).joined(separator: " + ")
        #expect(store.errorCode("\(terms) > 1") == .predicateSyntax)
        let factors = Array(repeating: "age", count: 200).joined(separator: " * ")
        #expect(store.errorCode("\(factors) > 1") == .predicateSyntax)
    }

    @Test func theCountOfEveryLink() throws {
        let store = try OperandStore()
        #expect(try store.names("@links.@count == 0") == ["carol"])
        // milk: alice's items twice; bread: alice's items and favorites; cheese: bob's items.
        #expect(try items(store, "@links.@count == 2") == ["bread", "milk"])
        #expect(try items(store, "@links.@count == 1") == ["cheese"])
    }

    @Test func aPropertyOfTheLinkingObjects() throws {
        let store = try OperandStore()
        #expect(try store.names("ANY @links.RqPerson.buddy.name == 'carol'") == ["alice"])
        #expect(try store.names("@links.RqPerson.buddy.age < 35") == ["alice", "bob"])
        #expect(try items(store, "@links.RqPerson.items.age > 35") == ["cheese"])
        #expect(try items(store, "@links.RqPerson.items.@max.balance == 20") == ["bread", "milk"])
    }

    @Test func liveResultsThroughLinksWatchTheLinkingType() throws {
        let store = try OperandStore()
        var parser = try PredicateParser("@links.RqPerson.items.@count == 2", arguments: [])
        let items = try store.database.view().objects(RqItem.self).filtered(by: try parser.parse())
        #expect(items.spec.linkedTypes(from: items.binding, in: store.database).contains("RqPerson"))
        var counting = try PredicateParser("@links.@count > 0", arguments: [])
        let linked = try store.database.view().objects(RqItem.self).filtered(by: try counting.parse())
        #expect(linked.spec.linkedTypes(from: linked.binding, in: store.database).contains("RqPerson"))
    }

    @Test func aBacklinkThroughSomethingThatIsNoLinkIsRejected() throws {
        let store = try OperandStore()
        do {
            _ = try store.names("@links.RqItem.price.@count > 0")
            Issue.record("the query ran")
        } catch let error as ObjDBError {
            #expect(error.code == .invalidQuery)
            #expect(error.message.contains("RqItem.price is not a link to RqPerson"))
        }
        #expect(throws: ObjDBError.self) { try store.names("@links.Nothing.x.@count > 0") }
        #expect(store.errorCode("@backlinks.@count > 0") == .predicateSyntax)
    }
}
