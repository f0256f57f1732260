import Foundation
import Testing

@testable import ObjDB

/// `list[0]`, `[FIRST]`, `[LAST]`, `[SIZE]`, `[*]` (#17.8). ints: alice [1, 2, 3], bob [4], carol [].
@Suite("Queries: list indexing")
struct ListIndexTests {
    @Test func aPositionReadsThatElement() throws {
        let store = try OperandStore()
        #expect(try store.names("ints[0] == 1") == ["alice"])
        #expect(try store.names("ints[2] == 3") == ["alice"])
        #expect(try store.names("tags[1] == 'y'") == ["alice"])
    }

    @Test func aPositionPastTheEndMatchesNothing() throws {
        let store = try OperandStore()
        #expect(try store.names("ints[5] == 1") == [])
        #expect(try store.names("ints[5] != 1") == [])
    }

    @Test func firstLastAndSize() throws {
        let store = try OperandStore()
        #expect(try store.names("ints[FIRST] == 4") == ["bob"])
        #expect(try store.names("ints[LAST] == 3") == ["alice"])
        #expect(try store.names("ints[SIZE] == 0") == ["carol"])
        #expect(try store.names("ints[size] > 2") == ["alice"])
    }

    @Test func starReadsEveryElement() throws {
        let store = try OperandStore()
        #expect(try store.names("ints[*] == 2") == ["alice"])
        #expect(try store.names("ALL ints[*] > 3") == ["bob", "carol"])
    }

    @Test func anIndexIntoAListOfObjectsReadsThatObject() throws {
        let store = try OperandStore()
        #expect(try store.names("items[0].name == 'cheese'") == ["bob"])
        #expect(try store.names("items[LAST].price == 2") == ["alice"])
        #expect(try store.names("items[FIRST].allergens[0].name == 'lactose'") == ["alice", "bob"])
    }

    @Test func anIndexOnOneValueIsRejected() throws {
        let store = try OperandStore()
        do {
            _ = try store.names("age[0] == 1")
            Issue.record("the query ran")
        } catch let error as ObjDBError {
            #expect(error.code == .invalidQuery)
            #expect(error.message.contains("[0] needs a list"))
        }
        #expect(store.errorCode("ints[-1] == 1") == .predicateSyntax)
    }
}
