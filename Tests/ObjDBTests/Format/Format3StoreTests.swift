import Foundation
import ObjDBInspection
import TestSupport
import Testing

@testable import ObjDB

/// Format 4 moved each full-text index's statistics and recent segment out of the chunks'
/// database into one of their own. A store of format 3 reads as it is; the first open that may
/// write moves them and marks it format 4.
@Suite("Stores of format 3")
struct Format3StoreTests {
    let directory = TemporaryDirectory()

    /// Snippets 1…3 folded into the chunks and 4…5 in the recent segment, laid out as format 3
    /// did: the statistics (`00`) and the recent entries (`01` key) in the chunks' database.
    func makeFormat3Store() throws {
        var propertyIDs: [UInt16] = []
        do {
            let folded = try fullTextStore(directory, recentLimit: 0)
            try add(folded, ids: 1...3)
            let binding = try folded.catalog.binding(named: "Snippet")
            propertyIDs = ["text", "summary"].compactMap { binding[$0]?.schema.id }
        }
        do {
            let recent = try fullTextStore(directory)
            try add(recent, ids: 4...5)
        }
        let (environment, _) = try StoreFormat.open(path: directory.store("fts.objdb"))
        try environment.write { transaction in
            #expect(propertyIDs.count == 2)
            for id in propertyIDs {
                let chunks = try transaction.openDatabase(
                    named: DatabaseNames.index("Snippet", propertyID: id, kind: .fullText))
                let segment = try transaction.openDatabase(
                    named: DatabaseNames.fullTextSegment("Snippet", propertyID: id))
                let entries = try allEntries(of: segment, in: transaction)
                try transaction.removeAll(in: segment)
                for (key, value) in entries {
                    let moved = key == PostingCodec.segmentStatisticsKey ? PostingCodec.statisticsKey : key
                    try moved.withUnsafeBytes { key in
                        try value.withUnsafeBytes { _ = try transaction.put($0, forKey: key, in: chunks) }
                    }
                }
            }
            let meta = try transaction.openDatabase(named: StoreFormat.metaDatabaseName)
            try StoreFormat.headerKey.withUnsafeBytes { key in
                try StoreFormat.encodeHeader(version: 3).withUnsafeBytes {
                    _ = try transaction.put($0, forKey: key, in: meta)
                }
            }
        }
    }

    func add(_ db: Database, ids: ClosedRange<Int64>) throws {
        for id in ids {
            try db.write { transaction in
                let snippet = Snippet()
                snippet.id = id
                snippet.text = id % 2 == 0 ? "swift actors \(id)" : "café au lait \(id)"
                snippet.summary = "note \(id)"
                try transaction.add(snippet)
            }
        }
    }

    func storedVersion() throws -> UInt32 {
        try StoreFormat.validate(try Environment.openForReading(path: directory.store("fts.objdb"))).1
    }

    func expectSearchesFindEverySnippet(_ db: Database) throws {
        let snippets = try db.view().objects(Snippet.self)
        #expect(try snippets.filter("text TEXT 'swift'").map(\.id).sorted() == [2, 4])
        #expect(try snippets.filter("text TEXT 'cafe'").map(\.id).sorted() == [1, 3, 5])
        #expect(try snippets.filter("summary TEXT 'note'").count == 5)
        let ranked = try snippets.search("lait", in: "text", limit: 10)
        #expect(ranked.map(\.id).sorted() == [1, 3, 5])
        #expect(ranked.allSatisfy { ranked.score(of: $0) ?? 0 > 0 })
    }

    @Test func aReadOnlyOpenSearchesAFormat3StoreWhereItIs() throws {
        try makeFormat3Store()
        var configuration = Configuration(path: directory.store("fts.objdb"), types: fullTextTypes)
        configuration.readOnly = true
        let db = try Database(configuration: configuration)
        try expectSearchesFindEverySnippet(db)
        #expect(try StoreCheck(database: db).problems() == [])
        #expect(try storedVersion() == 3)
    }

    @Test func anOpenThatMayWriteMovesTheSegmentsAndMarksTheStoreFormat4() throws {
        try makeFormat3Store()
        let db = try fullTextStore(directory)
        #expect(try storedVersion() == 4)
        let chunks = try fullTextEntries(db, type: "Snippet", property: "text")
        #expect(chunks.allSatisfy { $0.0.first! > PostingCodec.recentPrefix })
        let segment = try fullTextEntries(db, type: "Snippet", property: "text", segment: true)
        #expect(segment.map { $0.0.first! } == [1, 1, 2])
        try expectSearchesFindEverySnippet(db)
        #expect(try StoreCheck(database: db).problems() == [])
        try add(db, ids: 6...6)
        #expect(try db.view().objects(Snippet.self).filter("text TEXT 'swift'").map(\.id).sorted() == [2, 4, 6])
        #expect(try StoreCheck(database: db).problems() == [])
    }
}
