/// Encodes and decodes whole records as stored values, by the schema.
struct RecordCodec {
    let schema: SchemaIndex

    /// The record of an object of `type` whose property values are `values`, by property name.
    /// Properties missing from `values` are stored as their zero value (or `nil`).
    func encode(named values: [String: StoredValue], as type: ObjectSchema) throws -> [UInt8] {
        try encode(type.properties.map { values[$0.name] ?? .null }, as: type, missingIsZero: true)
    }

    /// The record of an object of `type`; `values[i]` is the value of `type.properties[i]`.
    ///
    /// With `preserving`, fields of `preserving` whose slots `type` no longer declares are
    /// copied along (a migration keeps removed properties readable until it ends).
    func encode(
        _ values: [StoredValue], as type: ObjectSchema, missingIsZero: Bool = false, preserving: RecordReader? = nil,
        order knownOrder: (positions: [Int], slotCount: Int)? = nil
    ) throws -> [UInt8] {
        let codec = ValueCodec(schema: schema)
        if preserving == nil {
            // The common case: fields straight into the writer, in slot order.
            let order = knownOrder ?? type.storedPropertyOrder
            var writer = RecordWriter(slotCount: order.slotCount)
            for position in order.positions {
                let property = type.properties[position]
                var value = values[position]
                if missingIsZero, value.isNull, !property.isOptional, property.type != .object {
                    value = codec.zeroValue(of: property)
                }
                try codec.encodeField(value, of: property, in: type.name, into: &writer)
            }
            return writer.finish()
        }
        let declared = Set(type.properties.filter(\.isStored).map { Int($0.id) })
        let kept = preserving.map { old in (0..<old.slotCount).filter { !declared.contains($0) } } ?? []
        let slotCount = max(declared.max().map { $0 + 1 } ?? 0, kept.max().map { $0 + 1 } ?? 0)
        var writer = RecordWriter(slotCount: slotCount)
        var fields: [(slot: Int, write: (inout RecordWriter) throws -> Void)] = []
        for (property, value) in zip(type.properties, values) where property.isStored {
            var value = value
            if missingIsZero, value.isNull, !property.isOptional, property.type != .object {
                value = codec.zeroValue(of: property)
            }
            let stored = value
            fields.append((Int(property.id), { try codec.encodeField(stored, of: property, in: type.name, into: &$0) }))
        }
        if let old = preserving {
            for slot in kept {
                switch old.field(slot) {
                case .absent:
                    continue
                case .null:
                    fields.append((slot, { $0.setNull(slot) }))
                case .bytes(let bytes):
                    let copy = Array(bytes)
                    fields.append(
                        (
                            slot,
                            { writer in
                                writer.beginField(slot)
                                writer.append(contentsOf: copy)
                            }
                        ))
                }
            }
        }
        for field in fields.sorted(by: { $0.slot < $1.slot }) { try field.write(&writer) }
        return writer.finish()
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
}

/// A schema with its types looked up by name in constant time.
final class SchemaIndex: Sendable {
    let schema: Schema
    private let byName: [String: ObjectSchema]

    init(_ schema: Schema) {
        self.schema = schema
        byName = Dictionary(schema.types.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    subscript(name: String) -> ObjectSchema? { byName[name] }
}
