/// One object type: its name, its properties, and how its table is keyed.
public struct ObjectSchema: Codable, Sendable, Hashable {
    /// The type's name (the Swift class name).
    public var name: String
    /// The properties, in declaration order.
    public var properties: [PropertySchema]
    /// Whether objects of the type live only inside an owner (embedded objects have no table).
    public var isEmbedded: Bool

    /// Creates a type description.
    public init(name: String, properties: [PropertySchema], isEmbedded: Bool = false) {
        self.name = name
        self.properties = properties
        self.isEmbedded = isEmbedded
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
