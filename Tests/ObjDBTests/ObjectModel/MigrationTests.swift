import Foundation
import TestSupport
import Testing

@testable import ObjDB

// Versions of one model class, named alike so they are stored as the same type.
enum V1 {
    final class Note: Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted var body = ""
        @Persisted var stars = 0
        @Persisted var draft = false
    }
}

enum V2 {
    final class Note: Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted var text = ""
        @Persisted(indexed: true) var stars = 0
        @Persisted var draft = false
        @Persisted var tags: List<String>
    }
}

enum V3 {
    final class Note: Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted var text = ""
        @Persisted(indexed: true) var stars = 0
        @Persisted var tags: List<String>
        @Persisted var author: String?
    }
}

@Suite("Migrations")
struct MigrationTests {
    let directory = TemporaryDirectory()

    func open(
        _ type: ObjectBase.Type, version: UInt64, migration: (@Sendable (Migration, UInt64) throws -> Void)? = nil
    )
        throws -> Database
    {
        var configuration = Configuration(path: directory.store(), types: [type])
        configuration.schemaVersion = version
        configuration.migration = migration
        return try Database(configuration: configuration)
    }

    func seedVersion1() throws {
        let db = try open(V1.Note.self, version: 1)
        try db.write { transaction in
            for id in 1...3 {
                try transaction.create(V1.Note.self, value: ["id": id, "body": "note \(id)", "stars": id * 2])
            }
        }
    }

    @Test func aChangedClassWithoutANewVersionIsASchemaMismatch() throws {
        try seedVersion1()
        #expect {
            try open(V2.Note.self, version: 1)
        } throws: { error in
            guard let error = error as? ObjDBError, error.code == .schemaMismatch else { return false }
            let differences = error.details
            return differences == [
                "Note.text is new", "Note.stars: index regular declared, none stored", "Note.tags is new",
                "Note.body was removed",
            ]
        }
    }

    @Test func aMigrationRenamesAPropertyAndAppliesAdditiveChanges() throws {
        try seedVersion1()
        let db = try open(V2.Note.self, version: 2) { migration, oldVersion in
            #expect(oldVersion == 1)
            try migration.renameProperty(onType: "Note", from: "body", to: "text")
        }
        let notes = try db.view().objects(V2.Note.self)
        #expect(notes.map(\.text) == ["note 1", "note 2", "note 3"])
        #expect(notes.map(\.stars) == [2, 4, 6])
        #expect(notes.allSatisfy { $0.tags.isEmpty })
        #expect(db.schema.version == 2)
        #expect(try StoreCheck(database: db).problems() == [])
    }

    @Test func aMigrationSeesOldAndNewObjectsAndRewritesValues() throws {
        try seedVersion1()
        let db = try open(V2.Note.self, version: 2) { migration, _ in
            try migration.enumerateObjects(ofType: "Note") { old, new in
                let body = old?["body"].stringValue ?? ""
                try new?.setValue(body.uppercased(), forKey: "text")
                try new?.setValue(["migrated"], forKey: "tags")
                #expect(old?.objectSchema["text"] == nil)
            }
        }
        let notes = try db.view().objects(V2.Note.self)
        #expect(notes.map(\.text) == ["NOTE 1", "NOTE 2", "NOTE 3"])
        #expect(notes.map { Array($0.tags) } == [["migrated"], ["migrated"], ["migrated"]])
    }

    @Test func anAdditiveMigrationRewritesNoRecord() throws {
        try seedVersion1()
        let before = try rawRecords()
        _ = try open(V2.Note.self, version: 2)
        #expect(try rawRecords() == before)
    }

    @Test func aThrowingMigrationLeavesTheStoreAsItWas() throws {
        struct Refused: Error {}
        try seedVersion1()
        #expect(throws: Refused.self) {
            try open(V2.Note.self, version: 2) { migration, _ in
                try migration.renameProperty(onType: "Note", from: "body", to: "text")
                throw Refused()
            }
        }
        let db = try open(V1.Note.self, version: 1)
        #expect(try db.view().objects(V1.Note.self).map(\.body) == ["note 1", "note 2", "note 3"])
    }

    @Test func aStoreOfANewerSchemaVersionIsRefused() throws {
        try seedVersion1()
        _ = try open(V2.Note.self, version: 5)
        #expect(throws: ObjDBError.newerSchemaVersion(path: directory.store(), stored: 5, declared: 2)) {
            try open(V2.Note.self, version: 2)
        }
    }

    @Test func removedPropertyIDsAreNeverReused() throws {
        try seedVersion1()
        _ = try open(V2.Note.self, version: 2) { migration, _ in
            try migration.renameProperty(onType: "Note", from: "body", to: "text")
        }
        let db = try open(V3.Note.self, version: 3)
        let note = try #require(db.schema["Note"])
        let ids = note.properties.map(\.id)
        #expect(Set(ids).count == ids.count)
        // body (1) and draft (3) were removed: neither ID comes back
        #expect(!ids.contains(1) && !ids.contains(3))
        #expect(try db.view().objects(V3.Note.self).allSatisfy { $0.author == nil })
    }

    @Test func aNewIndexIsBuiltFromTheStoredObjects() throws {
        try seedVersion1()
        let db = try open(V2.Note.self, version: 2)
        let info = try StoreInfo.read(path: directory.store())
        let index = info.databases.first { $0.name.hasPrefix("idx.Note.") }
        #expect(index?.statistics.entries == 3)
        #expect(try StoreCheck(database: db).problems() == [])
    }

    @Test func migrationsCanCreateAndDeleteObjects() throws {
        try seedVersion1()
        let db = try open(V2.Note.self, version: 2) { migration, _ in
            try migration.create("Note", value: ["id": 99, "text": "added"])
            try migration.enumerateObjects(ofType: "Note") { _, new in
                if let new, new["stars"] == .int(2) { try migration.delete(new) }
            }
        }
        #expect(try db.view().objects(V2.Note.self).map(\.id) == [2, 3, 99])
    }

    /// The bytes of every Note record, straight from the table.
    func rawRecords() throws -> [[UInt8]] {
        var options = EnvironmentOptions()
        options.readOnly = false
        let (environment, _) = try StoreFormat.open(path: directory.store())
        return try environment.read { transaction in
            let table = try transaction.openDatabase(named: "obj.Note")
            var records: [[UInt8]] = []
            try transaction.cursor(table).forEach {
                records.append(Array($0.value))
                return true
            }
            return records
        }
    }
}
