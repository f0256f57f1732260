import Foundation
import TestSupport
import Testing

@testable import ObjDB

enum PlainV1 {
    final class Article: Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted var headline = ""
    }
}

enum IndexedV2 {
    final class Article: Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted(indexed: .fullText) var headline = ""
    }
}

enum RegularV3 {
    final class Article: Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted(indexed: true) var headline = ""
    }
}

/// A migration adds, drops or changes a full-text index; `compact` keeps it; the schema refuses it
/// on what is not a string.
@Suite("Full-text indexes: migrations, compaction and schema")
struct FullTextMigrationTests {
    let directory = TemporaryDirectory()

    func open(_ type: ObjectBase.Type, version: UInt64) throws -> Database {
        var configuration = Configuration(path: directory.store(), types: [type])
        configuration.schemaVersion = version
        return try Database(configuration: configuration)
    }

    @Test func aMigrationBuildsTheIndexAndAnotherDropsIt() throws {
        do {
            let db = try open(PlainV1.Article.self, version: 1)
            try db.write { transaction in
                for id in 1...300 {
                    try transaction.create(
                        PlainV1.Article.self,
                        value: ["id": id, "headline": "Headline \(id) about \(id % 3 == 0 ? "Swift" : "tea")"])
                }
            }
        }
        do {
            let db = try open(IndexedV2.Article.self, version: 2)
            #expect(try StoreCheck(database: db).problems() == [])
            let found = try db.view().objects(IndexedV2.Article.self).filter("headline TEXT 'swift'")
            #expect(found.count == 100)
            #expect(try found.explain().contains("full-text search"))
            try db.write { transaction in
                try transaction.create(IndexedV2.Article.self, value: ["id": 301, "headline": "Swift again"])
            }
            #expect(try StoreCheck(database: db).problems() == [])
        }
        do {
            let db = try open(RegularV3.Article.self, version: 3)
            #expect(try StoreCheck(database: db).problems() == [])
            let binding = try db.catalog.binding(named: "Article")
            let fts = try db.catalog.environment.read { transaction in
                try transaction.openDatabaseIfPresent(
                    named: DatabaseNames.index("Article", propertyID: binding["headline"]!.schema.id, kind: .fullText)
                ).map { try transaction.statistics(of: $0).entries }
            }
            #expect(fts == 0)
            #expect(try db.view().objects(RegularV3.Article.self).filter("headline TEXT 'swift'").count == 101)
        }
    }

    @Test func compactionKeepsTheIndexExact() throws {
        let db = try fullTextStore(directory)
        try db.write { transaction in
            for id in 1...200 {
                let snippet = Snippet()
                snippet.id = Int64(id)
                snippet.text = "word\(id % 7) shared"
                try transaction.add(snippet)
            }
            for id in stride(from: 1, through: 200, by: 3) {
                try transaction.delete(transaction.object(ofType: Snippet.self, forPrimaryKey: Int64(id))!)
            }
        }
        let copy = directory.store("compact.objdb")
        try db.catalog.environment.copy(to: copy, compacting: true)
        let compacted = try Database(path: copy, types: fullTextTypes)
        #expect(try StoreCheck(database: compacted).problems() == [])
        #expect(try compacted.snippetIDs("text TEXT 'shared'").count == 133)
    }

    @Test func theSchemaRefusesAFullTextIndexOnWhatIsNotAString() throws {
        var schema = try DiscoveredType.of(Snippet.self).schema
        let position = schema.properties.firstIndex { $0.name == "likes" }!
        schema.properties[position].index = .fullText
        #expect(throws: ObjDBError.self) { try DiscoveredType.validate(schema) }
    }
}
