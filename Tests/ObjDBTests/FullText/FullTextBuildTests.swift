import Foundation
import ObjDBInspection
import TestSupport
import Testing

@testable import ObjDB

enum BuildV1 {
    final class Entry: Object {
        @Persisted(primaryKey: true) var id: Int64
        @Persisted var body = ""
    }

    final class Note: Object {
        @Persisted var body = ""
    }
}

enum BuildV2 {
    final class Entry: Object {
        @Persisted(primaryKey: true) var id: Int64
        @Persisted(indexed: .fullText) var body = ""
    }

    final class Note: Object {
        @Persisted(indexed: .fullText) var body = ""
    }
}

/// The index a migration builds in bulk is exactly the one the records give (`check` compares
/// every posting with a rebuild), whatever the keys and however often a word repeats.
@Suite("Full-text indexes: the bulk build")
struct FullTextBuildTests {
    let directory = TemporaryDirectory()

    @Test(arguments: [UInt64(3), 4])
    func aMigrationBuildsExactlyTheIndexTheRecordsGive(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let words = ["swift", "café", "#tag", "@someone", "東京", "naïve", "x", "y"]
        let path = directory.store("build-\(seed).objdb")
        do {
            let db = try Database(path: path, types: [BuildV1.Entry.self, BuildV1.Note.self])
            try db.write { transaction in
                for index in 0..<400 {
                    // Negative and positive keys, words repeated up to hundreds of times, empty texts.
                    let count = index % 97 == 0 ? 900 : Int.random(in: 0...12, using: &random)
                    let text = (0..<count).map { _ in words.randomElement(using: &random)! }.joined(separator: " ")
                    let entry = BuildV1.Entry()
                    entry.id = Int64(index * 37 - 5000)
                    entry.body = text
                    try transaction.add(entry)
                    let note = BuildV1.Note()
                    note.body = text
                    try transaction.add(note)
                }
            }
        }
        var configuration = Configuration(path: path, types: [BuildV2.Entry.self, BuildV2.Note.self])
        configuration.schemaVersion = 1
        let db = try Database(configuration: configuration)
        #expect(try StoreCheck(database: db).problems() == [])
        let entries = try db.view().objects(BuildV2.Entry.self)
        let notes = try db.view().objects(BuildV2.Note.self)
        for search in ["swift", "cafe", "\"swift x\"", "na*", "-y swift", "#tag @someone"] {
            #expect(try entries.filter("body TEXT %@", search).count == notes.filter("body TEXT %@", search).count)
        }
    }
}
