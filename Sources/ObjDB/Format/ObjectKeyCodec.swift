import Foundation

/// Encodes an ``ObjectKey`` as the key of its object table, and back.
///
/// Primary keys use ``KeyEncoding`` (tag `0x01`, then the order-preserving
/// value), so a table's cursor order is primary-key order. Internal IDs are 8
/// bytes big-endian with no tag: they only grow, so inserts append
/// (`MDB_APPEND`) at the end of the B-tree.
package enum ObjectKeyCodec {
    /// The table key of `key`.
    package static func encode(_ key: ObjectKey) -> [UInt8] {
        var bytes: [UInt8] = []
        switch key {
        case .int(let value):
            bytes.reserveCapacity(9)
            bytes.append(KeyEncoding.valueTag)
            KeyEncoding.appendInteger(value, to: &bytes)
        case .string(let value):
            bytes.reserveCapacity(value.utf8.count + 1)
            bytes.append(KeyEncoding.valueTag)
            bytes.append(contentsOf: value.utf8)
        case .uuid(let value):
            bytes.append(KeyEncoding.valueTag)
            withUnsafeBytes(of: value.uuid) { bytes.append(contentsOf: $0) }
        case .internalID(let value):
            withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
        }
        return bytes
    }

    /// The key stored as `bytes` in the table of a type whose primary key is of `type` (`nil`: no primary key).
    ///
    /// - Returns: `nil` when the bytes cannot be such a key (a damaged file).
    package static func decode(_ bytes: UnsafeRawBufferPointer, primaryKeyType type: PropertyType?) -> ObjectKey? {
        guard let type else {
            guard bytes.count == 8 else { return nil }
            return .internalID(UInt64(bigEndian: bytes.loadUnaligned(as: UInt64.self)))
        }
        guard bytes.count >= 1, bytes[0] == KeyEncoding.valueTag else { return nil }
        let value = UnsafeRawBufferPointer(rebasing: bytes.dropFirst())
        switch type {
        case .string:
            return .string(String(decoding: value, as: UTF8.self))
        case .uuid:
            guard value.count == 16 else { return nil }
            var uuid = UUID().uuid
            withUnsafeMutableBytes(of: &uuid) { $0.copyMemory(from: value) }
            return .uuid(UUID(uuid: uuid))
        default:
            guard type.isInteger, value.count == 8 else { return nil }
            return .int(KeyEncoding.decodeInteger(value))
        }
    }

    /// The key of an object whose primary-key property holds `value`.
    static func key(fromPrimaryKey value: StoredValue, type: PropertyType) -> ObjectKey? {
        switch (value, type) {
        case (.int(let number), _) where type.isInteger: return .int(number)
        case (.string(let text), .string): return .string(text)
        case (.uuid(let uuid), .uuid): return .uuid(uuid)
        default: return nil
        }
    }
}
