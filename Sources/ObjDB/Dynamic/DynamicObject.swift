/// An object read by its type's name and its properties' names, from the stored
/// schema alone: no model class needed.
///
/// ```swift
/// let db = try Database(path: "tweets.objdb")          // no classes: the stored schema
/// let view = try db.view()
/// for tweet in try view.dynamicObjects("Tweet") {
///     print(tweet["id"], tweet["text"])
/// }
/// ```
///
/// Links read as ``StoredValue/link(type:key:)``; follow one with ``ReadView/dynamicObject(_:forPrimaryKey:)``
/// or ``linkedObject(_:)``.
public final class DynamicObject {
    let accessor: ObjectAccessor
    /// Set on a migration's old objects, which read the old schema and must not be written through.
    var isReadOnly = false

    init(accessor: ObjectAccessor) {
        self.accessor = accessor
    }

    /// The object's type name.
    public var typeName: String { accessor.binding.schema.name }
    /// The type's stored schema.
    public var objectSchema: ObjectSchema { accessor.binding.schema }
    /// The object's key: its primary key, or its internal ID.
    public var objectKey: ObjectKey { accessor.objectKey }
    /// Whether the object was deleted, or its view closed.
    public var isInvalidated: Bool { !accessor.isValid }

    /// The value of property `name`; ``StoredValue/null`` for an unknown name.
    public subscript(name: String) -> StoredValue {
        (try? value(forKey: name)) ?? .null
    }

    /// The value of property `name`.
    ///
    /// - Throws: ``ObjDBError/unknownProperty(type:property:)``, ``ObjDBError/objectInvalidated(type:)``.
    public func value(forKey name: String) throws -> StoredValue {
        guard let property = accessor.binding[name] else {
            throw ObjDBError.unknownProperty(type: typeName, property: name)
        }
        guard let reader = try accessor.reader() else { throw ObjDBError.objectInvalidated(type: typeName) }
        if property.schema.type == .linkingObjects {
            return .list(try linkingObjects(name).map { .link(type: $0.typeName, key: $0.objectKey) })
        }
        return ValueCodec(schema: accessor.context.database.schemaIndex)
            .decodeField(reader.field(property.slot), of: property.schema)
    }

    /// Every stored property's value, by name.
    public func values() throws -> [String: StoredValue] {
        guard let reader = try accessor.reader() else { throw ObjDBError.objectInvalidated(type: typeName) }
        let values = accessor.context.values(of: reader, in: accessor.binding)
        var named: [String: StoredValue] = [:]
        for property in accessor.binding.properties where property.schema.isStored {
            named[property.schema.name] = values[property.position]
        }
        return named
    }

    /// Sets property `name`; only inside a write transaction.
    ///
    /// - Throws: ``ObjDBError/notInWriteTransaction(operation:)``, ``ObjDBError/unknownProperty(type:property:)``,
    ///   ``ObjDBError/typeMismatch(type:property:expected:found:)``, and what the write meets.
    public func setValue(_ value: Any, forKey name: String) throws {
        guard let property = accessor.binding[name], property.schema.isStored else {
            throw ObjDBError.unknownProperty(type: typeName, property: name)
        }
        let context = accessor.context
        if isReadOnly { throw ObjDBError.notInWriteTransaction(operation: "set \(typeName).\(name) of an old object") }
        _ = try context.writeTransaction("set \(typeName).\(name)")
        let stored = try context.storedValue(value, for: property, in: accessor.binding, policy: .modified)
        try context.setValue(stored, of: property, in: accessor)
    }

    /// The object a link property points to, or `nil`.
    public func linkedObject(_ name: String) throws -> DynamicObject? {
        guard case .link(let type, let key) = try value(forKey: name) else { return nil }
        return try ReadView(context: accessor.context).dynamicObject(type, forPrimaryKey: key)
    }

    /// The objects linking to this one through the linking-objects property `name`.
    public func linkingObjects(_ name: String) throws -> [DynamicObject] {
        guard let property = accessor.binding[name], property.schema.type == .linkingObjects,
            let originName = property.schema.objectType
        else { throw ObjDBError.unknownProperty(type: typeName, property: name) }
        let context = accessor.context
        let origin = try context.database.binding(named: originName)
        guard let originProperty = property.schema.originProperty.flatMap({ origin[$0] }) else { return [] }
        return try context.incomingLinks(to: accessor.key, in: accessor.binding)
            .filter { $0.type == originName && $0.propertyID == originProperty.schema.id }
            .compactMap { context.dynamicObject(origin, tableKey: $0.key) }
    }
}

extension ReadView {
    /// Every object of the type named `typeName`, in key order.
    ///
    /// - Throws: ``ObjDBError/unknownType(_:)``.
    public func dynamicObjects(_ typeName: String) throws -> [DynamicObject] {
        let binding = try context.database.binding(named: typeName)
        return try context.allKeys(in: binding).compactMap { context.dynamicObject(binding, tableKey: $0) }
    }

    /// The object of the type named `typeName` whose key is `key`, or `nil`.
    public func dynamicObject(_ typeName: String, forPrimaryKey key: ObjectKey) throws -> DynamicObject? {
        let binding = try context.database.binding(named: typeName)
        let keyBytes = ObjectKeyCodec.encode(key)
        guard try context.record(in: binding, key: keyBytes) != nil else { return nil }
        return DynamicObject(
            accessor: ObjectAccessor(context: context, binding: binding, key: keyBytes, objectKey: key))
    }

    /// The number of objects of the type named `typeName`.
    public func count(_ typeName: String) throws -> Int {
        let binding = try context.database.binding(named: typeName)
        guard let table = binding.table else { return 0 }
        return try context.readTransaction().statistics(of: table).entries
    }
}

extension WriteTransaction {
    /// Creates (or, by `update`, updates) an object of the type named `typeName` from property values by name.
    @discardableResult
    public func dynamicCreate(_ typeName: String, value: [String: Any], update: UpdatePolicy = .error) throws
        -> DynamicObject
    {
        let binding = try context.database.binding(named: typeName)
        let (keyBytes, key) = try context.create(binding, from: value, policy: update)
        return DynamicObject(
            accessor: ObjectAccessor(context: context, binding: binding, key: keyBytes, objectKey: key))
    }

    /// Deletes an object read through the dynamic API.
    public func delete(_ object: DynamicObject) throws {
        try context.delete(key: object.accessor.key, in: object.accessor.binding)
    }

    /// Every object of the type named `typeName`, as this transaction sees them.
    public func dynamicObjects(_ typeName: String) throws -> [DynamicObject] {
        try ReadView(context: context).dynamicObjects(typeName)
    }
}
