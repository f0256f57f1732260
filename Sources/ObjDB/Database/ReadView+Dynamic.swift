extension ReadView {
    /// Every object of the type named `typeName`, in key order.
    ///
    /// - Throws: ``ObjDBError/unknownType(_:)``.
    public func dynamicObjects(_ typeName: String) throws -> [DynamicObject] {
        let binding = try database.binding(named: typeName)
        return try snapshot.source().allKeys(in: binding).compactMap { snapshot.dynamicObject(binding, tableKey: $0) }
    }

    /// The object of the type named `typeName` whose key is `key`, or `nil`.
    public func dynamicObject(_ typeName: String, forPrimaryKey key: ObjectKey) throws -> DynamicObject? {
        try snapshot.dynamicObject(typeName, forPrimaryKey: key)
    }

    /// The number of objects of the type named `typeName`.
    public func count(_ typeName: String) throws -> Int {
        try snapshot.source().count(of: database.binding(named: typeName))
    }
}
