/// What a ``Persistable`` value needs to become a stored value: links to unmanaged objects add them.
public struct _StoringContext {
    let writer: any ObjectWriter
    let catalog: StoreCatalog
    let policy: UpdatePolicy

    /// The link to `object`, adding it first when it is unmanaged.
    func link(to object: Object) throws -> StoredValue {
        let (binding, key) = try writer.add(object, policy: policy)
        return .link(type: binding.schema.name, key: key)
    }

    /// The stored form of an embedded object: its values by property name.
    func embeddedValue(of object: EmbeddedObject) throws -> StoredValue {
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
