import Foundation

/// Turns the loosely typed values of `create(_:value:update:)` into stored values, by the schema.
extension WriteScope {
    /// Creates or updates an object of `binding` from property values by name.
    func create(_ binding: TypeBinding, from values: [String: Any], policy: UpdatePolicy) throws -> ([UInt8], ObjectKey)
    {
        for name in values.keys where binding[name] == nil {
            throw ObjDBError.unknownProperty(type: binding.schema.name, property: name)
        }
        let codec = ValueCodec(schema: catalog.schemaIndex)
        let key: ObjectKey
        if let primaryKey = binding.primaryKey {
            guard let given = values[primaryKey.schema.name] else {
                throw ObjDBError.missingValue(type: binding.schema.name, property: primaryKey.schema.name)
            }
            key = try objectKey(from: try storedValue(given, for: primaryKey, in: binding, policy: policy), in: binding)
        } else if policy != .error, !binding.compoundKeys.isEmpty,
            let existing = try keyOfObject(
                matchingConstraintsOf: { property in
                    guard let given = values[property.schema.name] else { return codec.zeroValue(of: property.schema) }
                    return try storedValue(given, for: property, in: binding, policy: policy)
                }, in: binding),
            let existingKey = binding.objectKey(fromTableKey: existing)
        {
            // An upsert by a uniqueness constraint, as `add(_:update:)` does.
            key = existingKey
        } else {
            key = .internalID(try nextInternalID(for: binding))
        }
        let existing = try record(in: binding, key: try tableKey(for: key, in: binding)).map {
            self.values(of: $0, in: binding)
        }
        if existing != nil, policy == .error {
            throw ObjDBError.primaryKeyExists(type: binding.schema.name, key: key.description)
        }
        var stored = existing ?? binding.properties.map { codec.zeroValue(of: $0.schema) }
        for property in binding.properties {
            guard let given = values[property.schema.name] else { continue }
            stored[property.position] = try storedValue(given, for: property, in: binding, policy: policy)
        }
        let keyBytes = try put(stored, key: key, in: binding, policy: policy)
        return (keyBytes, key)
    }

    /// The stored value of `value` for `property`.
    func storedValue(_ value: Any, for property: BoundProperty, in binding: TypeBinding, policy: UpdatePolicy) throws
        -> StoredValue
    {
        let storing = _StoringContext(writer: self, catalog: catalog, policy: policy)
        if property.schema.collection == .single {
            return try element(value, for: property, in: binding, storing: storing)
        }
        if let stored = value as? StoredValue { return stored }
        if isNil(value) { return .null }
        switch property.schema.collection {
        case .list, .set:
            if let persistable = value as? any Persistable { return try persistable._toStored(storing) }
            guard let elements = value as? [Any] else { throw mismatch(property, binding, value) }
            return .list(try elements.map { try element($0, for: property, in: binding, storing: storing) })
        case .map:
            if let persistable = value as? any Persistable { return try persistable._toStored(storing) }
            guard let entries = value as? [String: Any] else { throw mismatch(property, binding, value) }
            return .map(try entries.mapValues { try element($0, for: property, in: binding, storing: storing) })
        case .single:
            return try element(value, for: property, in: binding, storing: storing)
        }
    }

    private func element(_ value: Any, for property: BoundProperty, in binding: TypeBinding, storing: _StoringContext)
        throws -> StoredValue
    {
        if let stored = value as? StoredValue {
            if case .link(let type, let key) = stored {
                let target = try catalog.binding(named: type)
                guard type == property.schema.objectType,
                    try record(in: target, key: try tableKey(for: key, in: target)) != nil
                else {
                    throw ObjDBError.typeMismatch(
                        type: binding.schema.name, property: property.schema.name,
                        expected: "an existing \(property.schema.objectType ?? "object")", found: "\(stored)")
                }
            }
            return stored
        }
        if isNil(value) { return .null }
        switch property.schema.type {
        case .object:
            guard let targetName = property.schema.objectType else { throw mismatch(property, binding, value) }
            let target = try catalog.binding(named: targetName)
            if let object = value as? Object { return try storing.link(to: object) }
            if let fields = value as? [String: Any] {
                let (_, key) = try create(
                    target, from: fields, policy: storing.policy == .error ? .modified : storing.policy)
                return .link(type: targetName, key: key)
            }
            if let key = value as? any PrimaryKeyValue {
                guard try record(in: target, key: ObjectKeyCodec.encode(key._objectKey)) != nil else {
                    throw ObjDBError.typeMismatch(
                        type: binding.schema.name, property: property.schema.name,
                        expected: "an existing \(targetName)",
                        found: "\(key._objectKey)")
                }
                return .link(type: targetName, key: key._objectKey)
            }
            throw mismatch(property, binding, value)
        case .embedded:
            if let object = value as? EmbeddedObject { return try storing.embeddedValue(of: object) }
            guard let fields = value as? [String: Any], let name = property.schema.objectType else {
                throw mismatch(property, binding, value)
            }
            let embedded = try catalog.binding(named: name)
            var values: [String: StoredValue] = [:]
            for (key, field) in fields {
                guard let inner = embedded[key] else { throw ObjDBError.unknownProperty(type: name, property: key) }
                values[key] = try storedValue(field, for: inner, in: embedded, policy: storing.policy)
            }
            return .embedded(values)
        default:
            if let persistable = value as? any Persistable { return try persistable._toStored(storing) }
            throw mismatch(property, binding, value)
        }
    }

    private func isNil(_ value: Any) -> Bool {
        if value is NSNull { return true }
        let mirror = Mirror(reflecting: value)
        return mirror.displayStyle == .optional && mirror.children.isEmpty
    }

    private func mismatch(_ property: BoundProperty, _ binding: TypeBinding, _ value: Any) -> ObjDBError {
        .typeMismatch(
            type: binding.schema.name, property: property.schema.name, expected: property.schema.typeDescription,
            found: String(describing: Swift.type(of: value)))
    }
}

extension WriteScope {
    /// A dynamic value as the stored value of `property`, as an assignment stores it.
    func storedValue(_ value: Any, for property: BoundProperty, in binding: TypeBinding) throws -> StoredValue {
        try storedValue(value, for: property, in: binding, policy: .modified)
    }
}
