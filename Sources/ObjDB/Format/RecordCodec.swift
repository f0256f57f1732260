/// Encodes and decodes whole records as stored values, by the schema.
///
/// Every encoding runs in two passes over the same code: one measures the record
/// (``RecordSize``), the other writes exactly that many bytes, into a new array or into a
/// caller's buffer (the space `put(reserving:)` reserved in the map).
struct RecordCodec {
    let schema: SchemaIndex

    /// The record of an object of `type` whose property values are `values`, by property name.
    /// Properties missing from `values` are stored as their zero value (or `nil`).
    func encode(named values: [String: StoredValue], as type: ObjectSchema) throws -> [UInt8] {
        try encode(type.properties.map { values[$0.name] ?? .null }, as: type, missingIsZero: true)
    }

    /// The size of the record ``encode(named:as:)`` makes.
    func size(named values: [String: StoredValue], as type: ObjectSchema) throws -> RecordSize {
        try size(type.properties.map { values[$0.name] ?? .null }, as: type, missingIsZero: true)
    }

    /// Writes the record ``encode(named:as:)`` makes into `buffer`, of the measured `size`.
    func encode(
        named values: [String: StoredValue], as type: ObjectSchema, into buffer: UnsafeMutableRawBufferPointer,
        size: RecordSize
    ) throws {
        try encode(
            type.properties.map { values[$0.name] ?? .null }, as: type, missingIsZero: true, into: buffer, size: size)
    }

    /// The record of an object of `type`; `values[i]` is the value of `type.properties[i]`.
    ///
    /// With `preserving`, fields of `preserving` whose slots `type` no longer declares are
    /// copied along (a migration keeps removed properties readable until it ends). `order` is
    /// the type's stored order (``ObjectSchema/storedPropertyOrder``), when the caller has it.
    func encode(
        _ values: [StoredValue], as type: ObjectSchema, missingIsZero: Bool = false, preserving: RecordReader? = nil,
        order: (positions: [Int], slotCount: Int)? = nil
    ) throws -> [UInt8] {
        let size = try self.size(values, as: type, missingIsZero: missingIsZero, preserving: preserving, order: order)
        return try [UInt8](unsafeUninitializedCapacity: size.byteCount) { buffer, initialized in
            try encode(
                values, as: type, missingIsZero: missingIsZero, preserving: preserving, order: order,
                into: UnsafeMutableRawBufferPointer(buffer), size: size)
            initialized = size.byteCount
        }
    }

    /// The size of the record ``encode(_:as:missingIsZero:preserving:order:)`` makes; it checks
    /// every value, so the encoding that follows cannot fail on them.
    func size(
        _ values: [StoredValue], as type: ObjectSchema, missingIsZero: Bool = false, preserving: RecordReader? = nil,
        order: (positions: [Int], slotCount: Int)? = nil
    ) throws -> RecordSize {
        let fields = layout(type, preserving: preserving, order: order)
        var size = RecordSize(slotCount: fields.slotCount)
        try write(values, as: type, missingIsZero: missingIsZero, fields: fields, into: &size)
        guard size.isEncodable else {
            throw ObjDBError.typeMismatch(
                type: type.name, property: "(all)", expected: "fields of at most 4 GiB in all",
                found: "\(size.dataSize) bytes")
        }
        return size
    }

    /// Writes the record ``encode(_:as:missingIsZero:preserving:order:)`` makes into `buffer`,
    /// whose size ``size(_:as:missingIsZero:preserving:order:)`` measured with the same arguments.
    func encode(
        _ values: [StoredValue], as type: ObjectSchema, missingIsZero: Bool = false, preserving: RecordReader? = nil,
        order: (positions: [Int], slotCount: Int)? = nil, into buffer: UnsafeMutableRawBufferPointer,
        size: RecordSize
    ) throws {
        var encoder = RecordEncoder(into: buffer, size: size)
        try write(
            values, as: type, missingIsZero: missingIsZero,
            fields: layout(type, preserving: preserving, order: order), into: &encoder)
        encoder.finish()
    }

    /// Every stored property of the record, by name.
    func decodeNamed(_ reader: RecordReader, as type: ObjectSchema) -> [String: StoredValue] {
        let codec = ValueCodec(schema: schema)
        var values: [String: StoredValue] = [:]
        for property in type.properties where property.isStored {
            values[property.name] = codec.decodeField(reader.field(Int(property.id)), of: property)
        }
        return values
    }

    // MARK: Helpers

    /// Which fields a record holds, in slot order.
    private enum Fields {
        /// The type's stored properties, at these positions in slot order.
        case declared(positions: [Int], slotCount: Int)
        /// Declared properties and fields kept from an older record, in slot order.
        case merged([(slot: Int, source: FieldSource)], slotCount: Int)

        var slotCount: Int {
            switch self {
            case .declared(_, let count), .merged(_, let count): return count
            }
        }
    }

    private enum FieldSource {
        case value(position: Int)
        case kept(RecordField)
    }

    private func layout(
        _ type: ObjectSchema, preserving: RecordReader?, order: (positions: [Int], slotCount: Int)?
    ) -> Fields {
        guard let old = preserving else {
            let order = order ?? type.storedPropertyOrder
            return .declared(positions: order.positions, slotCount: order.slotCount)
        }
        var fields: [(slot: Int, source: FieldSource)] = []
        var declared = Set<Int>()
        for (position, property) in type.properties.enumerated() where property.isStored {
            fields.append((Int(property.id), .value(position: position)))
            declared.insert(Int(property.id))
        }
        for slot in 0..<old.slotCount where !declared.contains(slot) {
            let field = old.field(slot)
            if case .absent = field { continue }
            fields.append((slot, .kept(field)))
        }
        fields.sort { $0.slot < $1.slot }
        return .merged(fields, slotCount: fields.last.map { $0.slot + 1 } ?? 0)
    }

    private func write<Sink: FieldSink>(
        _ values: [StoredValue], as type: ObjectSchema, missingIsZero: Bool, fields: Fields, into sink: inout Sink
    ) throws {
        let codec = ValueCodec(schema: schema)
        func writeValue(at position: Int) throws {
            let property = type.properties[position]
            var value = values[position]
            if missingIsZero, value.isNull, !property.isOptional, property.type != .object {
                value = codec.zeroValue(of: property)
            }
            try codec.encodeField(value, of: property, in: type.name, into: &sink)
        }
        switch fields {
        case .declared(let positions, _):
            for position in positions { try writeValue(at: position) }
        case .merged(let merged, _):
            for (slot, source) in merged {
                switch source {
                case .value(let position):
                    try writeValue(at: position)
                case .kept(.null):
                    sink.setNull(slot)
                case .kept(.bytes(let bytes)):
                    sink.beginField(slot)
                    sink.append(bytes)
                case .kept(.absent):
                    continue
                }
            }
        }
    }
}

/// A schema with its types looked up by name in constant time.
package final class SchemaIndex: Sendable {
    let schema: Schema
    private let byName: [String: ObjectSchema]

    init(_ schema: Schema) {
        self.schema = schema
        byName = Dictionary(schema.types.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    package subscript(name: String) -> ObjectSchema? { byName[name] }
}
