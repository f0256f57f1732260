extension WriteTransaction {
    /// Creates (or, by `update`, updates) an object of the type named `typeName` from property values by name.
    @discardableResult
    public func dynamicCreate(_ typeName: String, value: [String: Any], update: UpdatePolicy = .error) throws
        -> DynamicObject
    {
        let binding = try scope.catalog.binding(named: typeName)
        let (keyBytes, key) = try scope.create(binding, from: value, policy: update)
        return DynamicObject(
            accessor: ObjectAccessor(snapshot: scope.snapshot, binding: binding, key: keyBytes, objectKey: key))
    }

    /// Deletes an object read through the dynamic API.
    public func delete(_ object: DynamicObject) throws {
        try scope.delete(key: object.accessor.key, in: object.accessor.binding)
    }

    /// Every object of the type named `typeName`, as this transaction sees them.
    public func dynamicObjects(_ typeName: String) throws -> [DynamicObject] {
        try ReadView(snapshot: scope.snapshot).dynamicObjects(typeName)
    }
}
