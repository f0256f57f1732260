import Foundation

/// Scalar values read straight from a field's bytes in the map, with no `StoredValue`.
///
/// Each returns `nil` when the bytes are not a value of its type (a damaged field): callers
/// read that as the zero value, as they read an absent field.
enum FieldDecoding {
    /// An integer field of any width: one ``OrderedVarInt``.
    @inline(__always)
    static func integer(_ bytes: UnsafeRawBufferPointer) -> Int64? {
        OrderedVarInt.decode(bytes)
    }

    /// A `Double` field: 8 bytes of IEEE 754, or a shorter ``OrderedVarInt`` for an integral value.
    @inline(__always)
    static func double(_ bytes: UnsafeRawBufferPointer) -> Double? {
        if bytes.count == 8 { return Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(as: UInt64.self))) }
        guard bytes.count < 8, let integer = OrderedVarInt.decode(bytes) else { return nil }
        return Double(integer)
    }

    /// A `Float` field: 4 bytes of IEEE 754.
    @inline(__always)
    static func float(_ bytes: UnsafeRawBufferPointer) -> Float? {
        guard bytes.count == 4 else { return nil }
        return Float(bitPattern: UInt32(littleEndian: bytes.loadUnaligned(as: UInt32.self)))
    }

    /// A `Bool` field: one byte.
    @inline(__always)
    static func bool(_ bytes: UnsafeRawBufferPointer) -> Bool? {
        guard bytes.count == 1 else { return nil }
        return bytes[0] != 0
    }

    /// A `Date` field: seconds since 2001-01-01 as a ``double(_:)``.
    @inline(__always)
    static func date(_ bytes: UnsafeRawBufferPointer) -> Date? {
        guard let seconds = double(bytes) else { return nil }
        return Date(timeIntervalSinceReferenceDate: seconds)
    }

    /// A `UUID` field: its 16 bytes.
    @inline(__always)
    static func uuid(_ bytes: UnsafeRawBufferPointer) -> UUID? {
        guard bytes.count == 16 else { return nil }
        var uuid = UUID().uuid
        withUnsafeMutableBytes(of: &uuid) { $0.copyMemory(from: bytes) }
        return UUID(uuid: uuid)
    }
}

/// How scalar values are written, shared by single fields and collection elements.
enum FieldEncoding {
    /// 2⁴⁸: integral doubles below it in magnitude have an ``OrderedVarInt`` shorter than 8 bytes.
    static let compactDoubleLimit = 281_474_976_710_656.0

    /// Appends a single `Double` field: the ``OrderedVarInt`` of an integral value (not `-0.0`)
    /// below 2⁴⁸ in magnitude, which is shorter than 8 bytes, or else the 8 bytes of IEEE 754
    /// (so `-0.0`, NaN payloads and every other double keep their exact bits).
    @inline(__always)
    static func appendDouble<Sink: ByteSink>(_ value: Double, to sink: inout Sink) {
        if let integer = compactInteger(value) {
            OrderedVarInt.append(integer, to: &sink)
        } else {
            sink.appendLittleEndian(value.bitPattern)
        }
    }

    /// The integer a `Double` field stores in short form, or `nil` when it takes 8 bytes.
    @inline(__always)
    static func compactInteger(_ value: Double) -> Int64? {
        guard value.magnitude < compactDoubleLimit else { return nil }  // false for NaN
        let integer = Int64(value)
        guard Double(integer) == value, integer != 0 || value.sign == .plus else { return nil }
        return integer
    }
}

/// Typed reads of one field, straight from the record: `nil` when the field is absent, `nil`
/// or damaged, which a non-optional property reads as its zero value (`reader.integer(slot) ?? 0`)
/// and an optional one as `nil`, as the `StoredValue` decode does.
extension RecordReader {
    @inline(__always)
    func integer(_ slot: Int) -> Int64? {
        guard let bytes = bytes(slot) else { return nil }
        return FieldDecoding.integer(bytes)
    }

    @inline(__always)
    func double(_ slot: Int) -> Double? {
        guard let bytes = bytes(slot) else { return nil }
        return FieldDecoding.double(bytes)
    }

    @inline(__always)
    func float(_ slot: Int) -> Float? {
        guard let bytes = bytes(slot) else { return nil }
        return FieldDecoding.float(bytes)
    }

    @inline(__always)
    func bool(_ slot: Int) -> Bool? {
        guard let bytes = bytes(slot) else { return nil }
        return FieldDecoding.bool(bytes)
    }

    @inline(__always)
    func date(_ slot: Int) -> Date? {
        guard let bytes = bytes(slot) else { return nil }
        return FieldDecoding.date(bytes)
    }

    @inline(__always)
    func uuid(_ slot: Int) -> UUID? {
        guard let bytes = bytes(slot) else { return nil }
        return FieldDecoding.uuid(bytes)
    }

    /// A `String` field as a new `String` (one copy out of the map); ``bytes(_:)`` gives its UTF-8 in place.
    @inline(__always)
    func string(_ slot: Int) -> String? {
        guard let bytes = bytes(slot) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
