import Foundation

/// How the records of one stored type are laid out, worked out once when the type is bound
/// (``TypeBinding/codec``): which slot each property has, what kind of field it is, and the
/// record's slot count. It encodes and decodes whole records as `StoredValue`s, and gives
/// what typed reads and writes need to skip them.
///
/// Typed reads, straight from the record in the map:
///
/// ```swift
/// let reader = try context.record(in: binding, key: key)!
/// let count = reader.integer(codec.retweetCount.slot) ?? 0   // absent, nil or damaged: the zero value
/// let text = reader.bytes(codec.text.slot)                  // the UTF-8 in place, valid for the transaction
/// ```
///
/// Typed writes, into the space LMDB reserves (`MDB_RESERVE`): measure, then write the same
/// fields in the same order (see ``RecordSize`` and ``RecordEncoder``).
final class TypeCodec: Sendable {
    /// One stored property.
    struct Field: Sendable {
        /// The record slot (the property ID).
        let slot: Int
        /// The property's position in the type's properties, and in value arrays.
        let position: Int
        let property: PropertySchema
        let kind: FieldKind
    }

    /// What a field holds, and how wide it is.
    enum FieldKind: Sendable, Equatable {
        /// 1 byte.
        case bool
        /// Any integer width: 1 to 9 bytes (``OrderedVarInt``).
        case integer
        /// 4 bytes.
        case float
        /// 1 to 8 bytes (``FieldEncoding/appendDouble(_:to:)``).
        case double
        /// As a double, of seconds since 2001-01-01.
        case date
        /// UTF-8, any length.
        case string
        /// Any length.
        case data
        /// 16 bytes.
        case uuid
        /// The description's UTF-8.
        case decimal
        /// The linked object's table key.
        case link
        /// A nested record.
        case embedded
        /// A list, set or map.
        case collection

        /// The field's width when it is always the same, else `nil`.
        var fixedWidth: Int? {
            switch self {
            case .bool: return 1
            case .float: return 4
            case .uuid: return 16
            default: return nil
            }
        }
    }

    let type: ObjectSchema
    let schema: SchemaIndex
    /// The slot count of the records it writes: the highest stored property ID, plus one.
    let slotCount: Int
    /// The stored properties, in slot order.
    let fields: [Field]
    /// The field of each property, parallel to the type's properties (`nil`: not stored).
    let fieldsByPosition: [Field?]
    private let positions: [Int]
    /// The fields in slot order when every one is a plain scalar, string or data value: such
    /// records are written from their values without the schema (``ScalarField``).
    private let scalarFields: [ScalarField]?

    init(type: ObjectSchema, schema: SchemaIndex) {
        self.type = type
        self.schema = schema
        let order = type.storedPropertyOrder
        positions = order.positions
        slotCount = order.slotCount
        let fields = order.positions.map { position in
            let property = type.properties[position]
            return Field(slot: Int(property.id), position: position, property: property, kind: Self.kind(of: property))
        }
        self.fields = fields
        var byPosition = [Field?](repeating: nil, count: type.properties.count)
        for field in fields { byPosition[field.position] = field }
        fieldsByPosition = byPosition
        let scalars = fields.compactMap { ScalarField($0) }
        scalarFields = scalars.count == fields.count ? scalars : nil
    }

    /// The field of the property named `name`, if it is stored.
    subscript(name: String) -> Field? {
        fields.first { $0.property.name == name }
    }

    // MARK: Whole records as stored values

    /// The size of the record of `values` (parallel to the type's properties), checking them all.
    func size(
        of values: [StoredValue], missingIsZero: Bool = false, preserving: RecordReader? = nil
    ) throws -> RecordSize {
        if preserving == nil, !missingIsZero, let scalarFields, Self.canWrite(values, scalarFields) {
            var size = RecordSize(slotCount: slotCount)
            Self.write(values, scalarFields, into: &size)
            if size.isEncodable { return size }
        }
        return try RecordCodec(schema: schema).size(
            values, as: type, missingIsZero: missingIsZero, preserving: preserving, order: (positions, slotCount))
    }

    /// Writes the record of `values` into `buffer`, of the `size` measured with the same arguments.
    ///
    /// `buffer` must not overlap `preserving` (LMDB may reserve a key's new value where its old one is).
    func encode(
        _ values: [StoredValue], missingIsZero: Bool = false, preserving: RecordReader? = nil,
        into buffer: UnsafeMutableRawBufferPointer, size: RecordSize
    ) throws {
        if let old = preserving?.record, let start = old.baseAddress, let target = buffer.baseAddress {
            precondition(
                start + old.count <= target || target + buffer.count <= start,
                "a record cannot be encoded over the record it preserves fields of")
        }
        if preserving == nil, !missingIsZero, let scalarFields, Self.canWrite(values, scalarFields),
            size.isEncodable
        {
            var encoder = RecordEncoder(into: buffer, size: size)
            Self.write(values, scalarFields, into: &encoder)
            encoder.finish()
            return
        }
        try RecordCodec(schema: schema).encode(
            values, as: type, missingIsZero: missingIsZero, preserving: preserving, order: (positions, slotCount),
            into: buffer, size: size)
    }

