import Foundation
import TestSupport
import Testing

@testable import ObjDB

/// Integers as format 2 stores them: bytewise order is value order, each value has one
/// encoding (the shortest), and its first byte tells its length.
@Suite("Ordered variable-length integers")
struct OrderedVarIntTests {
    func encode(_ value: Int64) -> [UInt8] {
        var bytes: [UInt8] = []
        OrderedVarInt.append(value, to: &bytes)
        return bytes
    }

    func encodeUnsigned(_ value: UInt64) -> [UInt8] {
        var bytes: [UInt8] = []
        OrderedVarInt.appendUnsigned(value, to: &bytes)
        return bytes
    }

    /// The values around every change of length, and the extremes.
    var edges: [Int64] {
        var values: [Int64] = [.min, .min + 1, .max, .max - 1, 0, -1, 1, 182, 183, 12_470, 12_471]
        for bytes in 1...7 {
            let power = Int64(1) << (8 * Int64(bytes))
            values += [-power, -power - 1, -power + 1, power + 12_470, power + 12_471, power + 12_472]
        }
        return values.sorted()
    }

    @Test func valuesAroundEveryLengthRoundTripAndSort() {
        let values = edges + (-70_000...80_000).map(Int64.init)
        let sorted = Array(Set(values)).sorted()
        let encoded = sorted.map(encode)
        #expect(isSortedBytewise(encoded))
        for (value, bytes) in zip(sorted, encoded) {
            #expect(bytes.count == OrderedVarInt.length(of: value))
            #expect(OrderedVarInt.length(startingWith: bytes[0]) == bytes.count)
            #expect(bytes.withUnsafeBytes { OrderedVarInt.decode($0) } == value)
        }
    }

    @Test func lengthsGrowWithMagnitude() {
        #expect(
            [0, 182, 183, 12_470, 12_471, 78_006, 78_007, -1, -256, -257, .max, .min].map(encode).map(\.count)
                == [1, 1, 2, 2, 3, 3, 4, 2, 2, 3, 9, 9])
    }

    @Test func randomValuesSortByValue() {
        var random = SeededGenerator(seed: 5)
        let values = Set(
            (0..<5_000).map { _ in
                Int64.random(in: .min ... .max, using: &random) >> Int64.random(in: 0...63, using: &random)
            }
        ).sorted()
        let encoded = values.map(encode)
        #expect(isSortedBytewise(encoded))
        for (value, bytes) in zip(values, encoded) {
            #expect(bytes.withUnsafeBytes { OrderedVarInt.decode($0) } == value)
        }
    }

    @Test func everyShortByteStringIsOneEncodingOrNone() {
        // All 1- and 2-byte strings, and random longer ones: a string that decodes is exactly
        // the encoding of its value; any other is refused.
        var strings: [[UInt8]] = (0...255).map { [UInt8($0)] }
        for first in 0...255 { for second in 0...255 { strings.append([UInt8(first), UInt8(second)]) } }
        var random = SeededGenerator(seed: 9)
        for _ in 0..<50_000 {
            let length = Int.random(in: 3...10, using: &random)
            var bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            if Bool.random(using: &random) { bytes[0] = [0x01, 0x08, 0xF0, 0xF6, 0xF3].randomElement(using: &random)! }
            strings.append(bytes)
        }
        var decoded = 0
        for bytes in strings {
            if let value = bytes.withUnsafeBytes({ OrderedVarInt.decode($0) }) {
                #expect(encode(value) == bytes)
                decoded += 1
            }
            if let value = bytes.withUnsafeBytes({ OrderedVarInt.decodeUnsigned($0) }) {
                #expect(encodeUnsigned(value) == bytes)
            }
        }
        #expect(decoded > 10_000)
    }

    @Test func unsignedValuesAgreeWithSignedOnesAndReachUInt64Max() {
        for value in edges where value >= 0 {
            #expect(encodeUnsigned(UInt64(value)) == encode(value))
        }
        let large: [UInt64] = [UInt64(Int64.max), UInt64(Int64.max) + 1, .max - 1, .max]
        #expect(isSortedBytewise(large.map(encodeUnsigned)))
        for value in large {
            #expect(encodeUnsigned(value).withUnsafeBytes { OrderedVarInt.decodeUnsigned($0) } == value)
        }
        #expect(encodeUnsigned(.max).withUnsafeBytes { OrderedVarInt.decode($0) } == nil)
        #expect(encode(-1).withUnsafeBytes { OrderedVarInt.decodeUnsigned($0) } == nil)
    }

    @Test func lengthsAndCountsRoundTripAsLEB128() {
        for value in [0, 1, 127, 128, 16_383, 16_384, 1 << 40, Int.max] {
            var bytes: [UInt8] = []
            VarUInt.append(value, to: &bytes)
            #expect(bytes.count == VarUInt.length(of: value))
            var offset = 0
            #expect(bytes.withUnsafeBytes { VarUInt.read($0, at: &offset) } == value)
            #expect(offset == bytes.count)
            for cut in 0..<bytes.count {
                var start = 0
                #expect(Array(bytes.prefix(cut)).withUnsafeBytes { VarUInt.read($0, at: &start) } == nil)
                #expect(start == 0)
            }
        }
        var offset = 0
        #expect([UInt8](repeating: 0x80, count: 12).withUnsafeBytes { VarUInt.read($0, at: &offset) } == nil)
    }

    @Test func doublesTakeTheShortFormOnlyWhenItIsExact() {
        func field(_ value: Double) -> [UInt8] {
            var bytes: [UInt8] = []
            FieldEncoding.appendDouble(value, to: &bytes)
            return bytes
        }
        #expect(field(0) == [0x09])
        #expect(field(1) == [0x0A])
        #expect(field(-0.0).count == 8)
        #expect(field(0.5).count == 8)
        #expect(field(.nan).count == 8)
        #expect(field(281_474_976_710_655).count == 7)
        #expect(field(281_474_976_710_656).count == 8)
        for value in [0, -0.0, 1, -1, 0.5, 3.2e8, .nan, .infinity, -.infinity, 281_474_976_710_655, 1e300] {
            let decoded = field(value).withUnsafeBytes { FieldDecoding.double($0) }
            #expect(decoded?.bitPattern == value.bitPattern)
        }
    }
}
