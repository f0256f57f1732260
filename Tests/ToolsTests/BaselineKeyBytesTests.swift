import CBaselines
import Foundation
import ObjDB
import Testing

/// The raw-LMDB baseline of objdb-bench is the limit of ObjDB's design only while its B-trees hold
/// the bytes ObjDB's would: its C encoder must write exactly what Format's codecs write.
@Suite("objdb-bench's raw-LMDB key bytes")
struct BaselineKeyBytesTests {
    /// A fresh seed per run (or `OBJDB_TEST_SEED`), named in every failure.
    let seed =
        ProcessInfo.processInfo.environment["OBJDB_TEST_SEED"].flatMap { UInt64($0) } ?? .random(in: 0...(1 << 62))

    /// Integers of every length, both signs, and the edges where the encoding's length changes.
    func samples() -> [Int64] {
        var random = SplitMix(seed: seed)
        var values: [Int64] = [.min, .min + 1, .max, .max - 1, 0, -1, 1, 182, 183, 12_470, 12_471, 78_006, 78_007]
        for bytes in 1...7 {
            let power = Int64(1) << (8 * Int64(bytes))
            values += [-power, -power - 1, -power + 1, power + 12_470, power + 12_471, power + 12_472]
        }
        for _ in 0..<20_000 {
            // A random width first, so short encodings are as common as long ones.
            let bits = UInt64.random(in: 0...63, using: &random)
            let magnitude = bits == 0 ? 0 : Int64(random.next() >> (64 - bits))
            values.append(Bool.random(using: &random) ? magnitude : ~magnitude)
        }
        return values
    }

    func cTableKey(_ value: Int64) -> [UInt8] {
        var key = [UInt8](repeating: 0, count: Int(BENCH_ORDERED_INT_MAX))
        let count = key.withUnsafeMutableBufferPointer { bench_encode_ordered_int(value, $0.baseAddress) }
        return Array(key.prefix(count))
    }

    func cIndexKey(_ value: Int64) -> [UInt8] {
        var key = [UInt8](repeating: 0, count: Int(BENCH_INDEX_INT_MAX))
        let count = key.withUnsafeMutableBufferPointer { bench_encode_index_int(value, $0.baseAddress) }
        return Array(key.prefix(count))
    }

    @Test func tableKeysAndIndexValuesAreObjectKeyCodecsBytes() {
        for value in samples() {
            let expected = ObjectKeyCodec.encode(.int(value))
            #expect(cTableKey(value) == expected, "id \(value), seed \(seed)")
        }
    }

    @Test func indexKeysAreIndexKeyCodecsBytes() {
        var expected: [UInt8] = []
        for value in samples() {
            IndexKeyCodec.encode(integer: value, into: &expected)
            #expect(cIndexKey(value) == expected, "userId \(value), seed \(seed)")
            #expect(IndexKeyCodec.entry(for: .int(value), unique: false, maxKeySize: 511) == .key(expected))
        }
    }

    @Test func theBenchmarksIdsTakeFourBytesAndItsUsersThree() {
        // What the layout lines of a 1,000,000-tweet run rest on: ids k × 7 + 1, users below 10,000.
        #expect(cTableKey(6_999_994).count == 4)
        #expect(cIndexKey(9_999).count == 3)
        #expect(cIndexKey(100).count == 2)
    }
}

/// A seeded generator, so a failure's seed reproduces it.
private struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
