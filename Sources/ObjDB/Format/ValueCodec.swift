import Foundation

/// The bytes of one value inside a record field, a collection element, or a map value.
///
/// | type | bytes |
/// |---|---|
/// | bool | 1: `0` or `1` |
/// | int8, int16, int32, int64, int | 1, 2, 4, 8, 8: two's complement, little-endian |
/// | float, double | 4, 8: IEEE 754, little-endian |
/// | string | UTF-8 |
/// | data | the bytes |
/// | date | 8: `timeIntervalSinceReferenceDate` as a little-endian double |
/// | uuid | 16: the UUID's bytes |
/// | decimal | UTF-8 of its description (`1234.5678`) |
/// | object | the linked object's table key (see ``ObjectKeyCodec``) |
/// | embedded | a nested record (see ``RecordLayout``) of the embedded type |
///
/// Collections (lists and sets): `u32 LE` element count, then the elements:
/// packed end to end when the element type is fixed-width and not optional,
/// otherwise each as `u32 LE` length (`0xFFFF_FFFF` for `nil`) and its bytes.
/// Maps: `u32 LE` entry count, then per entry `u32 LE` key length, the key's
/// UTF-8, and the value as a length-prefixed element. Map keys are sorted.
struct ValueCodec {
    let schema: SchemaIndex

    // MARK: Encoding

    /// Appends the field for `value` of `property` to `writer`.
    func encodeField(
        _ value: StoredValue, of property: PropertySchema, in type: String, into writer: inout RecordWriter
    ) throws {
        let slot = Int(property.id)
        if value.isNull && property.collection == .single {
            guard property.isOptional || property.type == .object else {
                throw ObjDBError.missingValue(type: type, property: property.name)
            }
            writer.setNull(slot)
            return
        }
        writer.beginField(slot)
        switch property.collection {
        case .single:
            try append(value, as: property, in: type, to: &writer.bytes)
        case .list, .set:
            let elements: [StoredValue]
            switch value {
            case .list(let list): elements = property.collection == .set ? distinct(list) : list
            case .null: elements = []
            default: throw mismatch(property, type, value)
            }
            appendUInt32(UInt32(elements.count), to: &writer.bytes)
            let packed = property.type.fixedWidth != nil && !property.isOptional
            for element in elements {
                if packed {
                    try append(element, as: property, in: type, to: &writer.bytes)
                } else {
                    try appendElement(element, as: property, in: type, to: &writer.bytes)
                }
            }
        case .map:
            let entries: [String: StoredValue]
            switch value {
            case .map(let map): entries = map
            case .null: entries = [:]
            default: throw mismatch(property, type, value)
            }
            appendUInt32(UInt32(entries.count), to: &writer.bytes)
            for key in entries.keys.sorted() {
                appendUInt32(UInt32(key.utf8.count), to: &writer.bytes)
                writer.bytes.append(contentsOf: key.utf8)
                try appendElement(entries[key]!, as: property, in: type, to: &writer.bytes)
            }
        }
    }

    private func appendElement(
        _ value: StoredValue, as property: PropertySchema, in type: String, to bytes: inout [UInt8]
    ) throws {
        if value.isNull {
            guard property.isOptional else { throw ObjDBError.missingValue(type: type, property: property.name) }
            appendUInt32(0xFFFF_FFFF, to: &bytes)
            return
        }
        var element: [UInt8] = []
        try append(value, as: property, in: type, to: &element)
        appendUInt32(UInt32(element.count), to: &bytes)
        bytes.append(contentsOf: element)
    }

    /// Appends one non-nil value of `property`'s element type.
    private func append(
        _ value: StoredValue, as property: PropertySchema, in type: String, to bytes: inout [UInt8]
    ) throws {
        switch (property.type, value) {
        case (.bool, .bool(let flag)):
            bytes.append(flag ? 1 : 0)
        case (.int, .int(let number)), (.int64, .int(let number)):
            appendLittleEndian(number, to: &bytes)
        case (.int32, .int(let number)):
            guard let narrow = Int32(exactly: number) else { throw outOfRange(property, type, value) }
            appendLittleEndian(narrow, to: &bytes)
        case (.int16, .int(let number)):
            guard let narrow = Int16(exactly: number) else { throw outOfRange(property, type, value) }
            appendLittleEndian(narrow, to: &bytes)
        case (.int8, .int(let number)):
            guard let narrow = Int8(exactly: number) else { throw outOfRange(property, type, value) }
            appendLittleEndian(narrow, to: &bytes)
        case (.float, .float(let number)):
            appendLittleEndian(number.bitPattern, to: &bytes)
        case (.float, .double(let number)):
            appendLittleEndian(Float(number).bitPattern, to: &bytes)
        case (.float, .int(let number)):
            appendLittleEndian(Float(number).bitPattern, to: &bytes)
        case (.double, .double(let number)):
            appendLittleEndian(number.bitPattern, to: &bytes)
        case (.double, .float(let number)):
            appendLittleEndian(Double(number).bitPattern, to: &bytes)
        case (.double, .int(let number)):
            appendLittleEndian(Double(number).bitPattern, to: &bytes)
        case (.string, .string(let text)):
            bytes.append(contentsOf: text.utf8)
        case (.data, .data(let data)):
            bytes.append(contentsOf: data)
        case (.date, .date(let date)):
            appendLittleEndian(date.timeIntervalSinceReferenceDate.bitPattern, to: &bytes)
        case (.uuid, .uuid(let uuid)):
            withUnsafeBytes(of: uuid.uuid) { bytes.append(contentsOf: $0) }
        case (.decimal, .decimal(let decimal)):
            bytes.append(contentsOf: decimal.description.utf8)
        case (.decimal, .int(let number)):
            bytes.append(contentsOf: Decimal(number).description.utf8)
        case (.object, .link(let target, let key)):
            guard target == property.objectType else { throw mismatch(property, type, value) }
            bytes.append(contentsOf: ObjectKeyCodec.encode(key))
        case (.embedded, .embedded(let values)):
            guard let embeddedType = property.objectType.flatMap({ schema[$0] }) else {
                throw ObjDBError.unknownType(property.objectType ?? "?")
            }
            bytes.append(contentsOf: try RecordCodec(schema: schema).encode(named: values, as: embeddedType))
        default:
            throw mismatch(property, type, value)
        }
    }

