/// What a ``Persistable`` value needs to become a stored value: links to unmanaged objects add them.
public struct _StoringContext {
    /// The write that stores linked objects; `nil` when the value is only read (hashing a key).
    let writer: (any ObjectWriter)?
    let catalog: StoreCatalog?
    let policy: UpdatePolicy

    init(writer: any ObjectWriter, catalog: StoreCatalog, policy: UpdatePolicy) {
        self.writer = writer
        self.catalog = catalog
        self.policy = policy
    }

    private init() {
        writer = nil
        catalog = nil
        policy = .error
    }

    /// A context for reading a scalar value (a primary key) out of an unmanaged object: it
    /// cannot store links or embedded objects.
    static var readingScalars: _StoringContext { _StoringContext() }

    /// The link to `object`, adding it first when it is unmanaged.
    func link(to object: Object) throws -> StoredValue {
        guard let writer else { preconditionFailure("A link was stored outside a write transaction.") }
        let (binding, key) = try writer.add(object, policy: policy)
        return .link(type: binding.schema.name, key: key)
    }

    /// The stored form of an embedded object: its values by property name.
    func embeddedValue(of object: EmbeddedObject) throws -> StoredValue {
        guard let catalog else { preconditionFailure("An embedded object was stored outside a write transaction.") }
        let binding = try catalog.binding(for: type(of: object))
        if let accessor = object.accessor {
            guard let reader = try accessor.reader() else {
                throw ObjDBError.objectInvalidated(type: binding.schema.name)
            }
            let values = accessor.snapshot.values(of: reader, in: binding)
            return .embedded(Dictionary(uniqueKeysWithValues: zip(binding.schema.properties.map(\.name), values)))
        }
        let discovered = try DiscoveredType.of(type(of: object))
        var values: [String: StoredValue] = [:]
        for (ordinal, value) in try discovered.storedValues(of: object, self).enumerated() {
            values[binding.propertiesByOrdinal[ordinal].schema.name] = value
        }
        return .embedded(values)
    }
}
