import Foundation

/// The bytes of one value inside a record field, a collection element, or a map value (format 2).
///
/// | type | bytes |
/// |---|---|
/// | bool | 1: `0` or `1` |
/// | int8, int16, int32, int64, int | an ``OrderedVarInt``: 1 to 9 bytes |
/// | float | 4: IEEE 754, little-endian |
/// | double, date | an ``OrderedVarInt`` shorter than 8 bytes for an integral value below 2⁴⁸ in magnitude (not `-0.0`), else 8: IEEE 754, little-endian; always 8 in a packed list. A date is `timeIntervalSinceReferenceDate` |
/// | string | UTF-8 |
/// | data | the bytes |
/// | uuid | 16: the UUID's bytes |
/// | decimal | UTF-8 of its description (`1234.5678`) |
/// | object | the linked object's table key (see ``ObjectKeyCodec``) |
/// | embedded | a nested record (see ``RecordLayout``) of the embedded type |
///
/// Collections (lists and sets): nothing at all when empty, else a ``VarUInt`` element count,
/// then the elements: **packed** end to end when the element type is not optional and is an
/// integer (each ``OrderedVarInt`` knows its length) or fixed-width (bool 1, float 4, double
/// and date 8, uuid 16); otherwise **length-prefixed**, each as a ``VarUInt`` of its length
/// plus one (`0` for `nil`) and its bytes. Maps: nothing when empty, else a ``VarUInt`` entry
/// count, then per entry in ascending key order the key's UTF-8 length (``VarUInt``), the key,
/// and the value length-prefixed.
package struct ValueCodec {
    let schema: SchemaIndex

    package init(schema: SchemaIndex) {
        self.schema = schema
    }

    // MARK: Encoding

    /// Writes the field for `value` of `property` to `sink` (a ``RecordWriter``, a ``RecordSize``
    /// measuring it, or a ``RecordEncoder`` writing it in place).
    func encodeField<Sink: FieldSink>(
        _ value: StoredValue, of property: PropertySchema, in type: String, into sink: inout Sink
    ) throws {
        let slot = Int(property.id)
        if value.isNull && property.collection == .single {
            guard property.isOptional || property.type == .object else {
                throw ObjDBError.missingValue(type: type, property: property.name)
            }
            sink.setNull(slot)
            return
        }
        sink.beginField(slot)
        switch property.collection {
        case .single:
            try append(value, as: property, in: type, packed: false, to: &sink)
        case .list, .set:
            let elements: [StoredValue]
            switch value {
            case .list(let list): elements = property.collection == .set ? distinct(list) : list
            case .null: elements = []
            default: throw mismatch(property, type, value)
            }
            guard !elements.isEmpty else { return }
            VarUInt.append(elements.count, to: &sink)
            let packed = Self.isPacked(property)
            for element in elements {
                if packed {
                    try append(element, as: property, in: type, packed: true, to: &sink)
                } else {
                    try appendLengthPrefixed(element, as: property, in: type, to: &sink)
                }
            }
        case .map:
            let entries: [String: StoredValue]
            switch value {
            case .map(let map): entries = map
            case .null: entries = [:]
            default: throw mismatch(property, type, value)
            }
            guard !entries.isEmpty else { return }
            VarUInt.append(entries.count, to: &sink)
            for key in entries.keys.sorted() {
                VarUInt.append(key.utf8.count, to: &sink)
                sink.appendUTF8(key)
                try appendLengthPrefixed(entries[key]!, as: property, in: type, to: &sink)
            }
        }
    }

    /// Whether a collection of `property`'s elements is packed (no length per element).
    static func isPacked(_ property: PropertySchema) -> Bool {
        !property.isOptional && (property.type.isInteger || packedWidth(of: property.type) != nil)
    }

    /// The width of a packed element of fixed width, or `nil` (integers are packed, of varying width).
    static func packedWidth(of type: PropertyType) -> Int? {
        switch type {
        case .bool: return 1
        case .float: return 4
        case .double, .date: return 8
        case .uuid: return 16
        default: return nil
        }
    }

    private func appendLengthPrefixed<Sink: ByteSink>(
        _ value: StoredValue, as property: PropertySchema, in type: String, to sink: inout Sink
    ) throws {
        if value.isNull {
            guard property.isOptional else { throw ObjDBError.missingValue(type: type, property: property.name) }
            sink.append(0)
            return
        }
        var counter = ByteCounter()
        try append(value, as: property, in: type, packed: false, to: &counter)
        VarUInt.append(counter.count + 1, to: &sink)
        try append(value, as: property, in: type, packed: false, to: &sink)
    }

    /// Appends one non-nil value of `property`'s element type.
    private func append<Sink: ByteSink>(
        _ value: StoredValue, as property: PropertySchema, in type: String, packed: Bool, to sink: inout Sink
    ) throws {
        switch (property.type, value) {
        case (.bool, .bool(let flag)):
            sink.append(flag ? 1 : 0)
        case (.int, .int(let number)), (.int64, .int(let number)):
            OrderedVarInt.append(number, to: &sink)
        case (.int32, .int(let number)):
            guard Int32(exactly: number) != nil else { throw outOfRange(property, type, value) }
            OrderedVarInt.append(number, to: &sink)
        case (.int16, .int(let number)):
            guard Int16(exactly: number) != nil else { throw outOfRange(property, type, value) }
            OrderedVarInt.append(number, to: &sink)
        case (.int8, .int(let number)):
            guard Int8(exactly: number) != nil else { throw outOfRange(property, type, value) }
            OrderedVarInt.append(number, to: &sink)
        case (.float, .float(let number)):
            sink.appendLittleEndian(number.bitPattern)
        case (.float, .double(let number)):
            sink.appendLittleEndian(Float(number).bitPattern)
        case (.float, .int(let number)):
            sink.appendLittleEndian(Float(number).bitPattern)
        case (.double, .double(let number)):
            appendDouble(number, packed: packed, to: &sink)
        case (.double, .float(let number)):
            appendDouble(Double(number), packed: packed, to: &sink)
        case (.double, .int(let number)):
            appendDouble(Double(number), packed: packed, to: &sink)
        case (.string, .string(let text)):
            sink.appendUTF8(text)
        case (.data, .data(let data)):
            data.withUnsafeBytes { sink.append($0) }
        case (.date, .date(let date)):
            appendDouble(date.timeIntervalSinceReferenceDate, packed: packed, to: &sink)
        case (.uuid, .uuid(let uuid)):
            withUnsafeBytes(of: uuid.uuid) { sink.append($0) }
        case (.decimal, .decimal(let decimal)):
            sink.appendUTF8(decimal.description)
        case (.decimal, .int(let number)):
            sink.appendUTF8(Decimal(number).description)
        case (.object, .link(let target, let key)):
            guard target == property.objectType else { throw mismatch(property, type, value) }
            ObjectKeyCodec.append(key, to: &sink)
        case (.embedded, .embedded(let values)):
            guard let embeddedType = property.objectType.flatMap({ schema[$0] }) else {
                throw ObjDBError.unknownType(property.objectType ?? "?")
            }
            let codec = RecordCodec(schema: schema)
            let size = try codec.size(named: values, as: embeddedType)
            try sink.appendInPlace(size.byteCount) {
                try codec.encode(named: values, as: embeddedType, into: $0, size: size)
            }
        default:
            throw mismatch(property, type, value)
        }
    }

    @inline(__always)
    private func appendDouble<Sink: ByteSink>(_ value: Double, packed: Bool, to sink: inout Sink) {
        if packed {
            sink.appendLittleEndian(value.bitPattern)
        } else {
            FieldEncoding.appendDouble(value, to: &sink)
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
    package func decodeField(_ field: RecordField, of property: PropertySchema) -> StoredValue {
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
    package func zeroValue(of property: PropertySchema) -> StoredValue {
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
        switch property.type {
        case .bool: return FieldDecoding.bool(bytes).map(StoredValue.bool)
        case .int, .int64: return FieldDecoding.integer(bytes).map(StoredValue.int)
        case .int32: return FieldDecoding.integer(bytes).flatMap { Int32(exactly: $0) == nil ? nil : .int($0) }
        case .int16: return FieldDecoding.integer(bytes).flatMap { Int16(exactly: $0) == nil ? nil : .int($0) }
        case .int8: return FieldDecoding.integer(bytes).flatMap { Int8(exactly: $0) == nil ? nil : .int($0) }
        case .float: return FieldDecoding.float(bytes).map(StoredValue.float)
        case .double: return FieldDecoding.double(bytes).map(StoredValue.double)
        case .string: return .string(String(decoding: bytes, as: UTF8.self))
        case .data: return .data(Data(bytes))
        case .date: return FieldDecoding.date(bytes).map(StoredValue.date)
        case .uuid: return FieldDecoding.uuid(bytes).map(StoredValue.uuid)
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

    /// The element count a list, set or map field states (0 for an empty or damaged one).
    package static func elementCount(_ bytes: UnsafeRawBufferPointer) -> Int {
        var offset = 0
        return VarUInt.read(bytes, at: &offset) ?? 0
    }

    /// Calls `body` with each element's bytes (`nil` for a `nil` element) of a list or set field;
    /// stops at the first damaged element.
    package func forEachElement(
        _ bytes: UnsafeRawBufferPointer, as property: PropertySchema, _ body: (UnsafeRawBufferPointer?) -> Void
    ) {
        var offset = 0
        guard !bytes.isEmpty, let count = VarUInt.read(bytes, at: &offset) else { return }
        guard Self.isPacked(property) else {
            for _ in 0..<count {
                guard let element = Self.readLengthPrefixed(bytes, at: &offset) else { return }
                body(element.isNull ? nil : element.bytes)
            }
            return
        }
        if let width = Self.packedWidth(of: property.type) {
            guard count <= (bytes.count - offset) / width else { return }
            for _ in 0..<count {
                body(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + width]))
                offset += width
            }
            return
        }
        // Packed integers: each encoding's first byte gives its length.
        for _ in 0..<count {
            guard offset < bytes.count else { return }
            let length = OrderedVarInt.length(startingWith: bytes[offset])
            guard length > 0, length <= bytes.count - offset else { return }
            body(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + length]))
            offset += length
        }
    }

    /// The entries of a map field; stops at the first damaged entry.
    func decodeMap(_ bytes: UnsafeRawBufferPointer, as property: PropertySchema) -> [String: StoredValue] {
        var offset = 0
        guard !bytes.isEmpty, let count = VarUInt.read(bytes, at: &offset) else { return [:] }
        var entries: [String: StoredValue] = [:]
        for _ in 0..<count {
            guard let keyLength = VarUInt.read(bytes, at: &offset), keyLength <= bytes.count - offset else { break }
            let name = String(
                decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + keyLength]), as: UTF8.self)
            offset += keyLength
            guard let value = Self.readLengthPrefixed(bytes, at: &offset) else { break }
            entries[name] = value.isNull ? .null : decodeValue(value.bytes, as: property) ?? .null
        }
        return entries
    }

    /// A length-prefixed element at `offset`, moving past it; `nil` when it runs past the end.
    private static func readLengthPrefixed(
        _ bytes: UnsafeRawBufferPointer, at offset: inout Int
    ) -> (bytes: UnsafeRawBufferPointer, isNull: Bool)? {
        var position = offset
        guard let prefix = VarUInt.read(bytes, at: &position) else { return nil }
        if prefix == 0 {
            offset = position
            return (UnsafeRawBufferPointer(start: nil, count: 0), true)
        }
        let length = prefix - 1
        guard length <= bytes.count - position else { return nil }
        offset = position + length
        return (UnsafeRawBufferPointer(rebasing: bytes[position..<position + length]), false)
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

/// Appends `value` little-endian to `bytes` (the change log's fixed-width fields).
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
