/// What a migration closure works with: the objects as stored under the old
/// schema, and as they are under the new one.
///
/// ```swift
/// configuration.schemaVersion = 2
/// configuration.migration = { migration, oldVersion in
///     if oldVersion < 2 {
///         try migration.renameProperty(onType: "Tweet", from: "body", to: "text")
///         try migration.enumerateObjects(ofType: "TwitterUser") { old, new in
///             try new?.setValue((old?["handle"].stringValue ?? "").lowercased(), forKey: "screenName")
///         }
///     }
/// }
/// ```
///
/// The closure runs inside the opening write transaction, after additive changes
/// (new types, new properties, removed ones) are applied. Whatever it throws
/// rolls the whole migration back and fails the open.
public final class Migration {
    /// The schema the store had.
    public let oldSchema: Schema
    /// The schema the store gets.
    public let newSchema: Schema

    let scope: WriteScope
    let oldBindings: [String: TypeBinding]

    init(scope: WriteScope, oldSchema: Schema, newSchema: Schema, oldBindings: [String: TypeBinding]) {
        self.scope = scope
        self.oldSchema = oldSchema
        self.newSchema = newSchema
        self.oldBindings = oldBindings
    }

    /// Calls `body` with each stored object of `typeName`: as the old schema reads it
    /// (read-only; `nil` for objects created in this migration) and as the new one
    /// does (writable; `nil` when the type was removed).
    public func enumerateObjects(
        ofType typeName: String, _ body: (_ oldObject: DynamicObject?, _ newObject: DynamicObject?) throws -> Void
    ) throws {
        let newBinding = scope.catalog.bindings[typeName]
        let oldBinding = oldBindings[typeName]
        guard let listing = newBinding ?? oldBinding else { throw ObjDBError.unknownType(typeName) }
        for key in try scope.allKeys(in: listing) {
            let old = try oldBinding.flatMap { try object(key: key, binding: $0) }
            old?.isReadOnly = true
            let new = try newBinding.flatMap { try object(key: key, binding: $0) }
            try body(old, new)
        }
    }

    /// Moves the values of `oldName` (old schema) into `newName` (new schema) for every object of `typeName`.
    public func renameProperty(onType typeName: String, from oldName: String, to newName: String) throws {
        guard oldBindings[typeName]?[oldName] != nil else {
            throw ObjDBError.unknownProperty(type: typeName, property: oldName)
        }
        guard scope.catalog.bindings[typeName]?[newName] != nil else {
            throw ObjDBError.unknownProperty(type: typeName, property: newName)
        }
        try enumerateObjects(ofType: typeName) { old, new in
            guard let old, let new else { return }
            try new.setValue(try old.value(forKey: oldName), forKey: newName)
        }
    }

    /// Creates an object of `typeName` in the new schema.
    @discardableResult
    public func create(_ typeName: String, value: [String: Any]) throws -> DynamicObject {
        let binding = try scope.catalog.binding(named: typeName)
        let (keyBytes, key) = try scope.create(binding, from: value, policy: .error)
        return DynamicObject(
            accessor: ObjectAccessor(snapshot: scope.snapshot, binding: binding, key: keyBytes, objectKey: key))
    }

    /// Deletes an object of the new schema.
    public func delete(_ object: DynamicObject) throws {
        try scope.delete(key: object.accessor.key, in: object.accessor.binding)
    }

    /// Deletes every object of `typeName`.
    public func deleteData(forType typeName: String) throws {
        guard let binding = scope.catalog.bindings[typeName] ?? oldBindings[typeName] else {
            throw ObjDBError.unknownType(typeName)
        }
        if scope.catalog.bindings[typeName] != nil {
            try scope.deleteAll(in: binding)
        } else if let table = binding.table {
            try scope.writeTransaction("delete data").removeAll(in: table)
            scope.didWrite()
        }
    }

    private func object(key: [UInt8], binding: TypeBinding) throws -> DynamicObject? {
        guard try scope.record(in: binding, key: key) != nil else { return nil }
        return scope.snapshot.dynamicObject(binding, tableKey: key)
    }
}

extension StoredValue {
    /// The string, when the value is one.
    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The integer, when the value is one.
    public var intValue: Int64? {
        if case .int(let number) = self { return number }
        return nil
    }

    /// The double, when the value is a `Double` or `Float`.
    public var doubleValue: Double? {
        switch self {
        case .double(let number): return number
        case .float(let number): return Double(number)
        default: return nil
        }
    }

    /// The flag, when the value is a `Bool`.
    public var boolValue: Bool? {
        if case .bool(let flag) = self { return flag }
        return nil
    }
}
