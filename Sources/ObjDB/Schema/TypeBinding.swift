/// One object type as a particular database stores it: its stored schema, its
/// tables, and how its class's properties map to stored properties.
package final class TypeBinding: Sendable {
    /// The stored schema, with property IDs.
    package let schema: ObjectSchema
    /// The class, when the database was opened with it.
    let swiftType: ObjectBase.Type?
    /// The object table; `nil` for embedded types, which live inside their owners.
    package let table: DatabaseHandle?
    /// The properties, parallel to `schema.properties`.
    package let properties: [BoundProperty]
    /// The properties by the ordinal of the class's `@Persisted` declarations.
    let propertiesByOrdinal: [BoundProperty]
    /// The primary key, if any.
    package let primaryKey: BoundProperty?
    /// The primary key's ordinal in the class, if the class is known and has one.
    let primaryKeyOrdinal: Int?
    /// Whether any property holds links (or embedded objects, which may): adding may add others.
    package let hasLinks: Bool
    /// Whether some property of some type links to this type: only then can deleting one of its objects
    /// have links to clear.
    let isLinkTarget: Bool
    /// The properties whose values a write's bookkeeping reads: indexed ones, and those holding
    /// links or embedded objects (backlinks). A delete decodes only these.
    let bookkeepingProperties: [BoundProperty]
    /// The stored properties' positions in slot order, and the slot count: how records are laid out.
    let storedOrder: (positions: [Int], slotCount: Int)
    /// The type's record encoder and decoder, built once.
    let codec: TypeCodec
    /// What reflection found in the class, when the database was opened with it: how adding
    /// reads an unmanaged object's properties.
    let discovered: DiscoveredType?
    /// For each ordinal of the class's `@Persisted` declarations, the property's position.
    let positionsByOrdinal: [Int]
    /// The indexed properties, and of them the unique ones: the only ones a write's index upkeep visits.
    let indexedProperties: [BoundProperty]
    let uniqueProperties: [BoundProperty]
    /// The properties that hold links or embedded objects (which may hold links).
    let linkProperties: [BoundProperty]
    /// The links whose delete rule is cascade or deny: what deleting an object must look at first.
    let ruledLinks: [BoundProperty]
    /// The type's uniqueness constraints over several properties, with their indexes.
    package let compoundKeys: [CompoundKey]
    /// The IDs of the properties some uniqueness constraint names.
    let constrainedPropertyIDs: Set<UInt16>
    private let byName: [String: BoundProperty]

    init(
        schema: ObjectSchema, swiftType: ObjectBase.Type?, discovered: DiscoveredType?, table: DatabaseHandle?,
        indexes: [String: DatabaseHandle], fullTextSegments: [String: DatabaseHandle] = [:],
        compoundIndexes: [[UInt16]: DatabaseHandle] = [:], isLinkTarget: Bool = true, schemaIndex: SchemaIndex
    ) {
        self.isLinkTarget = isLinkTarget
        self.schema = schema
        self.swiftType = swiftType
        self.table = table
        let constrained = Set(schema.uniquenessConstraints.joined())
        let properties = schema.properties.enumerated().map { position, property in
            BoundProperty(
                schema: property, position: position, index: indexes[property.name],
                segment: fullTextSegments[property.name], isConstrained: constrained.contains(property.name))
        }
        self.properties = properties
        byName = Dictionary(properties.map { ($0.schema.name, $0) }, uniquingKeysWith: { first, _ in first })
        primaryKey = properties.first { $0.schema.isPrimaryKey }
        hasLinks = properties.contains { $0.schema.type == .object || $0.schema.type == .embedded }
        bookkeepingProperties = properties.filter {
            $0.schema.isIndexed || $0.schema.type == .object || $0.schema.type == .embedded
                || constrained.contains($0.schema.name)
        }
        self.constrainedPropertyIDs = Set(properties.filter { constrained.contains($0.schema.name) }.map(\.schema.id))
        storedOrder = schema.storedPropertyOrder
        codec = TypeCodec(type: schema, schema: schemaIndex)
        indexedProperties = properties.filter { $0.schema.isIndexed && $0.index != nil }
        uniqueProperties = indexedProperties.filter { $0.schema.index == .unique }
        linkProperties = properties.filter { $0.schema.type == .object || $0.schema.type == .embedded }
        ruledLinks = properties.filter { $0.schema.type == .object && ($0.schema.deleteRule ?? .nullify) != .nullify }
        let byName = self.byName
        compoundKeys = schema.uniquenessConstraints.compactMap { names in
            let constrained = names.compactMap { byName[$0] }
            guard constrained.count == names.count else { return nil }
            return CompoundKey(properties: constrained, index: compoundIndexes[constrained.map(\.schema.id)])
        }
        self.discovered = discovered
        if let discovered {
            propertiesByOrdinal = discovered.propertyIndexByOrdinal.map { index in
                byName[discovered.schema.properties[index].name]!
            }
        } else {
            propertiesByOrdinal = []
        }
        positionsByOrdinal = propertiesByOrdinal.map(\.position)
        let primaryKey = self.primaryKey
        primaryKeyOrdinal = propertiesByOrdinal.firstIndex { $0 === primaryKey }
    }

    /// The property named `name`.
    package subscript(name: String) -> BoundProperty? { byName[name] }

    /// The object key a table key of this type encodes, or `nil` for a damaged one.
    func objectKey(fromTableKey key: [UInt8]) -> ObjectKey? {
        key.withUnsafeBytes { ObjectKeyCodec.decode($0, primaryKeyType: primaryKey?.schema.type) }
    }
}

/// One property of a bound type.
package final class BoundProperty: Sendable {
    /// The stored description.
    package let schema: PropertySchema
    /// Its position in the type's property list (and in value arrays).
    package let position: Int
    /// Its secondary index, if it has one.
    package let index: DatabaseHandle?
    /// A full-text index's statistics and recent segment.
    package let fullTextSegment: FullTextSegment?
    /// Whether assigning it may rewrite its field alone, copying the record's other fields as they
    /// are: a single value that no index, uniqueness constraint or backlink depends on, and not
    /// the primary key.
    let patchesInPlace: Bool

    init(
        schema: PropertySchema, position: Int, index: DatabaseHandle?, segment: DatabaseHandle? = nil,
        isConstrained: Bool
    ) {
        self.schema = schema
        self.position = position
        self.index = index
        fullTextSegment =
            schema.index == .fullText ? index.map { FullTextSegment(index: $0, segment: segment) } : nil
        patchesInPlace =
            schema.collection == .single && !schema.isPrimaryKey && index == nil && !isConstrained
            && schema.type != .object && schema.type != .embedded && schema.type != .linkingObjects
    }

    /// The record slot.
    var slot: Int { Int(schema.id) }
}

/// A uniqueness constraint over several properties of a bound type, and its index.
package final class CompoundKey: Sendable {
    /// The constrained properties, in the constraint's order.
    package let properties: [BoundProperty]
    /// The index: each combination of values, keyed by ``CompoundKeyCodec``, to the table key holding it.
    package let index: DatabaseHandle?

    init(properties: [BoundProperty], index: DatabaseHandle?) {
        self.properties = properties
        self.index = index
    }

    /// The property IDs, in order.
    var propertyIDs: [UInt16] { properties.map(\.schema.id) }

    /// `(firstName, lastName)`, for messages.
    package var label: String { "(" + properties.map(\.schema.name).joined(separator: ", ") + ")" }
}
