import Foundation
import TestSupport
import Testing

@testable import ObjDB

/// A store written by a format 1 build is refused on open, with both versions and what to do,
/// and left exactly as it was.
@Suite("Stores of an older format")
struct OlderFormatTests {
    let directory = TemporaryDirectory()

    /// A format 1 store holding TwitterUser 12 "jack", byte for byte as format 1 wrote it
    /// (the worked example of format 1's docs/FORMAT.md): its header, stored schema, table,
    /// index and change-log databases.
    func makeFormat1Store(at path: String) throws {
        let environment = try Environment.open(path: path)
        try environment.write { transaction in
            let meta = try transaction.openDatabase(named: "objdb.meta", options: .create)
            let schema = """
                {"nextPropertyIDs":{"TwitterUser":5},"types":[{"isEmbedded":false,"name":"TwitterUser","properties":[\
                {"collection":"single","id":0,"isOptional":false,"isPrimaryKey":true,"name":"id","type":"int64"},\
                {"collection":"single","id":1,"isOptional":false,"isPrimaryKey":false,"name":"name","type":"string"},\
                {"collection":"single","id":2,"index":"regular","isOptional":false,"isPrimaryKey":false,\
                "name":"screenName","type":"string"},\
                {"collection":"single","id":3,"isOptional":true,"isPrimaryKey":false,"name":"profileImageURL",\
                "type":"string"},\
                {"collection":"single","id":4,"isOptional":false,"isPrimaryKey":false,"name":"tweets",\
                "objectType":"Tweet","originProperty":"user","type":"linkingObjects"}]}],"version":0}
                """
            let entries: [(String, [UInt8])] = [
                ("header", hex("89 4F 42 4A 44 42 0D 0A 00 00 00 01 00 00 00 00")),
                ("schema", Array(schema.utf8)),
                ("schemaVersion", [0, 0, 0, 0, 0, 0, 0, 0]),
                ("changes.from", [0, 0, 0, 0, 0, 0, 0, 2]),
            ]
            for (key, value) in entries {
                try Array(key.utf8).withUnsafeBytes { key in
                    try value.withUnsafeBytes { _ = try transaction.put($0, forKey: key, in: meta) }
                }
            }
            let userKey = hex("01 80 00 00 00 00 00 00 0C")
            let record = hex(
                "01 00 04 00 00 00 00 00 08 00 00 00 0C 00 00 00 10 00 00 80 0C 00 00 00 00 00 00 00 4A 61 63 6B 6A 61 63 6B"
            )
            let table = try transaction.openDatabase(named: "obj.TwitterUser", options: .create)
            try userKey.withUnsafeBytes { key in
                try record.withUnsafeBytes { _ = try transaction.put($0, forKey: key, in: table) }
            }
            let index = try transaction.openDatabase(named: "idx.TwitterUser.2", options: [.create, .duplicateSort])
            try hex("01 6A 61 63 6B").withUnsafeBytes { key in
                try userKey.withUnsafeBytes { _ = try transaction.put($0, forKey: key, in: index) }
            }
            _ = try transaction.openDatabase(named: "objdb.backlinks", options: [.create, .duplicateSort])
            _ = try transaction.openDatabase(named: "objdb.changes", options: .create)
        }
    }

    @Test func aFormat1StoreIsRefusedWithBothVersionsAndWhatToDo() throws {
        let path = directory.store()
        try makeFormat1Store(at: path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let expected = ObjDBError.olderFormat(path: path, found: 1, supported: StoreFormat.oldestReadableVersion)
        for readOnly in [false, true] {
            var configuration = Configuration(path: path, types: [TwitterUser.self, Tweet.self])
            configuration.readOnly = readOnly
            #expect(throws: expected) { try Database(configuration: configuration) }
            var options = EnvironmentOptions()
            options.readOnly = readOnly
            #expect(throws: expected) { try StoreFormat.open(path: path, options: options) }
        }
        #expect(StoreFormat.version == 4)
        let message = expected.description
        for part in ["format version 1", "version 2, the oldest", "objdb-inspect export", "objdb-inspect import"] {
            #expect(message.contains(part), "\(message)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }
}
