import Foundation
import TestSupport
import Testing

@testable import ObjDB

/// How the string front-end reads a predicate's characters, and how its errors point into it.
@Suite("Queries: predicate text")
struct PredicateTextTests {
    let directory = TemporaryDirectory()

    private func tweets(_ texts: [String]) throws -> Results<Tweet> {
        let db = try makeDatabase(directory)
        try db.write { transaction in
            for (id, text) in texts.enumerated() { try transaction.add(makeTweet(Int64(id + 1), text)) }
        }
        return try db.view().objects(Tweet.self)
    }

    private func syntaxError(_ predicate: String) throws -> ObjDBError {
        let all = try tweets([])
        do {
            _ = try all.filter(predicate)
        } catch let error as ObjDBError where error.code == .predicateSyntax {
            return error
        }
        Issue.record("\(predicate) was accepted")
        return ObjDBError.invalidArgument("predicate", reason: "accepted")
    }

    @Test func aQuoteFollowedByACombiningMarkOpensAString() throws {
        let all = try tweets(["cafe\u{301}", "cafe"])
        #expect(try all.filter("text CONTAINS '\u{301}'").map(\.id) == [1])
    }

    @Test func aQuoteFollowedByAZeroWidthJoinerOpensAString() throws {
        let all = try tweets(["a\u{200D}b", "ab"])
        #expect(try all.filter("text CONTAINS \"\u{200D}\"").map(\.id) == [1])
    }

    @Test func aStringEndingInACombiningMarkCloses() throws {
        let all = try tweets(["e\u{301}", "e"])
        #expect(try all.filter("text == 'e\u{301}' OR text == 'x'").map(\.id) == [1])
    }

    @Test func errorPositionsCountUnicodeScalars() throws {
        let error = try syntaxError("text == 'e\u{301}' AND ==")
        #expect(error.position == 17)
    }

    @Test func theCaretKeepsTabsAndWidensWideCharacters() throws {
        let error = try syntaxError("\ttext == '日本' AND ==")
        let lines = error.message.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // 17 scalars after the tab, two of them wide.
        #expect(lines.last == "  \t" + String(repeating: " ", count: 19) + "^")
    }

    @Test func theCaretSkipsCombiningMarks() throws {
        let error = try syntaxError("text == 'e\u{301}' AND ==")
        let lines = error.message.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // 17 scalars before the error, one of them a combining mark.
        #expect(lines.last == "  " + String(repeating: " ", count: 16) + "^")
    }

    @Test func errorsNameOperatorsAsTheUserWritesThem() throws {
        let all = try tweets([])
        do {
            _ = try all.filter("%@ IN retweetedBy.name", 3)
            Issue.record("accepted")
        } catch let error as ObjDBError {
            #expect(!error.message.contains("ELEMENT"))
        }
        #expect(!(try all.filter("'x' IN retweetedBy.name").explain().contains("ELEMENT")))
    }

    @Test func aValueInAPathThroughACollectionMatchesAnyElement() throws {
        let db = try makeDatabase(directory)
        try db.write { transaction in
            let ann = TwitterUser()
            ann.id = 1
            ann.name = "ann"
            let tweet = makeTweet(1, "liked")
            tweet.retweetedBy.append(ann)
            try transaction.add(tweet)
            try transaction.add(makeTweet(2, "ignored"))
        }
        let all = try db.view().objects(Tweet.self)
        #expect(try all.filter("'ann' IN retweetedBy.name").map(\.id) == [1])
        #expect(try all.filter("NONE 'ann' IN retweetedBy.name").map(\.id) == [2])
    }

    @Test(arguments: [
        "retweetCount ==[c] 3", "retweetCount IN[c] {1, 2}", "retweetCount BETWEEN[c] {1, 2}",
        "retweetedBy.@count ==[c] 1", "ANY retweetedBy.id ==[c] 1", "createdAt >[c] %@", "user ==[c] nil",
        "text.@count ==[c] 1",
    ])
    func caseModifiersOnAnythingButAStringAreRejected(predicate: String) throws {
        let all = try tweets([])
        #expect(throws: ObjDBError.self) { try all.filter(predicate, Date()) }
    }
}

/// `$0`, `$1`, … and `$K0` name arguments by position, as in Realm's query language (#17.1).
@Suite("Queries: positional arguments")
struct PositionalArgumentTests {
    let directory = TemporaryDirectory()

    private func tweets() throws -> Results<Tweet> {
        let db = try makeDatabase(directory)
        try db.write { transaction in
            for id in 1...4 {
                let tweet = makeTweet(Int64(id), "t\(id)")
                tweet.retweetCount = id * 10
                try transaction.add(tweet)
            }
        }
        return try db.view().objects(Tweet.self)
    }

    @Test func dollarPlaceholdersNameArgumentsByPosition() throws {
        let all = try tweets()
        #expect(try all.filter("retweetCount > $1 AND id < $0", 4, 10).map(\.id) == [2, 3])
    }

    @Test func aPlaceholderCanBeUsedTwice() throws {
        let all = try tweets()
        #expect(try all.filter("id == $0 OR retweetCount == $0", 20).map(\.id) == [2])
    }

    @Test func aKeyPathPlaceholderNamesAProperty() throws {
        let all = try tweets()
        #expect(try all.filter("$K0 >= $1", "retweetCount", 30).map(\.id) == [3, 4])
    }

    @Test func aPlaceholderBeyondTheArgumentsIsASyntaxError() throws {
        let all = try tweets()
        let error = #expect(throws: ObjDBError.self) { try all.filter("id == $1", 1) }
        #expect(error?.code == .predicateSyntax)
    }

    @Test func anUnusedArgumentIsIgnoredAsRealmIgnoresIt() throws {
        let all = try tweets()
        #expect(try all.filter("id == $1", 1, 2).map(\.id) == [2])
        #expect(try all.filter("id == 3", 1).map(\.id) == [3])
    }
}
