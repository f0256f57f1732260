import Foundation

/// One non-nil value as it lies in a record, read without copying: what encoders that write
/// bytes directly (`objdb-inspect`'s JSON, CSV and table output) read instead of a ``StoredValue``.
///
/// Pointers are valid as long as the record they come from.
package enum ValueView {
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
package enum ObjectKeyView {
    case int(Int64)
    /// UTF-8.
    case string(UnsafeRawBufferPointer)
    case uuid(UUID)
    case internalID(UInt64)
}

extension ObjectKeyCodec {
    /// The key a table of a type whose primary key is of `type` stores as `bytes`; `nil` for a damaged key.
    package static func view(_ bytes: UnsafeRawBufferPointer, primaryKeyType type: PropertyType?) -> ObjectKeyView? {
        // Mirrors decode(_:primaryKeyType:), without a String for a string key.
        guard let type else { return OrderedVarInt.decodeUnsigned(bytes).map(ObjectKeyView.internalID) }
        if type.isInteger { return OrderedVarInt.decode(bytes).map(ObjectKeyView.int) }
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
            return nil
        }
    }
}

extension ValueCodec {
    /// One non-nil value of `property`'s element type, in place; `nil` when the bytes cannot be one.
    /// Mirrors ``decodeValue(_:as:)``, without building a `StoredValue`.
    package func view(_ bytes: UnsafeRawBufferPointer, as property: PropertySchema) -> ValueView? {
        switch property.type {
        case .bool: return FieldDecoding.bool(bytes).map(ValueView.bool)
        case .int, .int64: return FieldDecoding.integer(bytes).map(ValueView.int)
        case .int32: return FieldDecoding.integer(bytes).flatMap { Int32(exactly: $0) == nil ? nil : .int($0) }
        case .int16: return FieldDecoding.integer(bytes).flatMap { Int16(exactly: $0) == nil ? nil : .int($0) }
        case .int8: return FieldDecoding.integer(bytes).flatMap { Int8(exactly: $0) == nil ? nil : .int($0) }
        case .float: return FieldDecoding.float(bytes).map(ValueView.float)
        case .double: return FieldDecoding.double(bytes).map(ValueView.double)
        case .date: return FieldDecoding.double(bytes).map(ValueView.date)
        case .string: return .string(bytes)
        case .data: return .data(bytes)
        case .uuid: return FieldDecoding.uuid(bytes).map(ValueView.uuid)
        case .decimal:
            guard case .decimal(let decimal)? = decodeValue(bytes, as: property) else { return nil }
            return .decimal(decimal)
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

    /// Calls `body` with each entry of a map field: the key's UTF-8 and the value's bytes (`nil` for
    /// `nil`). Stops at the first damaged entry. Mirrors ``decodeMap(_:as:)``.
    package func forEachMapEntry(
        _ bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer?) throws -> Void
    ) rethrows {
        var offset = 0
        guard !bytes.isEmpty, let count = VarUInt.read(bytes, at: &offset) else { return }
        for _ in 0..<count {
            guard let keyLength = VarUInt.read(bytes, at: &offset), keyLength <= bytes.count - offset else { return }
            let key = UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + keyLength])
            offset += keyLength
            // A value: a VarUInt of its length plus one (0 for nil), then its bytes.
            guard let prefix = VarUInt.read(bytes, at: &offset) else { return }
            if prefix == 0 {
                try body(key, nil)
                continue
            }
            guard prefix - 1 <= bytes.count - offset else { return }
            try body(key, UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + prefix - 1]))
            offset += prefix - 1
        }
    }
}
