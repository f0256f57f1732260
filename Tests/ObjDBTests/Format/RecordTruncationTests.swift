import Foundation
import Testing

@testable import ObjDB

/// Damaged encodings never crash a reader: a record cut short (at any length) or lengthened is
/// refused up front, and random byte flips read as refused, absent or some value, never out of bounds.
@Suite("Record codec: truncations and byte flips")
struct RecordTruncationTests {
    @Test(arguments: 0..<6 as Range<UInt64>)
    func everyTruncationOfARecordIsRefused(seed: UInt64) throws {
        var records = RandomRecords(seed: seed)
        let codec = TypeCodec(type: records.root, schema: records.schema)
        for _ in 0..<20 {
            let bytes = try codec.encode(records.values(of: records.root))
            for record in [bytes] + embeddedRecords(in: bytes, codec: codec) {
                for length in prefixLengths(of: record, using: &records.random) {
                    Array(record.prefix(length)).withUnsafeBytes { prefix in
                        #expect(RecordReader(header: prefix) == nil, "\(length) of \(record.count) bytes")
                        #expect(RecordReader(validating: prefix) == nil, "\(length) of \(record.count) bytes")
                    }
                }
                (record + [0]).withUnsafeBytes { longer in
                    #expect(RecordReader(header: longer) == nil)
                    #expect(RecordReader(validating: longer) == nil)
                }
            }
        }
    }

    @Test(arguments: 0..<6 as Range<UInt64>)
    func everyTruncationOfAFieldDecodesCleanly(seed: UInt64) throws {
        var records = RandomRecords(seed: seed)
        let codec = TypeCodec(type: records.root, schema: records.schema)
        let values = ValueCodec(schema: records.schema)
        for _ in 0..<10 {
            let bytes = try codec.encode(records.values(of: records.root))
            try bytes.withUnsafeBytes { buffer in
                let reader = try #require(RecordReader(validating: buffer))
                for field in codec.fields {
                    guard let whole = reader.bytes(field.slot), whole.count <= 2_048 else { continue }
                    for length in 0..<whole.count {
                        let prefix = UnsafeRawBufferPointer(rebasing: whole.prefix(length))
                        _ = values.decodeField(.bytes(prefix), of: field.property)
                        if field.kind == .integer || field.kind == .uuid || field.kind == .float {
                            #expect(values.decodeValue(prefix, as: field.property) == nil)
                        }
                    }
                }
            }
        }
    }

    /// Each seed runs in a child process, which must exit normally: a crash fails the test, not the run.
    @Test(arguments: 0..<4 as Range<UInt64>)
    func randomByteFlipsNeverCrashAReader(seed: UInt64) async throws {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) { [seed] in
            let refused = try Self.readRandomByteFlips(seed: seed)
            FileHandle.standardOutput.write(Data("refused \(refused)\n".utf8))
        }
        let output = String(decoding: result?.standardOutputContent ?? [], as: UTF8.self)
        let refused = output.split(separator: " ").last.flatMap {
            Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        #expect((refused ?? 0) > 0, "no flip was refused: \(output)")
    }

    /// Reads 800 records with one to three bytes flipped every way a reader can; returns how many
    /// the validating reader refused.
    static func readRandomByteFlips(seed: UInt64) throws -> Int {
        var records = RandomRecords(seed: seed)
        let codec = TypeCodec(type: records.root, schema: records.schema)
        var refused = 0
        for _ in 0..<20 {
            let original = try codec.encode(records.values(of: records.root))
            for _ in 0..<40 {
                var damaged = original
                for _ in 0..<Int.random(in: 1...3, using: &records.random) {
                    // Mostly the header and slot table, where a flip does the most harm.
                    let limit = Bool.random(using: &records.random) ? min(damaged.count, 24) : damaged.count
                    damaged[Int.random(in: 0..<limit, using: &records.random)] ^= UInt8.random(
                        in: 1...255, using: &records.random)
                }
                damaged.withUnsafeBytes { buffer in
                    if RecordReader(validating: buffer) == nil { refused += 1 }
                    guard let reader = RecordReader(header: buffer) else { return }
                    _ = codec.decode(reader)
                    for slot in 0..<reader.slotCount + 2 {
                        _ = (reader.integer(slot), reader.double(slot), reader.float(slot), reader.bool(slot))
                        _ = (reader.date(slot), reader.uuid(slot), reader.string(slot))
                    }
                }
            }
        }
        return refused
    }

    /// Every length shorter than the record: all of them, or for a long one its first and last
    /// kilobyte and a sample between.
    func prefixLengths(of record: [UInt8], using random: inout SeededGenerator) -> [Int] {
        guard record.count > 4_096 else { return Array(0..<record.count) }
        return Array(0..<1_024) + Array(record.count - 1_024..<record.count)
            + (0..<200).map { _ in Int.random(in: 1_024..<record.count - 1_024, using: &random) }
    }

    /// The nested records of embedded fields (single ones, not those in lists).
    func embeddedRecords(in record: [UInt8], codec: TypeCodec) -> [[UInt8]] {
        record.withUnsafeBytes { buffer in
            guard let reader = RecordReader(validating: buffer) else { return [] }
            return codec.fields.filter { $0.kind == .embedded }.compactMap { reader.bytes($0.slot).map(Array.init) }
        }
    }
}

/// A damaged record's error says what is wrong with it.
@Suite("Record damage")
struct RecordDamageTests {
    @Test func eachCheckNamesWhatFailed() {
        let cases: [([UInt8], RecordDamage)] = [
            ([2], .tooShort(count: 1)),
            ([1, 0, 0], .unknownVersion(1)),
            ([2, 8, 0], .unknownLayout(8)),
            ([2, 0, 9, 1], .slotTableTooLong(slots: 9, recordSize: 4)),
            ([2, 0, 2, 1], .slotTableTooLong(slots: 2, recordSize: 4)),
            ([2, 0, 1, 2, 0x61], .sizeMismatch(dataSize: 1, stated: 2)),
            ([2, 4, 1, 3, 0], .unknownSlotState(slot: 0)),
            ([2, 0, 3, 1, 0, 1, 0x61], .endBeforeStart(slot: 1)),
            ([2, 0, 2, 3, 1, 0x61], .endPastData(slot: 0)),
        ]
        for (bytes, damage) in cases {
            bytes.withUnsafeBytes { #expect(RecordReader.damage(in: $0) == damage, "\(bytes)") }
        }
        [UInt8]([2, 0, 1, 1, 0x61]).withUnsafeBytes { #expect(RecordReader.damage(in: $0) == nil) }
    }
}
