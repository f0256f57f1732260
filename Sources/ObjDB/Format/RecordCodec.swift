/// Encodes and decodes whole records as stored values, by the schema.
struct RecordCodec {
    let schema: SchemaIndex

    /// The record of an object of `type` whose property values are `values`, by property name.
    /// Properties missing from `values` are stored as their zero value (or `nil`).
    func encode(named values: [String: StoredValue], as type: ObjectSchema) throws -> [UInt8] {
        try encode(type.properties.map { values[$0.name] ?? .null }, as: type, missingIsZero: true)
    }

    /// The record of an object of `type`; `values[i]` is the value of `type.properties[i]`.
    func encode(_ values: [StoredValue], as type: ObjectSchema, missingIsZero: Bool = false) throws -> [UInt8] {
        let codec = ValueCodec(schema: schema)
        let slotCount = Int(type.properties.filter(\.isStored).map(\.id).max().map { $0 + 1 } ?? 0)
        var writer = RecordWriter(slotCount: slotCount)
        for (property, value) in zip(type.properties, values).sorted(by: { $0.0.id < $1.0.id }) where property.isStored
        {
            var value = value
            if missingIsZero, value.isNull, !property.isOptional, property.type != .object {
                value = codec.zeroValue(of: property)
            }
            try codec.encodeField(value, of: property, in: type.name, into: &writer)
        }
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