    /// `value` as it will be stored for `property`: numbers converted to the property's
    /// type, so index keys and change detection see what the record holds.
    func canonical(_ value: StoredValue, for property: PropertySchema) -> StoredValue {
        switch value {
        case .list(let elements) where property.collection != .single:
            return .list(elements.map { canonicalScalar($0, property.type) })
        case .map(let entries) where property.collection == .map:
            return .map(entries.mapValues { canonicalScalar($0, property.type) })
        default:
            return property.collection == .single ? canonicalScalar(value, property.type) : value
        }
    }

    private func canonicalScalar(_ value: StoredValue, _ type: PropertyType) -> StoredValue {
        switch (type, value) {
        case (.double, .int(let number)): return .double(Double(number))
        case (.double, .float(let number)): return .double(Double(number))
        case (.float, .int(let number)): return .float(Float(number))
        case (.float, .double(let number)): return .float(Float(number))
        case (.decimal, .int(let number)): return .decimal(Decimal(number))
        default: return value
        }
    }

    // MARK: Decoding

    /// The stored value of `field` for `property` (absent fields read as the type's zero value).
    func decodeField(_ field: RecordField, of property: PropertySchema) -> StoredValue {
        switch field {
        case .absent:
            return zeroValue(of: property)
        case .null:
            return property.collection == .single ? .null : zeroValue(of: property)
        case .bytes(let bytes):
            switch property.collection {
            case .single:
                return decodeValue(bytes, as: property) ?? zeroValue(of: property)
            case .list, .set:
                return .list(decodeElements(bytes, as: property))
            case .map:
                return .map(decodeMap(bytes, as: property))
            }
        }
    }

