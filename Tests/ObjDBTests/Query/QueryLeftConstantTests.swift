import Foundation
import TestSupport
import Testing

@testable import ObjDB

/// A constant or `NULL` left of an operator (#17.11), with Realm's meaning: the constant is the
/// left operand, so `'abc' BEGINSWITH name` asks whether "abc" begins with the name.
@Suite("Queries: constants on the left")
struct QueryLeftConstantTests: EverythingFixture {
    let directory = TemporaryDirectory()

    private var names: [(Everything) -> Void] {
        ["hello", "world", "HELLO", "", "hello world!"].map { name in { $0.string = name } }
    }

    @Test func aConstantBeginsWithTheProperty() throws {
        let all = try store(names)
        #expect(positions(try all.filter("'hello world' BEGINSWITH string")) == [0, 3])
    }

    @Test func aConstantEndsWithTheProperty() throws {
        let all = try store(names)
        #expect(positions(try all.filter("'hello world' ENDSWITH string")) == [1, 3])
    }

    @Test func aConstantContainsThePropertyIgnoringCase() throws {
        let all = try store(names)
        #expect(positions(try all.filter("\"say hello world\" CONTAINS[c] string")) == [0, 1, 2, 3])
    }

    @Test func aConstantEqualsTheProperty() throws {
        let all = try store(names)
        #expect(positions(try all.filter("'hello' == string")) == [0])
        #expect(positions(try all.filter("'hello' ==[c] string")) == [0, 2])
    }

    @Test func nullOnTheLeftComparesWithNil() throws {
        let all = try store([{ $0.optionalString = "x" }, { $0.optionalString = nil }])
        #expect(positions(try all.filter("NULL == optionalString")) == [1])
        #expect(positions(try all.filter("nil != optionalString")) == [0])
    }

    @Test func aConstantBeginsWithBinaryData() throws {
        let all = try store([{ $0.data = Data("he".utf8) }, { $0.data = Data("lo".utf8) }])
        #expect(positions(try all.filter("'hello' BEGINSWITH data")) == [0])
        #expect(positions(try all.filter("B64\"aGVsbG8=\" ENDSWITH data")) == [1])
    }

    @Test func aConstantBeginsWithBinaryDataIgnoringCase() throws {
        let all = try store([{ $0.data = Data("HE".utf8) }, { $0.data = Data("lo".utf8) }])
        #expect(positions(try all.filter("'hello' BEGINSWITH[c] data")) == [0])
    }

    @Test func aStringPropertyComparesWithADataPropertyAsBytes() throws {
        let all = try store([
            { ($0.string, $0.data) = ("abc", Data("ab".utf8)) }, { ($0.string, $0.data) = ("ab", Data("ab".utf8)) },
            { ($0.string, $0.data) = ("xyz", Data("XY".utf8)) },
        ])
        #expect(positions(try all.filter("string BEGINSWITH data")) == [0, 1])
        #expect(positions(try all.filter("string == data")) == [1])
        #expect(positions(try all.filter("string BEGINSWITH[c] data")) == [0, 1, 2])
    }
}