    /// The record of `values`, as a new array.
    func encode(_ values: [StoredValue], missingIsZero: Bool = false, preserving: RecordReader? = nil) throws
        -> [UInt8]
    {
        try RecordCodec(schema: schema).encode(
            values, as: type, missingIsZero: missingIsZero, preserving: preserving, order: (positions, slotCount))
    }

    /// Every property's value, parallel to the type's properties (`nil` for those not stored).
    func decode(_ reader: RecordReader) -> [StoredValue] {
        let codec = ValueCodec(schema: schema)
        return type.properties.map { property in
            property.isStored ? codec.decodeField(reader.field(Int(property.id)), of: property) : .null
        }
    }

    /// One field's value.
    func decode(_ field: Field, from reader: RecordReader) -> StoredValue {
        ValueCodec(schema: schema).decodeField(reader.field(field.slot), of: field.property)
    }

    /// A record sized for typed writes: give it the fields, then read ``RecordSize/byteCount``.
    func recordSize() -> RecordSize {
        RecordSize(slotCount: slotCount)
    }

    // MARK: Records of scalars

    /// Whether every value is one ``write(_:_:into:)`` writes as the schema-driven encoding
    /// would (anything else, such as a value to convert or a missing one, takes that path).
    private static func canWrite(_ values: [StoredValue], _ fields: [ScalarField]) -> Bool {
        for field in fields {
            switch (field.kind, values[field.position]) {
            case (.bool, .bool), (.integer, .int), (.float, .float), (.double, .double), (.date, .date),
                (.string, .string), (.data, .data), (.uuid, .uuid):
                continue
            case (_, .null) where field.isOptional:
                continue
            default:
                return false
            }
        }
        return true
    }

    /// Writes the fields of values ``canWrite(_:_:)`` accepted, the same bytes as ``ValueCodec``
    /// writes for them, without copying the schema's property descriptions.
    private static func write<Sink: FieldSink>(_ values: [StoredValue], _ fields: [ScalarField], into sink: inout Sink)
    {
        for field in fields {
            switch values[field.position] {
            case .bool(let flag): sink.writeBool(field.slot, flag)
            case .int(let number): sink.writeInteger(field.slot, Int64(number))
            case .float(let number): sink.writeFloat(field.slot, number)
            case .double(let number): sink.writeDouble(field.slot, number)
            case .date(let date): sink.writeDate(field.slot, date)
            case .string(let text): sink.writeString(field.slot, text)
            case .data(let data): sink.writeData(field.slot, data)
            case .uuid(let uuid): sink.writeUUID(field.slot, uuid)
            default: sink.setNull(field.slot)
            }
        }
    }

    private static func kind(of property: PropertySchema) -> FieldKind {
        guard property.collection == .single else { return .collection }
        switch property.type {
        case .bool: return .bool
        case .int, .int8, .int16, .int32, .int64: return .integer
        case .float: return .float
        case .double: return .double
        case .date: return .date
        case .string: return .string
        case .data: return .data
        case .uuid: return .uuid
        case .decimal: return .decimal
        case .object: return .link
        case .embedded: return .embedded
        case .linkingObjects: return .collection
        }
    }
}

/// A field the scalar fast path writes: nothing reference-counted, so reading one copies no strings.
private struct ScalarField {
    enum Kind { case bool, integer, float, double, date, string, data, uuid }
    let slot: Int
    let position: Int
    let kind: Kind
    let isOptional: Bool

    /// The scalar field of `field`, or `nil` when it needs the schema to be written (a narrow
    /// integer's range check, a decimal, a link, an embedded object, a collection).
    init?(_ field: TypeCodec.Field) {
        guard field.property.collection == .single else { return nil }
        switch field.property.type {
        case .bool: kind = .bool
        case .int, .int64: kind = .integer
        case .float: kind = .float
        case .double: kind = .double
        case .date: kind = .date
        case .string: kind = .string
        case .data: kind = .data
        case .uuid: kind = .uuid
        default: return nil
        }
        slot = field.slot
        position = field.position
        isOptional = field.property.isOptional
    }
}
