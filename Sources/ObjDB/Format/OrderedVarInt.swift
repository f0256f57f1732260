/// A variable-length encoding of signed 64-bit integers whose bytes sort (bytewise, as LMDB
/// compares keys) in the order of the values, and which knows its own length from its first byte.
///
/// It is how integers are stored everywhere in format 2: integer fields and list elements,
/// integer primary keys and internal IDs (the table key *is* this encoding), and index keys
/// (after the `01` value tag). Small values take one byte, the tweets' IDs four.
///
/// | first byte | length | value |
/// |---|---|---|
/// | `01`…`08` | 1 + *n*, *n* = 9 − first byte (8…1) | negative: the *n*-byte big-endian payload − 256ⁿ |
/// | `09`…`BF` | 1 | first byte − 9: 0 … 182 |
/// | `C0`…`EF` | 2 | 183 + (first byte − `C0`) × 256 + second byte: 183 … 12,470 |
/// | `F0`…`F6` | 1 + *n*, *n* = first byte − `EE` (2…8) | 12,471 + the *n*-byte big-endian payload |
/// | `00`, `F7`…`FF` | | not an integer (`00` is the `nil` key tag) |
///
/// Every value has exactly one encoding, the shortest: a reader refuses longer ones, so equal
/// values always have equal bytes (index lookups and change detection compare bytes).
/// A negative *n*-byte payload is the low *n* bytes of the value's two's complement.
///
/// The same code table holds every `UInt64` (``appendUnsigned(_:to:)``): internal IDs are
/// unsigned, and agree with the signed encoding on the values both hold.
enum OrderedVarInt {
    /// The longest encoding, in bytes.
    static let maximumLength = 9

    static let firstNegative: UInt8 = 0x01
    static let firstSmall: UInt8 = 0x09
    static let firstTwoByte: UInt8 = 0xC0
    static let firstLong: UInt8 = 0xF0
    static let lastLong: UInt8 = 0xF6
    /// The largest one-byte value, and the largest two-byte one.
    static let smallLimit: UInt64 = 182
    static let twoByteLimit: UInt64 = 12_470

    /// The encoded length of `value`.
    @inline(__always)
    static func length(of value: Int64) -> Int {
        if value >= 0 { return length(ofUnsigned: UInt64(value)) }
        return 1 + payloadLength(~UInt64(bitPattern: value))
    }

    /// The encoded length of the unsigned `value`.
    @inline(__always)
    static func length(ofUnsigned value: UInt64) -> Int {
        if value <= smallLimit { return 1 }
        if value <= twoByteLimit { return 2 }
        return 1 + max(2, payloadLength(value - twoByteLimit - 1))
    }

    /// The length of the encoding that starts with `first`, or 0 when no encoding starts so.
    @inline(__always)
    static func length(startingWith first: UInt8) -> Int {
        switch first {
        case firstSmall..<firstTwoByte: return 1
        case firstTwoByte..<firstLong: return 2
        case firstNegative..<firstSmall: return 1 + Int(9 - first)
        case firstLong...lastLong: return 1 + Int(first - 0xEE)
        default: return 0
        }
    }

    /// Appends the encoding of `value` to `sink`.
    @inline(__always)
    static func append<Sink: ByteSink>(_ value: Int64, to sink: inout Sink) {
        if value >= 0 {
            appendUnsigned(UInt64(value), to: &sink)
            return
        }
        let count = payloadLength(~UInt64(bitPattern: value))
        sink.append(UInt8(9 - count))
        appendBigEndian(UInt64(bitPattern: value), count: count, to: &sink)
    }

    /// Appends the encoding of the unsigned `value` to `sink`.
    @inline(__always)
    static func appendUnsigned<Sink: ByteSink>(_ value: UInt64, to sink: inout Sink) {
        if value <= smallLimit {
            sink.append(firstSmall + UInt8(value))
        } else if value <= twoByteLimit {
            let offset = value - smallLimit - 1
            sink.append(firstTwoByte + UInt8(offset >> 8))
            sink.append(UInt8(truncatingIfNeeded: offset))
        } else {
            let payload = value - twoByteLimit - 1
            let count = max(2, payloadLength(payload))
            sink.append(UInt8(0xEE + count))
            appendBigEndian(payload, count: count, to: &sink)
        }
    }

