/// The entries of `objdb.backlinks` (FORMAT.md, "objdb.backlinks"): for each link, the target's
/// key → the source, in an `MDB_DUPSORT` database, so a target's incoming links are one cursor walk.
///
/// | part | bytes |
/// |---|---|
/// | key | target type name's length (1 byte), its UTF-8, the target's table key |
/// | value | source type name's length (1 byte), its UTF-8, the link property's ID (2 bytes, big-endian), the source's table key |
package enum BacklinkCodec {
    /// One incoming link, decoded from a value.
    package struct Source: Equatable {
        /// The linking object's type.
        package var typeName: String
        /// The ID of the property that links.
        package var propertyID: UInt16
        /// The linking object's table key.
        package var key: [UInt8]
    }

    /// The key under which the incoming links of the object `key` of type `type` are kept.
    package static func targetKey(type: String, key: some Collection<UInt8>) -> [UInt8] {
        var bytes = prefixed(type)
        bytes.append(contentsOf: key)
        return bytes
    }

    /// The value recording that `sourceKey` of `sourceType` links through `propertyID`.
    package static func sourceValue(type sourceType: String, propertyID: UInt16, key sourceKey: some Collection<UInt8>)
        -> [UInt8]
    {
        var bytes = prefixed(sourceType)
        bytes.append(UInt8(propertyID >> 8))
        bytes.append(UInt8(propertyID & 0xFF))
        bytes.append(contentsOf: sourceKey)
        return bytes
    }

    /// The source a value records; `nil` for a damaged one.
    package static func source(_ value: UnsafeRawBufferPointer) -> Source? {
        guard let nameLength = value.first.map(Int.init), value.count >= 1 + nameLength + 2 else { return nil }
        let name = String(decoding: value[1..<1 + nameLength], as: UTF8.self)
        let propertyID = UInt16(value[1 + nameLength]) << 8 | UInt16(value[2 + nameLength])
        return Source(typeName: name, propertyID: propertyID, key: Array(value[(3 + nameLength)...]))
    }

    private static func prefixed(_ name: String) -> [UInt8] {
        [UInt8(truncatingIfNeeded: name.utf8.count)] + Array(name.utf8)
    }
}
