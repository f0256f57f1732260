import Foundation

/// Order-preserving encodings of values into LMDB keys.
///
/// LMDB orders keys bytewise (`memcmp`, then length), so each encoding is chosen
/// so that byte order equals value order. Every key starts with a tag byte:
/// `0x00` for `nil`, `0x01` for a value, so `nil` sorts first and no key is
/// empty (LMDB rejects empty keys). After the tag:
///
/// | type | bytes |
/// |---|---|
/// | Bool | 1: `0` or `1` |
/// | Int, Int8…Int64 | an ``OrderedVarInt``: 1 to 9 bytes, sorting by value |
/// | Float, Double | 8: IEEE 754 double (Float widened); sign bit flipped for positives, all bits flipped for negatives; `-0.0` stored as `+0.0`; every NaN stored as 8 zero bytes, below `-infinity` |
/// | Date | as Double, of seconds since 2001-01-01 (`timeIntervalSinceReferenceDate`) |
/// | String | UTF-8 bytes (order of Unicode scalars) |
/// | Data | the bytes |
/// | UUID | the 16 bytes |
///
/// Integers of every width share one encoding, so an `Int8` property and an
/// `Int64` literal compare by value.
package enum KeyEncoding {
    /// The tag of a `nil` key.
    package static let nilTag: UInt8 = 0x00
    /// The tag of a non-`nil` key.
    package static let valueTag: UInt8 = 0x01

    /// Appends the order-preserving encoding of `value` (without tag) to `key`: its ``OrderedVarInt``.
    package static func appendInteger(_ value: Int64, to key: inout [UInt8]) {
        OrderedVarInt.append(value, to: &key)
    }

    /// The integer an ``appendInteger(_:to:)`` encoding holds; `nil` when `bytes` are not exactly one.
    package static func decodeInteger(_ bytes: UnsafeRawBufferPointer) -> Int64? {
        OrderedVarInt.decode(bytes)
    }

    /// Appends the order-preserving encoding of `value` (without tag) to `key`.
    @inlinable
    package static func appendDouble(_ value: Double, to key: inout [UInt8]) {
        let ordered: UInt64
        if value.isNaN {
            ordered = 0
        } else {
            let bits = (value == 0 ? 0.0 : value).bitPattern
            ordered = bits & (1 << 63) != 0 ? ~bits : bits | (1 << 63)
        }
        withUnsafeBytes(of: ordered.bigEndian) { key.append(contentsOf: $0) }
    }

    /// The double an ``appendDouble(_:to:)`` encoding holds (`-0.0` comes back as `+0.0`, NaN as `.nan`).
    @inlinable
    package static func decodeDouble(_ bytes: UnsafeRawBufferPointer) -> Double {
        guard bytes.count >= 8 else { return .nan }
        let ordered = UInt64(bigEndian: bytes.loadUnaligned(as: UInt64.self))
        if ordered == 0 { return .nan }
        let bits = ordered & (1 << 63) != 0 ? ordered & ~(1 << 63) : ~ordered
        return Double(bitPattern: bits)
    }
}
