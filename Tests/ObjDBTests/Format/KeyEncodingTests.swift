import Foundation
import TestSupport
import Testing

@testable import ObjDB

/// Index keys must sort bytewise (as LMDB compares them) in the order of their values.
@Suite("Key encodings preserve order")
struct KeyEncodingTests {
    func integerKey(_ value: Int64) -> [UInt8] {
        var key: [UInt8] = []
        KeyEncoding.appendInteger(value, to: &key)
        return key
    }

    func doubleKey(_ value: Double) -> [UInt8] {
        var key: [UInt8] = []
        KeyEncoding.appendDouble(value, to: &key)
        return key
    }

    @Test func signedIntegersSortByValue() {
        let values: [Int64] = [.min, -1_000_000, -256, -1, 0, 1, 255, 256, 1 << 40, .max]
        #expect(isSortedBytewise(values.map(integerKey)))
        for value in values {
            #expect(integerKey(value).withUnsafeBytes { KeyEncoding.decodeInteger($0) } == value)
        }
    }

    @Test func randomIntegersSortByValue() {
        var random = SeededGenerator(seed: 11)
        let values = Set((0..<2_000).map { _ in Int64.random(in: .min ... .max, using: &random) }).sorted()
        #expect(isSortedBytewise(values.map(integerKey)))
    }

    @Test func doublesSortByValueWithNaNFirst() {
        let values: [Double] = [
            -.infinity, -.greatestFiniteMagnitude, -1, -.leastNonzeroMagnitude, 0, .leastNonzeroMagnitude, 1, 1e300,
            .infinity,
        ]
        #expect(isSortedBytewise(values.map(doubleKey)))
        #expect(doubleKey(.nan).lexicographicallyPrecedes(doubleKey(-.infinity)))
        #expect(doubleKey(-0.0) == doubleKey(0.0))
        #expect(doubleKey(.nan) == doubleKey(-.nan))
        for value in values {
            #expect(doubleKey(value).withUnsafeBytes { KeyEncoding.decodeDouble($0) } == value)
        }
        #expect(doubleKey(.nan).withUnsafeBytes { KeyEncoding.decodeDouble($0) }.isNaN)
    }

    @Test func objectKeysRoundTripAndSort() throws {
        let strings = ["", "A", "a", "ab", "b", "é", "😀"]
        let keys = strings.map { ObjectKeyCodec.encode(.string($0)) }
        #expect(isSortedBytewise(keys))
        for (text, key) in zip(strings, keys) {
            #expect(key.withUnsafeBytes { ObjectKeyCodec.decode($0, primaryKeyType: .string) } == .string(text))
        }
        let uuid = UUID()
        let uuidKey = ObjectKeyCodec.encode(.uuid(uuid))
        #expect(uuidKey.withUnsafeBytes { ObjectKeyCodec.decode($0, primaryKeyType: .uuid) } == .uuid(uuid))
        let ids: [UInt64] = [1, 2, 255, 256, 1 << 40]
        #expect(isSortedBytewise(ids.map { ObjectKeyCodec.encode(.internalID($0)) }))
        #expect([UInt8]().withUnsafeBytes { ObjectKeyCodec.decode($0, primaryKeyType: .int64) } == nil)
    }

    @Test func aDamagedRecordIsRejectedBeforeAnyFieldIsRead() {
        let damaged: [[UInt8]] = [
            [], [2], [2, 0], [1, 0, 0], [3, 0, 0],  // too short, wrong version
            [2, 8, 0], [2, 0, 5, 1, 2],  // unknown layout bits, slot table past the end
            [2, 0, 2, 3, 2, 0, 0, 0],  // ends decreasing
            [2, 0, 2, 1, 200, 0],  // an end past the data
            [2, 0, 1, 2, 0x61],  // cut short: the last end says 2 bytes of data, 1 is left
            [2, 0, 0, 0x61],  // lengthened: no slots, one byte of data
            [2, 4, 1, 3, 0],  // unknown slot state
            [2, 0, 0x80],  // slot count cut short
        ]
        for bytes in damaged {
            #expect(bytes.withUnsafeBytes { RecordReader(validating: $0) } == nil, "\(bytes)")
        }
    }
}
