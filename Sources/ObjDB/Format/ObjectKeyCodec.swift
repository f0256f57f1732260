import Foundation

/// Encodes an ``ObjectKey`` as the key of its object table, and back.
///
/// | key | bytes |
/// |---|---|
/// | integer primary key | its ``OrderedVarInt`` (1 to 9 bytes), no tag |
/// | internal ID | its unsigned ``OrderedVarInt``, no tag |
/// | `String` primary key | `01`, then the UTF-8 |
/// | `UUID` primary key | `01`, then the 16 bytes |
///
/// Primary keys sort as values (``KeyEncoding``), so a table's cursor order is primary-key
/// order. Internal IDs only grow, so inserts append (`MDB_APPEND`) at the end of the B-tree.
/// An integer key is the same bytes as an integer field holding that value.
package enum ObjectKeyCodec {
    /// The table key of `key`.
    package static func encode(_ key: ObjectKey) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(encodedSize(key))
        append(key, to: &bytes)
        return bytes
    }

    /// Replaces `bytes` with the table key of `key`, keeping its capacity: a buffer reused for
    /// every row allocates nothing after the first.
    package static func encode(_ key: ObjectKey, into bytes: inout [UInt8]) {
        bytes.removeAll(keepingCapacity: true)
        append(key, to: &bytes)
    }

    /// Calls `body` with the table key of `key` in temporary memory (on the stack for any key
    /// but a long string): no allocation.
    package static func withEncoded<Result>(
        _ key: ObjectKey, _ body: (UnsafeRawBufferPointer) throws -> Result
    ) rethrows -> Result {
        let size = encodedSize(key)
        return try withUnsafeTemporaryAllocation(byteCount: size, alignment: 1) { buffer in
            var sink = BufferSink(buffer)
            append(key, to: &sink)
            return try body(UnsafeRawBufferPointer(buffer))
        }
    }

    /// The size of the table key of `key`.
    package static func encodedSize(_ key: ObjectKey) -> Int {
        switch key {
        case .int(let value): return OrderedVarInt.length(of: value)
        case .string(let value): return 1 + value.utf8.count
        case .uuid: return 17
        case .internalID(let value): return OrderedVarInt.length(ofUnsigned: value)
        }
    }

    /// Appends the table key of `key` to `sink`.
    @inline(__always)
    static func append<Sink: ByteSink>(_ key: ObjectKey, to sink: inout Sink) {
        switch key {
        case .int(let value):
            OrderedVarInt.append(value, to: &sink)
        case .string(let value):
            sink.append(KeyEncoding.valueTag)
            sink.appendUTF8(value)
        case .uuid(let value):
            sink.append(KeyEncoding.valueTag)
            withUnsafeBytes(of: value.uuid) { sink.append($0) }
        case .internalID(let value):
            OrderedVarInt.appendUnsigned(value, to: &sink)
        }
    }

    /// The key stored as `bytes` in the table of a type whose primary key is of `type` (`nil`: no primary key).
    ///
    /// - Returns: `nil` when the bytes cannot be such a key (a damaged file).
    package static func decode(_ bytes: UnsafeRawBufferPointer, primaryKeyType type: PropertyType?) -> ObjectKey? {
        guard let type else {
            return OrderedVarInt.decodeUnsigned(bytes).map(ObjectKey.internalID)
        }
        if type.isInteger {
            return OrderedVarInt.decode(bytes).map(ObjectKey.int)
        }
        guard bytes.count >= 1, bytes[0] == KeyEncoding.valueTag else { return nil }
        let value = UnsafeRawBufferPointer(rebasing: bytes[1...])
        switch type {
        case .string:
            return .string(String(decoding: value, as: UTF8.self))
        case .uuid:
            guard value.count == 16 else { return nil }
            var uuid = UUID().uuid
            withUnsafeMutableBytes(of: &uuid) { $0.copyMemory(from: value) }
            return .uuid(UUID(uuid: uuid))
        default:
            return nil
        }
    }

    /// The key of an object whose primary-key property holds `value`.
    package static func key(fromPrimaryKey value: StoredValue, type: PropertyType) -> ObjectKey? {
        switch (value, type) {
        case (.int(let number), _) where type.isInteger: return .int(number)
        case (.string(let text), .string): return .string(text)
        case (.uuid(let uuid), .uuid): return .uuid(uuid)
        default: return nil
        }
    }
}
