import Foundation
import TestSupport
import Testing

@testable import ObjDB

/// The worked example of docs/FORMAT.md, "Full-text indexes", byte for byte.
@Suite("Full-text format")
struct FullTextFormatTests {
    /// The example's two objects in one write, folded (a limit of 0 folds at every write).
    @Test func theWorkedExampleIsWhatTheIndexHolds() throws {
        let directory = TemporaryDirectory()
        let db = try fullTextStore(directory, recentLimit: 0)
        try Self.addExample(to: db)
        let entries = try fullTextEntries(db, type: "Snippet", property: "text")
        let segment = try fullTextEntries(db, type: "Snippet", property: "text", segment: true)
        #expect(segment.map(\.0) == [[0x02]])
        #expect(segment.map(\.1) == [[0x02, 0x06]])
        let expected: [([UInt8], [UInt8])] = [
            ([0x23, 0x73, 0x77, 0x69, 0x66, 0x74, 0x00, 0x10], [0x01, 0x01, 0x00, 0x01, 0x09, 0x01]),
            ([0x61, 0x75, 0x00, 0x1D], [0x01, 0x01, 0x00, 0x01, 0x11, 0x02]),
            ([0x63, 0x61, 0x66, 0x65, 0x00, 0x10], [0x01, 0x02, 0x01, 0x02, 0x0D, 0x09, 0x12, 0x00, 0x00, 0x01]),
            ([0x6C, 0x61, 0x69, 0x74, 0x00, 0x1D], [0x01, 0x01, 0x00, 0x01, 0x11, 0x03]),
        ]
        #expect(entries.map(\.0) == expected.map(\.0))
        #expect(entries.map(\.1) == expected.map(\.1))
    }

    /// The same two objects before a fold: two recent entries, and their size in the statistics
    /// after them, in the segment's database; the chunks' database is empty.
    @Test func theRecentWorkedExampleIsWhatTheIndexHolds() throws {
        let directory = TemporaryDirectory()
        let db = try fullTextStore(directory)
        try Self.addExample(to: db)
        #expect(try fullTextEntries(db, type: "Snippet", property: "text").isEmpty)
        let entries = try fullTextEntries(db, type: "Snippet", property: "text", segment: true)
        let expected: [([UInt8], [UInt8])] = [
            (
                [0x01, 0x10],
                [
                    0x01, 0x02, 0x02, 0x06, 0x23, 0x73, 0x77, 0x69, 0x66, 0x74, 0x01, 0x01, 0x04, 0x63, 0x61, 0x66,
                    0x65, 0x01, 0x00,
                ]
            ),
            (
                [0x01, 0x1D],
                [
                    0x01, 0x04, 0x03, 0x02, 0x61, 0x75, 0x01, 0x02, 0x04, 0x63, 0x61, 0x66, 0x65, 0x02, 0x00, 0x01,
                    0x04, 0x6C, 0x61, 0x69, 0x74, 0x01, 0x03,
                ]
            ),
            ([0x02], [0x02, 0x06, 0x2A]),
        ]
        #expect(entries.map(\.0) == expected.map(\.0))
        #expect(entries.map(\.1) == expected.map(\.1))
    }

    private static func addExample(to db: Database) throws {
        try db.write { transaction in
            for (id, text) in [(Int64(7), "Café #Swift"), (20, "cafe cafe au lait")] {
                let snippet = Snippet()
                snippet.id = id
                snippet.text = text
                try transaction.add(snippet)
            }
        }
    }

    @Test func chunksRoundTripAndDamageIsRefused() {
        var chunk = PostingCodec.Chunk()
        for (key, positions) in [
            ([UInt8](arrayLiteral: 0x10), [0, 4, 9, 12]), ([0x1D], [3]), ([0xC0, 0x05], [1, 2]),
        ] {
            chunk.append(key: key, length: 20, positions: positions)
        }
        let value = PostingCodec.encode(chunk, kind: .signed)
        let decoded = value.withUnsafeBytes { value in
            [UInt8](arrayLiteral: 0x10).withUnsafeBytes { PostingCodec.decode(value, firstKey: $0, kind: .signed) }
        }
        #expect(decoded == chunk)
        for cut in 0..<value.count {
            let damaged = Array(value.prefix(cut))
            let result = damaged.withUnsafeBytes { value in
                [UInt8](arrayLiteral: 0x10).withUnsafeBytes { PostingCodec.decode(value, firstKey: $0, kind: .signed) }
            }
            #expect(result == nil, "cut at \(cut)")
        }
        var strings = PostingCodec.Chunk()
        for key in ["\u{1}apple", "\u{1}apricot", "\u{1}banana"] {
            strings.append(key: Array(key.utf8), length: 1, positions: [0])
        }
        let encoded = PostingCodec.encode(strings, kind: .bytes)
        let back = encoded.withUnsafeBytes { value in
            Array("\u{1}apple".utf8).withUnsafeBytes { PostingCodec.decode(value, firstKey: $0, kind: .bytes) }
        }
        #expect(back == strings)
    }
}
