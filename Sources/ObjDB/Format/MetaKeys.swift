/// The keys of `objdb.meta` and the bytes of their values (FORMAT.md, "objdb.meta").
package enum MetaKeys {
    /// The 16-byte header (``StoreFormat``).
    package static let header = Array("header".utf8)
    /// The stored schema, as JSON.
    package static let schema = Array("schema".utf8)
    /// The app's schema version, unsigned 64-bit big-endian.
    package static let schemaVersion = Array("schemaVersion".utf8)
    /// The version after which the change log is complete, unsigned 64-bit big-endian.
    package static let changesCompleteAfter = Array("changes.from".utf8)

    /// The key of the next internal ID of type `type`, whose value is unsigned 64-bit big-endian.
    package static func sequence(_ type: String) -> [UInt8] { Array("seq.\(type)".utf8) }

    /// An unsigned 64-bit value as these keys store it.
    package static func encode(_ value: UInt64) -> [UInt8] {
        withUnsafeBytes(of: value.bigEndian) { Array($0) }
    }

    /// An unsigned 64-bit value read back; `nil` when the bytes are not one.
    package static func decode(_ bytes: UnsafeRawBufferPointer) -> UInt64? {
        bytes.count == 8 ? UInt64(bigEndian: bytes.loadUnaligned(as: UInt64.self)) : nil
    }
}
