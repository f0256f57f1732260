import Foundation
import ObjDBInspection
import TestSupport
import Testing

@testable import ObjDB

/// The recent segment of a full-text index: a write of a new object puts one entry beside the
/// statistics, searches read it beside the chunks, and the write that passes the limit folds it.
@Suite("Full-text indexes: the recent segment")
struct FullTextRecentSegmentTests {
    let directory = TemporaryDirectory()

    static let texts = [
        "Swift actors and async await", "café au lait with #swift", "the actor model in Swift",
        "async sequences", "@joe likes café", "concurrency in Swift 6", "Swift’s actors", "lait et café",
    ]

    /// Snippets 1…`count` (texts in turn), one write each.
    func addSnippets(_ db: Database, count: Int, from start: Int64 = 1) throws {
        for id in start..<start + Int64(count) {
            try db.write { transaction in
                let snippet = Snippet()
                snippet.id = id
                snippet.text = Self.texts[Int(id) % Self.texts.count]
                snippet.plain = snippet.text
                try transaction.add(snippet)
            }
        }
    }

    func recentEntries(_ db: Database) throws -> Int {
        try fullTextEntries(db, type: "Snippet", property: "text", segment: true).filter { $0.0.first == 1 }.count
    }

    func chunkEntries(_ db: Database) throws -> Int {
        try fullTextEntries(db, type: "Snippet", property: "text").filter { $0.0.first! > 1 }.count
    }

    /// Every query here answers as a scan of the unindexed copy of the field (`plain`) does.
    func expectSearchesAgree(_ db: Database, _ comment: String) throws {
        let snippets = try db.view().objects(Snippet.self)
        for query in ["swift", "café", "act*", "\"café au lait\"", "swift -actors", "async await", "#swift", "s*"] {
            let indexed = try snippets.filter("text TEXT %@", query).map(\.id)
            let scanned = try snippets.filter("plain TEXT %@", query).map(\.id)
            #expect(indexed == scanned, "\(comment): \(query)")
        }
    }

    @Test func aWriteOfANewObjectPutsOneRecentEntry() throws {
        let db = try fullTextStore(directory)
        try addSnippets(db, count: 5)
        #expect(try recentEntries(db) == 5)
        #expect(try chunkEntries(db) == 0)
        try expectSearchesAgree(db, "recent only")
        #expect(try StoreCheck(database: db).problems() == [])
    }

    @Test func theWriteThatPassesTheLimitFoldsTheSegment() throws {
        let db = try fullTextStore(directory, recentLimit: 200)
        try addSnippets(db, count: 40)
        #expect(try recentEntries(db) < 10)
        #expect(try chunkEntries(db) > 0)
        try expectSearchesAgree(db, "folded")
        #expect(try StoreCheck(database: db).problems() == [])
    }

    @Test func updatesAndDeletesReachWhereverThePostingsAre() throws {
        do {
            let db = try fullTextStore(directory, recentLimit: 0)
            try addSnippets(db, count: 6)
        }
        // From here on the segment keeps what is written: 1…6 are in the chunks, 7…9 recent.
        let keeping = try fullTextStore(directory, recentLimit: 1 << 30)
        try addSnippets(keeping, count: 3, from: 7)
        #expect(try recentEntries(keeping) == 3)
        try keeping.write { transaction in
            for (id, text) in [(Int64(2), "rust and tea"), (8, "tea for two"), (9, "")] {
                let snippet = transaction.object(ofType: Snippet.self, forPrimaryKey: id)!
                snippet.text = text
                snippet.plain = text
            }
            try transaction.delete(transaction.object(ofType: Snippet.self, forPrimaryKey: Int64(3))!)
            try transaction.delete(transaction.object(ofType: Snippet.self, forPrimaryKey: Int64(7))!)
        }
        #expect(try recentEntries(keeping) == 1)
        #expect(try keeping.snippetIDs("text TEXT 'tea'") == [2, 8])
        try expectSearchesAgree(keeping, "after updates")
        #expect(try StoreCheck(database: keeping).problems() == [])
    }

    @Test func rankingReadsTheSegmentAsTheChunks() throws {
        let recent = try fullTextStore(directory, name: "recent.objdb")
        let folded = try fullTextStore(directory, name: "folded.objdb", recentLimit: 0)
        try addSnippets(recent, count: 16)
        try addSnippets(folded, count: 16)
        #expect(try recentEntries(recent) == 16)
        #expect(try recentEntries(folded) == 0)
        for query in ["swift", "café lait", "act*", "\"swift actors\""] {
            let a = try recent.view().objects(Snippet.self).search(query, in: "text", limit: 10)
            let b = try folded.view().objects(Snippet.self).search(query, in: "text", limit: 10)
            #expect(a.map(\.id) == b.map(\.id), "\(query)")
            #expect(a.map { a.score(of: $0) } == b.map { b.score(of: $0) }, "\(query)")
        }
    }

    @Test func theCheckFindsADamagedSegment() throws {
        let db = try fullTextStore(directory)
        try addSnippets(db, count: 3)
        let binding = try db.catalog.binding(named: "Snippet")
        let segment = try #require(binding["text"]?.fullTextSegment?.database)
        // An entry for an object whose value does not hold its token, and statistics that miss it.
        try db.catalog.environment.write { transaction in
            let value = Array("zebra".utf8).withUnsafeBytes { PostingCodec.encodeRecent(DocumentTokens($0)) }
            try PostingCodec.recentKey([0x30]).withUnsafeBytes { key in
                try value.withUnsafeBytes { _ = try transaction.put($0, forKey: key, in: segment) }
            }
        }
        let problems = try StoreCheck(database: db).problems()
        #expect(problems.contains { $0.contains("'zebra' has 1 postings, but no object holds it") })
        #expect(problems.contains { $0.contains("recent segment holds") })
    }
}
