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
    /// Whether the object was deleted, or its view closed (a fault does not invalidate it:
    /// see ``ObjectBase/isInvalidated``).
    public var isInvalidated: Bool { !accessor.isValid }

    /// The value of property `name`, for reads that cannot throw: a fault (a damaged record, a
    /// store that cannot be read) goes to ``Configuration/faultHandler`` and reads as
    /// ``StoredValue/null``. ``value(forKey:)`` throws it instead.
    ///
    /// - Precondition: the type has a property `name` (see ``objectSchema``), and the object was
    ///   not deleted (see ``isInvalidated``), as in Realm.
    public subscript(name: String) -> StoredValue {
        guard accessor.binding[name] != nil else {
            preconditionFailure("\(typeName) has no property '\(name)'; its properties are in objectSchema.")
        }
        do {
            return try value(forKey: name)
        } catch let error as ObjDBError where error.code == .objectInvalidated {
            preconditionFailure("A \(typeName) was read after it was deleted or its view closed; check isInvalidated.")
        } catch {
            accessor.snapshot.report(error)
            return .null
        }
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
        return ValueCodec(schema: accessor.snapshot.catalog.schemaIndex)
            .decodeField(reader.field(property.slot), of: property.schema)
    }

    /// Every stored property's value, by name.
    public func values() throws -> [String: StoredValue] {
        guard let reader = try accessor.reader() else { throw ObjDBError.objectInvalidated(type: typeName) }
        let values = accessor.snapshot.values(of: reader, in: accessor.binding)
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
        if isReadOnly { throw ObjDBError.notInWriteTransaction(operation: "set \(typeName).\(name) of an old object") }
        guard let writer = accessor.snapshot.writer else {
            throw ObjDBError.notInWriteTransaction(operation: "set \(typeName).\(name)")
        }
        let stored = try writer.storedValue(value, for: property, in: accessor.binding)
        try writer.setValue(stored, of: property, in: accessor)
    }

    /// The object a link property points to, or `nil`.
    public func linkedObject(_ name: String) throws -> DynamicObject? {
        guard case .link(let type, let key) = try value(forKey: name) else { return nil }
        return try accessor.snapshot.dynamicObject(type, forPrimaryKey: key)
    }

    /// The objects linking to this one through the linking-objects property `name`.
    public func linkingObjects(_ name: String) throws -> [DynamicObject] {
        guard let property = accessor.binding[name], property.schema.type == .linkingObjects,
            let originName = property.schema.objectType
        else { throw ObjDBError.unknownProperty(type: typeName, property: name) }
        let snapshot = accessor.snapshot
        let origin = try snapshot.catalog.binding(named: originName)
        guard let originProperty = property.schema.originProperty.flatMap({ origin[$0] }) else { return [] }
        return try snapshot.source().incomingLinks(to: accessor.key, in: accessor.binding)
            .filter { $0.typeName == originName && $0.propertyID == originProperty.schema.id }
            .compactMap { snapshot.dynamicObject(origin, tableKey: $0.key) }
    }
}

extension Snapshot {
    /// A dynamic object for a table key read from this snapshot, or `nil` for a damaged key.
    func dynamicObject(_ binding: TypeBinding, tableKey key: [UInt8]) -> DynamicObject? {
        binding.objectKey(fromTableKey: key).map {
            DynamicObject(accessor: ObjectAccessor(snapshot: self, binding: binding, key: key, objectKey: $0))
        }
    }

    /// The object of the type named `typeName` whose key is `key`, or `nil`.
    func dynamicObject(_ typeName: String, forPrimaryKey key: ObjectKey) throws -> DynamicObject? {
        let binding = try catalog.binding(named: typeName)
        let keyBytes = ObjectKeyCodec.encode(key)
        guard keyBytes.count <= catalog.maxKeySize, try record(in: binding, key: keyBytes) != nil else { return nil }
        return DynamicObject(accessor: ObjectAccessor(snapshot: self, binding: binding, key: keyBytes, objectKey: key))
    }
}
