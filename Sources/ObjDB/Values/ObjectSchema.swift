/// One object type: its name, its properties, and how its table is keyed.
public struct ObjectSchema: Codable, Sendable, Hashable {
    /// The type's name (the Swift class name).
    public var name: String
    /// The properties, in declaration order.
    public var properties: [PropertySchema]
    /// Whether objects of the type live only inside an owner (embedded objects have no table).
    public var isEmbedded: Bool
    /// Sets of properties whose values together identify at most one object (Core Data's
    /// uniqueness constraints): each a list of property names.
    public var uniquenessConstraints: [[String]]

    /// Creates a type description.
    public init(
        name: String, properties: [PropertySchema], isEmbedded: Bool = false, uniquenessConstraints: [[String]] = []
    ) {
        self.name = name
        self.properties = properties
        self.isEmbedded = isEmbedded
        self.uniquenessConstraints = uniquenessConstraints
    }

    private enum CodingKeys: String, CodingKey {
        case name, properties, isEmbedded, uniquenessConstraints
    }

    /// Decodes a type description; one stored before uniqueness constraints existed has none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        properties = try container.decode([PropertySchema].self, forKey: .properties)
        isEmbedded = try container.decode(Bool.self, forKey: .isEmbedded)
        uniquenessConstraints = try container.decodeIfPresent([[String]].self, forKey: .uniquenessConstraints) ?? []
    }

    /// Encodes the type description, leaving out uniqueness constraints when it has none (so a
    /// store without any reads as it did before they existed).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(properties, forKey: .properties)
        try container.encode(isEmbedded, forKey: .isEmbedded)
        if !uniquenessConstraints.isEmpty {
            try container.encode(uniquenessConstraints, forKey: .uniquenessConstraints)
        }
    }

    /// The positions of the stored properties in slot order, and the slot count.
    var storedPropertyOrder: (positions: [Int], slotCount: Int) {
        let stored = properties.indices.filter { properties[$0].isStored }.sorted {
            properties[$0].id < properties[$1].id
        }
        return (stored, stored.last.map { Int(properties[$0].id) + 1 } ?? 0)
    }

    /// The primary-key property, if the type has one.
    public var primaryKey: PropertySchema? { properties.first { $0.isPrimaryKey } }

    /// The property named `name`.
    public subscript(name: String) -> PropertySchema? {
        properties.first { $0.name == name }
    }
}

/// Every object type of a store, and the version the app gave it.
public struct Schema: Codable, Sendable, Hashable {
    /// The app's schema version: raised with each change that needs a migration.
    public var version: UInt64
    /// The types, sorted by name.
    public var types: [ObjectSchema]
    /// Per type, the ID its next new property gets: IDs of removed properties are never reused,
    /// so a record written before a removal can never be misread as a later property.
    public var nextPropertyIDs: [String: UInt16]

    /// Creates a schema.
    public init(version: UInt64, types: [ObjectSchema], nextPropertyIDs: [String: UInt16] = [:]) {
        self.version = version
        self.types = types.sorted { $0.name < $1.name }
        self.nextPropertyIDs = nextPropertyIDs
    }

    /// The type named `name`.
    public subscript(name: String) -> ObjectSchema? {
        types.first { $0.name == name }
    }
}
