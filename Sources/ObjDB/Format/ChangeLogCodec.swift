/// The bytes of `objdb.changes` (FORMAT.md, "objdb.changes"): one entry per commit that changed
/// objects while someone watched, keyed by its transaction ID (unsigned 64-bit big-endian).
///
/// A value is a format byte (``formatVersion``), then per type: the name's length (u16 LE), its
/// UTF-8, a flags byte (bit 0: changed wholesale, no entries), the entry count (u32 LE), the
/// entries' length (u32 LE), and the entries, each `kind u8, key length u16 LE, key,
/// [property count u16 LE, property IDs u16 LE…]` (the property list only for a modification).
package enum ChangeLogCodec {
    /// The layout of a value.
    package static let formatVersion: UInt8 = 1

    /// What happened to one object in one logged write.
    package enum ChangeKind: UInt8 {
        case inserted = 1
        case modified = 2
        case deleted = 3
    }

    /// One type's part of a value, as a reader sees it.
    package struct TypeEntry {
        package var typeName: String
        package var isWholesale: Bool
        package var count: Int
        package var entries: UnsafeRawBufferPointer
    }

    /// The key of version `version`'s entry.
    package static func key(version: UInt64) -> [UInt8] { MetaKeys.encode(version) }

    /// The version an entry's key holds; `nil` for a damaged key.
    package static func version(ofKey key: UnsafeRawBufferPointer) -> UInt64? { MetaKeys.decode(key) }

    /// Appends one object's entry to a type's entries.
    package static func appendEntry(
        _ kind: ChangeKind, key: UnsafeRawBufferPointer, properties: [UInt16], to entries: inout [UInt8]
    ) {
        entries.append(kind.rawValue)
        appendLittleEndian(UInt16(truncatingIfNeeded: key.count), to: &entries)
        entries.append(contentsOf: key)
        if kind == .modified {
            appendLittleEndian(UInt16(truncatingIfNeeded: properties.count), to: &entries)
            for id in properties { appendLittleEndian(id, to: &entries) }
        }
    }

    /// A value holding `types` (name, wholesale, entry count, entries), sorted by name.
    package static func value(_ types: [(name: String, isWholesale: Bool, count: Int, entries: [UInt8])]) -> [UInt8] {
        var bytes: [UInt8] = [formatVersion]
        for type in types.sorted(by: { $0.name < $1.name }) {
            let nameBytes = Array(type.name.utf8)
            appendLittleEndian(UInt16(truncatingIfNeeded: nameBytes.count), to: &bytes)
            bytes.append(contentsOf: nameBytes)
            bytes.append(type.isWholesale ? 1 : 0)
            appendLittleEndian(UInt32(truncatingIfNeeded: type.count), to: &bytes)
            appendLittleEndian(UInt32(truncatingIfNeeded: type.entries.count), to: &bytes)
            bytes.append(contentsOf: type.entries)
        }
        return bytes
    }

    /// Calls `body` with each type's part of `value`; `false` when the value is damaged
    /// (`body` may have been called for the parts before the damage).
    package static func forEachType(in value: UnsafeRawBufferPointer, _ body: (TypeEntry) -> Bool) -> Bool {
        var reader = ByteReader(value)
        guard reader.byte() == formatVersion else { return false }
        while !reader.isAtEnd {
            guard let nameLength = reader.uint16(), let name = reader.bytes(Int(nameLength)),
                let flags = reader.byte(), let count = reader.uint32(), let length = reader.uint32(),
                let entries = reader.bytes(Int(length))
            else { return false }
            let entry = TypeEntry(
                typeName: String(decoding: name, as: UTF8.self), isWholesale: flags & 1 != 0, count: Int(count),
                entries: entries)
            guard body(entry) else { return false }
        }
        return true
    }

    /// Calls `body` with each object entry of a type's entries; `false` when they are damaged.
    package static func forEachEntry(
        in entries: UnsafeRawBufferPointer, count: Int,
        _ body: (ChangeKind, UnsafeRawBufferPointer, [UInt16]) -> Void
    ) -> Bool {
        var reader = ByteReader(entries)
        for _ in 0..<count {
            guard let kindByte = reader.byte(), let kind = ChangeKind(rawValue: kindByte),
                let keyLength = reader.uint16(), let key = reader.bytes(Int(keyLength))
            else { return false }
            var properties: [UInt16] = []
            if kind == .modified {
                guard let propertyCount = reader.uint16() else { return false }
                for _ in 0..<propertyCount {
                    guard let id = reader.uint16() else { return false }
                    properties.append(id)
                }
            }
            body(kind, key, properties)
        }
        return reader.isAtEnd
    }

    private static func appendLittleEndian<Integer: FixedWidthInteger>(_ value: Integer, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
}

/// Reads little-endian fields from bytes, refusing to read past their end.
package struct ByteReader {
    private let bytes: UnsafeRawBufferPointer
    private var offset = 0

    package init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    package var isAtEnd: Bool { offset >= bytes.count }

    package mutating func byte() -> UInt8? {
        guard offset < bytes.count else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    package mutating func uint16() -> UInt16? {
        bytes(2).map { UInt16($0[0]) | UInt16($0[1]) << 8 }
    }

    package mutating func uint32() -> UInt32? {
        bytes(4).map { $0.reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) } }
    }

    package mutating func bytes(_ count: Int) -> UnsafeRawBufferPointer? {
        guard count >= 0, bytes.count - offset >= count else { return nil }
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count])
    }
}
