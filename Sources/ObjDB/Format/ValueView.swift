import Foundation

/// One non-nil value as it lies in a record, read without copying: what encoders that write
/// bytes directly (`objdb-inspect`'s JSON, CSV and table output) read instead of a ``StoredValue``.
///
/// Pointers are valid as long as the record they come from.
enum ValueView {
    case bool(Bool)
    case int(Int64)
    case float(Float)
    case double(Double)
    /// Seconds since the reference date (2001-01-01 UTC), exactly as stored.
    case date(Double)
    /// UTF-8.
    case string(UnsafeRawBufferPointer)
    case data(UnsafeRawBufferPointer)
    case uuid(UUID)
    case decimal(Decimal)
    /// A link to an object of `type`, by its table key.
    case link(type: ObjectSchema, key: ObjectKeyView)
    /// An embedded object's record, of `type`.
    case embedded(RecordReader, type: ObjectSchema)
}

/// An object key as its table stores it, read without copying.
enum ObjectKeyView {
    case int(Int64)
    /// UTF-8.
    case string(UnsafeRawBufferPointer)
    case uuid(UUID)
    case internalID(UInt64)
}

extension ObjectKeyCodec {
    /// The key a table of a type whose primary key is of `type` stores as `bytes`; `nil` for a damaged key.
    static func view(_ bytes: UnsafeRawBufferPointer, primaryKeyType type: PropertyType?) -> ObjectKeyView? {
        guard let type else {
            guard bytes.count == 8 else { return nil }
            return .internalID(UInt64(bigEndian: bytes.loadUnaligned(as: UInt64.self)))
        }
        guard bytes.count >= 1, bytes[0] == KeyEncoding.valueTag else { return nil }
        let value = UnsafeRawBufferPointer(rebasing: bytes.dropFirst())
        switch type {
        case .string:
            return .string(value)
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
}

extension ValueCodec {
    /// One non-nil value of `property`'s element type, in place; `nil` when the bytes cannot be one.
    func view(_ bytes: UnsafeRawBufferPointer, as property: PropertySchema) -> ValueView? {
        if let width = property.type.fixedWidth, bytes.count != width { return nil }
        switch property.type {
        case .bool: return .bool(bytes[0] != 0)
        case .int, .int64: return .int(Int64(littleEndian: bytes.loadUnaligned(as: Int64.self)))
        case .int32: return .int(Int64(Int32(littleEndian: bytes.loadUnaligned(as: Int32.self))))
        case .int16: return .int(Int64(Int16(littleEndian: bytes.loadUnaligned(as: Int16.self))))
        case .int8: return .int(Int64(Int8(bitPattern: bytes[0])))
        case .float: return .float(Float(bitPattern: UInt32(littleEndian: bytes.loadUnaligned(as: UInt32.self))))
        case .double: return .double(Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(as: UInt64.self))))
        case .date: return .date(Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(as: UInt64.self))))
        case .string: return .string(bytes)
        case .data: return .data(bytes)
        case .uuid, .decimal:
            switch decodeValue(bytes, as: property) {
            case .uuid(let uuid)?: return .uuid(uuid)
            case .decimal(let decimal)?: return .decimal(decimal)
            default: return nil
            }
        case .object:
            guard let target = property.objectType, let targetSchema = schema[target],
                let key = ObjectKeyCodec.view(bytes, primaryKeyType: targetSchema.primaryKey?.type)
            else { return nil }
            return .link(type: targetSchema, key: key)
        case .embedded:
            guard let embeddedType = property.objectType.flatMap({ schema[$0] }),
                let reader = RecordReader(validating: bytes)
            else { return nil }
            return .embedded(reader, type: embeddedType)
        case .linkingObjects:
            return nil
        }
    }

    /// The number of elements a list or set field holds, without reading them.
    func elementCount(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard bytes.count >= 4 else { return 0 }
        return Int(UInt32(littleEndian: bytes.loadUnaligned(as: UInt32.self)))
    }

    /// Calls `body` with each entry of a map field: the key's UTF-8 and the value's bytes (`nil` for `nil`).
    /// Stops at the first damaged entry.
    func forEachMapEntry(
        _ bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer?) throws -> Void
    ) rethrows {
        guard bytes.count >= 4 else { return }
        let count = Int(UInt32(littleEndian: bytes.loadUnaligned(as: UInt32.self)))
        var offset = 4
        func next() -> (bytes: UnsafeRawBufferPointer, isNull: Bool)? {
            guard offset + 4 <= bytes.count else { return nil }
            let length = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            offset += 4
            if length == 0xFFFF_FFFF { return (UnsafeRawBufferPointer(start: nil, count: 0), true) }
            guard Int(length) <= bytes.count - offset else { return nil }
            defer { offset += Int(length) }
            return (UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + Int(length)]), false)
        }
        for _ in 0..<count {
            guard let key = next(), !key.isNull, let value = next() else { return }
            try body(key.bytes, value.isNull ? nil : value.bytes)
        }
    }

    /// The number of entries a map field holds.
    func entryCount(_ bytes: UnsafeRawBufferPointer) -> Int {
        elementCount(bytes)
    }
}
