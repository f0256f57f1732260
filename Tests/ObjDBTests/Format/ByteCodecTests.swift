import Foundation
import Testing

@testable import ObjDB

/// The codecs of index keys, backlinks, meta keys, database names and the change log are pure
/// functions of their inputs: checked here without an environment.
@Suite("Format: index, backlink, meta and change-log bytes")
struct ByteCodecTests {
    @Test func indexKeysAreATagThenOrderPreservingBytes() {
        #expect(IndexKeyCodec.entry(for: .null, unique: false, maxKeySize: 511) == .key([0x00]))
        #expect(IndexKeyCodec.entry(for: .bool(true), unique: false, maxKeySize: 511) == .key([0x01, 1]))
        #expect(IndexKeyCodec.entry(for: .string("ab"), unique: true, maxKeySize: 511) == .key([0x01, 0x61, 0x62]))
        let keys = [-5, 0, 3, 1 << 40].map { number -> [UInt8] in
            guard case .key(let key) = IndexKeyCodec.entry(for: .int(Int64(number)), unique: false, maxKeySize: 511)
            else { return [] }
            return key
        }
        #expect(keys == keys.sorted { $0.lexicographicallyPrecedes($1) })
    }

    @Test func aUniqueIndexHoldsNoNilAndNoKeyPastTheLimit() {
        #expect(IndexKeyCodec.entry(for: .null, unique: true, maxKeySize: 511) == IndexKeyCodec.Entry.none)
        let long = StoredValue.string(String(repeating: "x", count: 600))
        #expect(IndexKeyCodec.entry(for: long, unique: true, maxKeySize: 511) == .tooLarge(size: 601))
        guard case .key(let cut) = IndexKeyCodec.entry(for: long, unique: false, maxKeySize: 511) else {
            Issue.record("a regular index keeps a prefix")
            return
        }
        #expect(cut.count == 511)
    }

    @Test func collectionsAndLinksAreNotIndexed() {
        #expect(IndexKeyCodec.entry(for: .list([.int(1)]), unique: false, maxKeySize: 511) == IndexKeyCodec.Entry.none)
    }

    @Test func aBacklinkValueRoundTrips() {
        let value = BacklinkCodec.sourceValue(type: "Tweet", propertyID: 0x0102, key: [9, 8, 7])
        #expect(value == [5] + Array("Tweet".utf8) + [1, 2, 9, 8, 7])
        let source = value.withUnsafeBytes { BacklinkCodec.source($0) }
        #expect(source == BacklinkCodec.Source(typeName: "Tweet", propertyID: 0x0102, key: [9, 8, 7]))
        #expect(BacklinkCodec.targetKey(type: "User", key: [1]) == [4] + Array("User".utf8) + [1])
    }

    @Test func aTruncatedBacklinkValueIsRefused() {
        let value = BacklinkCodec.sourceValue(type: "Tweet", propertyID: 1, key: [])
        for length in 0..<7 {
            let source = Array(value.prefix(length)).withUnsafeBytes { BacklinkCodec.source($0) }
            #expect(source == nil, "prefix of \(length) bytes")
        }
    }

    @Test func databaseNamesAndMetaKeysAreStable() {
        #expect(DatabaseNames.table("Tweet") == "obj.Tweet")
        #expect(DatabaseNames.index("Tweet", propertyID: 2, unique: false) == "idx.Tweet.2")
        #expect(DatabaseNames.index("Tweet", propertyID: 2, unique: true) == "uidx.Tweet.2")
        #expect(
            [DatabaseNames.meta, DatabaseNames.backlinks, DatabaseNames.changes] == [
                "objdb.meta", "objdb.backlinks", "objdb.changes",
            ])
        #expect(MetaKeys.sequence("Tag") == Array("seq.Tag".utf8))
        #expect(MetaKeys.encode(258) == [0, 0, 0, 0, 0, 0, 1, 2])
        #expect(MetaKeys.encode(.max).withUnsafeBytes { MetaKeys.decode($0) } == .max)
        #expect([UInt8](repeating: 0, count: 7).withUnsafeBytes { MetaKeys.decode($0) } == nil)
    }

    @Test func aChangeLogValueRoundTrips() throws {
        var entries: [UInt8] = []
        ([1, 2] as [UInt8]).withUnsafeBytes {
            ChangeLogCodec.appendEntry(.inserted, key: $0, properties: [], to: &entries)
        }
        ([3] as [UInt8]).withUnsafeBytes {
            ChangeLogCodec.appendEntry(.modified, key: $0, properties: [4, 5], to: &entries)
        }
        let value = ChangeLogCodec.value([
            (name: "Tweet", isWholesale: false, count: 2, entries: entries),
            (name: "Big", isWholesale: true, count: 0, entries: []),
        ])
        var seen: [String] = []
        var objects: [(ChangeLogCodec.ChangeKind, [UInt8], [UInt16])] = []
        let intact = value.withUnsafeBytes { bytes in
            ChangeLogCodec.forEachType(in: bytes) { type in
                seen.append("\(type.typeName)\(type.isWholesale ? "*" : "")")
                return ChangeLogCodec.forEachEntry(in: type.entries, count: type.count) {
                    objects.append(($0, Array($1), $2))
                }
            }
        }
        #expect(intact)
        #expect(seen == ["Big*", "Tweet"])
        #expect(objects.map(\.0) == [.inserted, .modified])
        #expect(objects.map(\.1) == [[1, 2], [3]])
        #expect(objects.map(\.2) == [[], [4, 5]])
    }

    @Test func everyTruncationOfAChangeLogValueIsRefused() {
        var entries: [UInt8] = []
        ([7, 7, 7] as [UInt8]).withUnsafeBytes {
            ChangeLogCodec.appendEntry(.modified, key: $0, properties: [1], to: &entries)
        }
        let value = ChangeLogCodec.value([(name: "T", isWholesale: false, count: 1, entries: entries)])
        // A lone format byte is a valid value listing no type; every longer prefix cuts a type short.
        for length in 2..<value.count {
            let intact = Array(value.prefix(length)).withUnsafeBytes { bytes in
                ChangeLogCodec.forEachType(in: bytes) {
                    ChangeLogCodec.forEachEntry(in: $0.entries, count: $0.count) { _, _, _ in }
                }
            }
            #expect(!intact, "prefix of \(length) bytes")
        }
    }
}
