import Foundation
import ObjDBInspection
import TestSupport
import Testing

@testable import ObjDB

final class ScoreRow: Object {
    @Persisted var student = ""
    @Persisted var points = 0.0
    override class var uniquenessConstraints: [[String]] { [["student", "points"]] }
}

/// The uniqueness constraint bytes of docs/FORMAT.md ("Uniqueness constraints"), byte for byte.
@Suite("docs/FORMAT.md: uniqueness constraint keys")
struct CompoundKeyFormatTests {
    let directory = TemporaryDirectory()

    @Test func theDocumentedKeyLeadsToTheObject() throws {
        let db = try Database(path: directory.store(), types: [ScoreRow.self])
        try db.write { try $0.create(ScoreRow.self, value: ["student": "ada", "points": 1.0]) }
        let key = hex("01 61 64 61 00 01 01 BF F0 00 FF 00 FF 00 FF 00 FF 00 FF 00 FF 00 01")
        #expect(CompoundKeyCodec.entry(for: [.string("ada"), .double(1)], maxKeySize: 511) == .key(key))
        let environment = try Environment.openForReading(path: directory.store())
        let (entries, held) = try environment.read { transaction in
            let table = try #require(try transaction.openDatabaseIfPresent(named: "obj.ScoreRow"))
            let index = try #require(try transaction.openDatabaseIfPresent(named: "cidx.ScoreRow.0.1"))
            var tableKeys: [[UInt8]] = []
            try transaction.cursor(table).forEach { entry in
                tableKeys.append(Array(entry.key))
                return true
            }
            return (tableKeys, try key.withUnsafeBytes { try transaction.get($0, in: index).map(Array.init) })
        }
        #expect(entries.count == 1 && held == entries.first)
    }

    @Test func componentsNeverRunIntoEachOther() {
        // ("a\0", "b") and ("a", "\0b") would be one key if components were only joined.
        let first = CompoundKeyCodec.entry(for: [.string("a\u{0}"), .string("b")], maxKeySize: 511)
        let second = CompoundKeyCodec.entry(for: [.string("a"), .string("\u{0}b")], maxKeySize: 511)
        #expect(first != second)
        #expect(CompoundKeyCodec.entry(for: [.string("a"), .null], maxKeySize: 511) == IndexKeyCodec.Entry.none)
    }
}

extension CompoundKeyFormatTests {
    @Test func storeCheckFindsAConstraintIndexOutOfStep() throws {
        let db = try Database(path: directory.store(), types: [ScoreRow.self])
        try db.write { transaction in
            for points in 1...3 { try transaction.create(ScoreRow.self, value: ["student": "ada", "points": points]) }
        }
        #expect(try StoreCheck(database: db).problems() == [])
        try db.environment.write { transaction in
            let index = try #require(try transaction.openDatabaseIfPresent(named: "cidx.ScoreRow.0.1"))
            try transaction.removeAll(in: index)
        }
        #expect(
            try StoreCheck(database: db).problems() == [
                "uniqueness constraint ScoreRow(student, points): holds 0 entries that do not match its objects' 3"
            ])
    }
}
