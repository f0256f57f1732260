import Foundation
import TestSupport
import Testing

@testable import ObjDB

/// Format 3 is format 2 with the full-text index's recent segment (format 4 moved it). A format 2
/// store reads as it is; the first open that may write marks it current, so that a format 2 build
/// refuses it from then on instead of missing the objects a segment holds.
@Suite("Stores of format 2")
struct Format2StoreTests {
    let directory = TemporaryDirectory()

    /// A store of three users whose header says format 2.
    func makeFormat2Store() throws {
        do {
            let db = try makeDatabase(directory)
            try db.write { transaction in
                for (id, name) in [(1, "ada"), (2, "bob"), (3, "cy")] { try transaction.add(makeUser(Int64(id), name)) }
            }
        }
        let (environment, _) = try StoreFormat.open(path: directory.store())
        try environment.write { transaction in
            let meta = try transaction.openDatabase(named: StoreFormat.metaDatabaseName)
            try StoreFormat.headerKey.withUnsafeBytes { key in
                try StoreFormat.encodeHeader(version: 2).withUnsafeBytes {
                    _ = try transaction.put($0, forKey: key, in: meta)
                }
            }
        }
    }

    /// The header's version, read through this process's open environment if it has one.
    func storedVersion() throws -> UInt32 {
        try StoreFormat.validate(try Environment.openForReading(path: directory.store())).1
    }

    @Test func aReadOnlyOpenReadsAFormat2StoreAndLeavesItsHeader() throws {
        try makeFormat2Store()
        #expect(try storedVersion() == 2)
        var configuration = Configuration(path: directory.store(), types: seedTypes)
        configuration.readOnly = true
        let db = try Database(configuration: configuration)
        #expect(try db.view().objects(TwitterUser.self).map(\.screenName) == ["ada", "bob", "cy"])
        #expect(try storedVersion() == 2)
    }

    @Test func anOpenThatMayWriteMarksAFormat2StoreCurrent() throws {
        try makeFormat2Store()
        let db = try makeDatabase(directory)
        #expect(try storedVersion() == StoreFormat.version)
        #expect(try db.view().objects(TwitterUser.self).map(\.screenName) == ["ada", "bob", "cy"])
        try db.write { try $0.add(makeUser(4, "dee")) }
        #expect(try db.view().objects(TwitterUser.self).count == 4)
    }

    @Test func anOpenThatFailsLeavesAFormat2StoreAsItWas() throws {
        try makeFormat2Store()
        // Another class named TwitterUser, with other properties and no new schema version.
        var configuration = Configuration(path: directory.store(), types: [Changed.TwitterUser.self])
        configuration.readOnly = false
        #expect(throws: ObjDBError.self) { try Database(configuration: configuration) }
        #expect(try storedVersion() == 2)
    }
}

enum Changed {
    final class TwitterUser: Object {
        @Persisted(primaryKey: true) var id: Int64 = 0
        @Persisted var nickname = ""
    }
}