    /// The value a property reads as when its record holds none.
    func zeroValue(of property: PropertySchema) -> StoredValue {
        switch property.collection {
        case .list, .set: return .list([])
        case .map: return .map([:])
        case .single: break
        }
        if property.isOptional || property.type == .object || property.type == .embedded { return .null }
        switch property.type {
        case .bool: return .bool(false)
        case .int, .int8, .int16, .int32, .int64: return .int(0)
        case .float: return .float(0)
        case .double: return .double(0)
        case .string: return .string("")
        case .data: return .data(Data())
        case .date: return .date(Date(timeIntervalSinceReferenceDate: 0))
        case .uuid: return .uuid(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
        case .decimal: return .decimal(0)
        case .object, .embedded, .linkingObjects: return .null
        }
    }

    /// Decodes one value of `property`'s element type; `nil` when the bytes cannot be one.
    func decodeValue(_ bytes: UnsafeRawBufferPointer, as property: PropertySchema) -> StoredValue? {
        if let width = property.type.fixedWidth, bytes.count != width { return nil }
        switch property.type {
        case .bool: return .bool(bytes[0] != 0)
        case .int, .int64: return .int(Int64(littleEndian: bytes.loadUnaligned(as: Int64.self)))
        case .int32: return .int(Int64(Int32(littleEndian: bytes.loadUnaligned(as: Int32.self))))
        case .int16: return .int(Int64(Int16(littleEndian: bytes.loadUnaligned(as: Int16.self))))
        case .int8: return .int(Int64(Int8(bitPattern: bytes[0])))
        case .float: return .float(Float(bitPattern: UInt32(littleEndian: bytes.loadUnaligned(as: UInt32.self))))
        case .double: return .double(Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(as: UInt64.self))))
        case .string: return .string(String(decoding: bytes, as: UTF8.self))
        case .data: return .data(Data(bytes))
        case .date:
            let seconds = Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(as: UInt64.self)))
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case .uuid:
            var uuid = UUID().uuid
            withUnsafeMutableBytes(of: &uuid) { $0.copyMemory(from: bytes) }
            return .uuid(UUID(uuid: uuid))
        case .decimal:
            return Decimal(string: String(decoding: bytes, as: UTF8.self), locale: Locale(identifier: "en_US_POSIX"))
                .map(StoredValue.decimal)
        case .object:
            guard let target = property.objectType, let targetSchema = schema[target],
                let key = ObjectKeyCodec.decode(bytes, primaryKeyType: targetSchema.primaryKey?.type)
            else { return nil }
            return .link(type: target, key: key)
        case .embedded:
            guard let embeddedType = property.objectType.flatMap({ schema[$0] }),
                let reader = RecordReader(validating: bytes)
            else { return nil }
            return .embedded(RecordCodec(schema: schema).decodeNamed(reader, as: embeddedType))
        case .linkingObjects:
            return nil
        }
    }

    /// The elements of a list or set field; stops at the first damaged element.
    func decodeElements(_ bytes: UnsafeRawBufferPointer, as property: PropertySchema) -> [StoredValue] {
        var elements: [StoredValue] = []
        forEachElement(bytes, as: property) { element in
            if let element {
                if let value = decodeValue(element, as: property) { elements.append(value) }
            } else {
                elements.append(.null)
            }
        }
        return elements
    }

    /// Calls `body` with each element's bytes (`nil` for a `nil` element) of a list or set field.
    func forEachElement(
        _ bytes: UnsafeRawBufferPointer, as property: PropertySchema, _ body: (UnsafeRawBufferPointer?) -> Void
    ) {
        guard bytes.count >= 4 else { return }
        let count = Int(UInt32(littleEndian: bytes.loadUnaligned(as: UInt32.self)))
        var offset = 4
        if let width = property.type.fixedWidth, !property.isOptional {
            guard count <= (bytes.count - 4) / width else { return }
            for _ in 0..<count {
                body(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + width]))
                offset += width
            }
            return
        }
        for _ in 0..<count {
            guard let element = readLengthPrefixed(bytes, at: &offset) else { return }
            body(element.isNull ? nil : element.bytes)
        }
    }

    /// The entries of a map field; stops at the first damaged entry.
    func decodeMap(_ bytes: UnsafeRawBufferPointer, as property: PropertySchema) -> [String: StoredValue] {
        guard bytes.count >= 4 else { return [:] }
        let count = Int(UInt32(littleEndian: bytes.loadUnaligned(as: UInt32.self)))
        var offset = 4
        var entries: [String: StoredValue] = [:]
        for _ in 0..<count {
            guard let key = readLengthPrefixed(bytes, at: &offset), !key.isNull,
                let value = readLengthPrefixed(bytes, at: &offset)
            else { break }
            let name = String(decoding: key.bytes, as: UTF8.self)
            entries[name] = value.isNull ? .null : decodeValue(value.bytes, as: property) ?? .null
        }
        return entries
    }

    private func readLengthPrefixed(
        _ bytes: UnsafeRawBufferPointer, at offset: inout Int
    ) -> (bytes: UnsafeRawBufferPointer, isNull: Bool)? {
        guard offset + 4 <= bytes.count else { return nil }
        let length = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
        offset += 4
        if length == 0xFFFF_FFFF { return (UnsafeRawBufferPointer(start: nil, count: 0), true) }
        guard Int(length) <= bytes.count - offset else { return nil }
        defer { offset += Int(length) }
        return (UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + Int(length)]), false)
    }

    // MARK: Helpers

    private func distinct(_ values: [StoredValue]) -> [StoredValue] {
        var seen = Set<StoredValue>()
        return values.filter { seen.insert($0).inserted }
    }

    private func mismatch(_ property: PropertySchema, _ type: String, _ value: StoredValue) -> ObjDBError {
        .typeMismatch(type: type, property: property.name, expected: property.typeDescription, found: value.kindName)
    }

    private func outOfRange(_ property: PropertySchema, _ type: String, _ value: StoredValue) -> ObjDBError {
        .typeMismatch(
            type: type, property: property.name, expected: property.typeDescription,
            found: "\(value.kindName) out of range")
    }
}

@inline(__always)
func appendUInt32(_ value: UInt32, to bytes: inout [UInt8]) {
    withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
}

@inline(__always)
func appendLittleEndian<Integer: FixedWidthInteger>(_ value: Integer, to bytes: inout [UInt8]) {
    withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
}

extension StoredValue {
    /// The kind of value, for messages: `Int`, `String`, `link to User`, ….
    var kindName: String {
        switch self {
        case .null: return "nil"
        case .bool: return "Bool"
        case .int: return "Int"
        case .float: return "Float"
        case .double: return "Double"
        case .string: return "String"
        case .data: return "Data"
        case .date: return "Date"
        case .uuid: return "UUID"
        case .decimal: return "Decimal"
        case .link(let type, _): return "link to \(type)"
        case .embedded: return "embedded object"
        case .list: return "list"
        case .map: return "map"
        }
    }
}
