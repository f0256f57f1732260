import Foundation
import TestSupport
import Testing

@testable import ObjDB

/// `TEXT` queries on full-text indexes: Realm's syntax, phrases, the planner, live results and ranking.
@Suite("Full-text queries")
struct FullTextQueryTests {
    let directory = TemporaryDirectory()

    let texts: [Int64: String] = [
        1: "Swift concurrency is great",
        2: "Objective-C and Swift interop",
        3: "A café in Zürich serves naïve coffee",
        4: "Concurrent programming with actors #swift",
        5: "Learn SwiftUI @apple https://developer.apple.com/swiftui",
        6: "swift swift swift concurrency concurrency",
        7: "東京都の天気",
    ]

    func seeded() throws -> Database {
        let db = try fullTextStore(directory)
        try db.write { transaction in
            for (id, text) in texts {
                let snippet = Snippet()
                snippet.id = id
                snippet.text = text
                snippet.likes = Int(id)
                if id % 2 == 0 { snippet.summary = "summary of \(id)" }
                try transaction.add(snippet)
            }
        }
        return db
    }

    @Test func everyWordMustBePresentInAnyCaseAndWithAnyDiacritics() throws {
        let db = try seeded()
        #expect(try db.snippetIDs("text TEXT 'swift concurrency'") == [1, 6])
        #expect(try db.snippetIDs("text TEXT 'CAFE naive zurich'") == [3])
        #expect(try db.snippetIDs("text TEXT 'café'") == [3])
    }

    @Test func aMinusExcludesAndAStarIsAPrefix() throws {
        let db = try seeded()
        #expect(try db.snippetIDs("text TEXT 'swift -objective'") == [1, 6])
        #expect(try db.snippetIDs("text TEXT 'conc*'") == [1, 4, 6])
        #expect(try db.snippetIDs("text TEXT 'swift* -concurrency'") == [2, 5])
    }

    @Test func quotedWordsAreAPhrase() throws {
        let db = try seeded()
        #expect(try db.snippetIDs(#"text TEXT '"swift concurrency"'"#) == [1, 6])
        #expect(try db.snippetIDs(#"text TEXT '"concurrency swift"'"#) == [])
        #expect(try db.snippetIDs(#"text TEXT '"naive coffee"'"#) == [3])
        #expect(try db.snippetIDs("text TEXT 'objective-c'") == [2])
    }

    @Test func hashtagsMentionsLinksAndCJKAreSearchable() throws {
        let db = try seeded()
        #expect(try db.snippetIDs("text TEXT '#swift'") == [4])
        #expect(try db.snippetIDs("text TEXT '@apple'") == [5])
        #expect(try db.snippetIDs("text TEXT 'https://developer.apple.com/swiftui'") == [5])
        #expect(try db.snippetIDs("text TEXT '東京'") == [7])
        #expect(try db.snippetIDs("text TEXT '天気'") == [7])
        #expect(try db.snippetIDs("text TEXT '気'") == [7])
    }

    @Test func searchesWithNothingToFindMatchNothingAndExclusionsAloneMatchTheRest() throws {
        let db = try seeded()
        #expect(try db.snippetIDs("text TEXT ''") == [])
        #expect(try db.snippetIDs("text TEXT '!!'") == [])
        #expect(try db.snippetIDs("text TEXT '-swift'") == [3, 4, 5, 7])
    }

    @Test func theWhereClauseSpellsItMatches() throws {
        let db = try seeded()
        let found = try db.view().objects(Snippet.self).where { $0.text.matches("swift") && $0.likes > 4 }
        #expect(found.map(\.id).sorted() == [6])
        let optional = try db.view().objects(Snippet.self).where { $0.summary.matches("summary 4") }
        #expect(optional.map(\.id) == [4])
    }

    @Test func anUnindexedPropertyIsSearchedRecordByRecord() throws {
        let db = try seeded()
        try db.write { transaction in
            for snippet in transaction.objects(Snippet.self) { snippet.plain = snippet.text }
        }
        let notes = try db.view().objects(Snippet.self)
        for query in ["swift concurrency", "conc* -swift", "\"swift concurrency\"", "café", "#swift"] {
            let indexed = try notes.filter("text TEXT %@", query).map(\.id)
            let scanned = try notes.filter("plain TEXT %@", query)
            #expect(scanned.map(\.id) == indexed, "\(query)")
            #expect(try scanned.explain().contains("full scan"))
        }
    }

    @Test func thePlannerStartsFromTheIndexAndExplainSaysSo() throws {
        let db = try seeded()
        let notes = try db.view().objects(Snippet.self)
        let combined = try notes.filter("text TEXT 'swift' AND likes > 1 SORT(likes DESC)")
        #expect(combined.map(\.id) == [6, 2])
        let explained = try combined.explain()
        #expect(explained.contains("full-text search on text ('swift')"))
        let byKey = try notes.filter("id == 3 AND text TEXT 'cafe'")
        #expect(try byKey.explain().contains("primary key lookup"))
        #expect(byKey.map(\.id) == [3])
        #expect(try notes.filter("text TEXT 'swift' OR likes == 3").map(\.id).sorted() == [1, 2, 3, 6])
        #expect(try notes.filter("NOT text TEXT 'swift'").map(\.id).sorted() == [3, 4, 5, 7])
    }

