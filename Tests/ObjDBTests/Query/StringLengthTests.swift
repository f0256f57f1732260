import Foundation
import Testing

@testable import ObjDB

/// `.length`, `@count` and `@size` of strings and binary data (#17.9), in UTF-8 bytes as Realm counts them.
@Suite("Queries: string and data length")
struct StringLengthTests {
    @Test func theLengthOfAString() throws {
        let store = try OperandStore()
        #expect(try store.names("name.length == 5") == ["alice", "carol"])
        #expect(try store.names("name.@count == 3") == ["bob"])
        #expect(try store.names("nickname.@size == 2") == ["alice"])
    }

    @Test func theLengthOfNilIsNil() throws {
        let store = try OperandStore()
        #expect(try store.names("nickname.length == nil") == ["bob"])
    }

    @Test func theLengthOfData() throws {
        let store = try OperandStore()
        #expect(try store.names("blob.length == 3") == ["bob"])
    }

    @Test func lengthsCompareWithEachOther() throws {
        let store = try OperandStore()
        #expect(try store.names("nickname.length < name.length") == ["alice", "carol"])
    }

    @Test func theLengthOfEachStringOfAList() throws {
        let store = try OperandStore()
        #expect(try store.names("ANY tags.length == 1") == ["alice", "carol"])
    }

    @Test func theLengthOfANumberIsRejected() throws {
        let store = try OperandStore()
        do {
            _ = try store.names("age.length > 1")
            Issue.record("the query ran")
        } catch let error as ObjDBError {
            #expect(error.code == .invalidQuery)
            #expect(error.message.contains("length needs a string"))
        }
    }
}