    /// The integer `bytes` encode, which must be exactly one shortest encoding; `nil` otherwise.
    @inline(__always)
    static func decode(_ bytes: UnsafeRawBufferPointer) -> Int64? {
        guard !bytes.isEmpty else { return nil }
        let first = bytes[0]
        if first >= firstSmall && first < firstTwoByte {
            return bytes.count == 1 ? Int64(first - firstSmall) : nil
        }
        guard first >= firstNegative && first < firstSmall else {
            guard let unsigned = decodeUnsigned(bytes), unsigned <= UInt64(Int64.max) else { return nil }
            return Int64(unsigned)
        }
        let count = Int(9 - first)
        guard bytes.count == 1 + count else { return nil }
        let payload = loadBigEndian(bytes, from: 1, count: count)
        // Sign-extend: the payload is the low bytes of a negative two's complement.
        let value = count == 8 ? payload : payload | (~0 << (8 * UInt64(count)))
        // Shortest: with one byte fewer the value would not fit (and it must be negative).
        guard Int64(bitPattern: value) < 0, count == payloadLength(~value) else { return nil }
        return Int64(bitPattern: value)
    }

    /// The unsigned integer `bytes` encode (a non-negative encoding); `nil` otherwise.
    @inline(__always)
    static func decodeUnsigned(_ bytes: UnsafeRawBufferPointer) -> UInt64? {
        guard !bytes.isEmpty else { return nil }
        let first = bytes[0]
        switch first {
        case firstSmall..<firstTwoByte:
            return bytes.count == 1 ? UInt64(first - firstSmall) : nil
        case firstTwoByte..<firstLong:
            guard bytes.count == 2 else { return nil }
            return smallLimit + 1 + UInt64(first - firstTwoByte) << 8 + UInt64(bytes[1])
        case firstLong...lastLong:
            let count = Int(first - 0xEE)
            guard bytes.count == 1 + count else { return nil }
            let payload = loadBigEndian(bytes, from: 1, count: count)
            guard count == max(2, payloadLength(payload)), payload <= UInt64.max - twoByteLimit - 1 else {
                return nil
            }
            return payload + twoByteLimit + 1
        default:
            return nil
        }
    }

    /// The bytes needed for `value` in big-endian without leading zeros (at least 1).
    @inline(__always)
    static func payloadLength(_ value: UInt64) -> Int {
        max(1, (64 - value.leadingZeroBitCount + 7) / 8)
    }

    @inline(__always)
    private static func appendBigEndian<Sink: ByteSink>(_ value: UInt64, count: Int, to sink: inout Sink) {
        var shift = 8 * (count - 1)
        while shift >= 0 {
            sink.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
            shift -= 8
        }
    }

    @inline(__always)
    private static func loadBigEndian(_ bytes: UnsafeRawBufferPointer, from start: Int, count: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in start..<start + count { value = value << 8 | UInt64(bytes[index]) }
        return value
    }
}

/// Unsigned LEB128: seven bits per byte, low bits first, the high bit set on every byte but the
/// last. Format 2 stores counts and lengths this way (slot counts, element counts, element and
/// map-key lengths): they are small, and nothing compares them as bytes.
enum VarUInt {
    /// The longest encoding of a value a reader accepts (up to 2⁶³ − 1).
    static let maximumLength = 9

    /// The encoded length of `value`.
    @inline(__always)
    static func length(of value: Int) -> Int {
        max(1, (64 - UInt64(value).leadingZeroBitCount + 6) / 7)
    }

    /// Appends the encoding of `value` (not negative) to `sink`.
    @inline(__always)
    static func append<Sink: ByteSink>(_ value: Int, to sink: inout Sink) {
        precondition(value >= 0, "VarUInt encodes counts and lengths, which are not negative")
        var rest = UInt64(value)
        while rest >= 0x80 {
            sink.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        sink.append(UInt8(rest))
    }

    /// Reads an encoding at `offset` in `bytes` and moves `offset` past it; `nil` (with `offset`
    /// unchanged) when it runs past the end, or is longer than ``maximumLength``.
    @inline(__always)
    static func read(_ bytes: UnsafeRawBufferPointer, at offset: inout Int) -> Int? {
        var value = 0
        var shift = 0
        var position = offset
        while position < bytes.count, shift < 7 * maximumLength {
            let byte = bytes[position]
            value |= Int(byte & 0x7F) << shift
            position += 1
            if byte < 0x80 {
                offset = position
                return value
            }
            shift += 7
        }
        return nil
    }
}