    @Test func badTextComparisonsAreTypedErrors() throws {
        let db = try seeded()
        let notes = try db.view().objects(Snippet.self)
        for predicate in ["likes TEXT 'x'", "text TEXT 5", "text TEXT[c] 'x'", "'x' TEXT text"] {
            #expect(throws: ObjDBError.self, "\(predicate)") { try notes.filter(predicate) }
        }
    }

    @Test func theIndexFollowsUpdatesDeletesAndUpserts() throws {
        let db = try seeded()
        try db.write { transaction in
            let snippet = try #require(transaction.object(ofType: Snippet.self, forPrimaryKey: Int64(1)))
            snippet.text = "Rust ownership"
            try transaction.delete(try #require(transaction.object(ofType: Snippet.self, forPrimaryKey: Int64(6))))
            let replacement = Snippet()
            replacement.id = 3
            replacement.text = "tea in Zürich"
            try transaction.add(replacement, update: .modified)
        }
        #expect(try db.snippetIDs("text TEXT 'swift'") == [2])
        #expect(try db.snippetIDs("text TEXT 'rust'") == [1])
        #expect(try db.snippetIDs("text TEXT 'zurich'") == [3])
        #expect(try db.snippetIDs("text TEXT 'cafe'") == [])
        #expect(try StoreCheck(database: db).problems() == [])
    }

    @Test func stringAndInternalKeysAreIndexedToo() throws {
        let db = try fullTextStore(directory)
        try db.write { transaction in
            for (slug, body) in [("b", "Swift on Linux"), ("a", "swift on servers"), ("c", "Kotlin")] {
                let page = Page()
                page.slug = slug
                page.body = body
                try transaction.add(page)
                let memo = Memo()
                memo.body = body
                try transaction.add(memo)
            }
        }
        let view = try db.view()
        #expect(try view.objects(Page.self).filter("body TEXT 'swift'").map(\.slug) == ["a", "b"])
        #expect(try view.objects(Memo.self).filter("body TEXT 'on'").count == 2)
        #expect(try StoreCheck(database: db).problems() == [])
    }

    @Test func aTextQueryIsLiveWithChangeSets() throws {
        let db = try seeded()
        let queue = DispatchQueue(label: "observer")
        let inbox = Inbox<[Int64]>()
        let token = try onQueue(queue) {
            try db.view(queue: queue).objects(Snippet.self).filter("text TEXT 'swift'").observe { change in
                switch change {
                case .update(let results, let deletions, let insertions, _):
                    inbox.append(
                        results.map(\.id) + [-1] + deletions.map(Int64.init) + [-2] + insertions.map(Int64.init))
                case .error(let error): inbox.append([-99, Int64("\(error)".count)]); print("observer error: \(error)")
                case .initial(let results): inbox.append(results.map(\.id))
                }
            }
        }
        #expect(inbox.wait(for: 1).first == [1, 2, 6])
        try db.write { transaction in
            let snippet = Snippet()
            snippet.id = 8
            snippet.text = "More Swift"
            try transaction.add(snippet)
            try transaction.delete(try #require(transaction.object(ofType: Snippet.self, forPrimaryKey: Int64(2))))
        }
        let deliveries = inbox.wait(for: 2)
        #expect(deliveries.last == [1, 6, 8, -1, 1, -2, 2])
        token.invalidate()
    }

    @Test func rankedSearchOrdersByBM25WithScores() throws {
        let db = try seeded()
        let notes = try db.view().objects(Snippet.self)
        let top = try notes.search("swift concurrency", in: "text", limit: 5)
        #expect(top.map(\.id) == [6, 1])
        let scores = top.map { top.score(of: $0) ?? -1 }
        #expect(scores[0] > scores[1] && scores[1] > 0)
        #expect(try top.explain().contains("ranked by BM25"))
        let single = notes.search("swift", in: \.text, limit: 2)
        #expect(single.count == 2)
        #expect(single.first?.id == 6)
        #expect(throws: ObjDBError.self) { try notes.search("x", in: "plain", limit: 1) }
    }

    @Test func rankedSearchTiesGoByPrimaryKey() throws {
        let db = try fullTextStore(directory)
        try db.write { transaction in
            for id in [Int64(5), 3, 9, 1] {
                let snippet = Snippet()
                snippet.id = id
                snippet.text = "same words here"
                try transaction.add(snippet)
            }
        }
        let top = try db.view().objects(Snippet.self).search("words", in: "text", limit: 3)
        #expect(top.map(\.id) == [1, 3, 5])
    }

    @Test func rankedResultsAreLive() throws {
        let db = try seeded()
        let queue = DispatchQueue(label: "observer")
        let inbox = Inbox<[Int64]>()
        let token = try onQueue(queue) {
            try db.view(queue: queue).objects(Snippet.self).search("concurrency", in: "text", limit: 2).observe {
                change in
                switch change {
                case .initial(let results), .update(let results, _, _, _): inbox.append(results.map(\.id))
                case .error: inbox.append([])
                }
            }
        }
        #expect(inbox.wait(for: 1).first == [6, 1])
        try db.write { transaction in
            let snippet = Snippet()
            snippet.id = 9
            snippet.text = "concurrency concurrency concurrency concurrency"
            try transaction.add(snippet)
        }
        #expect(inbox.wait(for: 2).last == [9, 6])
        token.invalidate()
    }
}
