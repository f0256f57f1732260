/// Secondary indexes: one LMDB database per indexed property.
///
/// A regular index is `MDB_DUPSORT`: key = the value's ``KeyEncoding``, values =
/// the table keys of the objects holding it. A unique index maps the value's
/// encoding to the one table key holding it, and holds no `nil`s.
extension WriteScope {
    /// The index key of `value`; `nil` when the index does not hold it (`nil` in a unique index).
    func indexKey(_ value: StoredValue, for property: BoundProperty, in binding: TypeBinding) throws -> [UInt8]? {
        let unique = property.schema.index == .unique
        switch IndexKeyCodec.entry(for: value, unique: unique, maxKeySize: catalog.maxKeySize) {
        case .key(let key): return key
        case .none: return nil
        case .tooLarge(let size):
            throw ObjDBError.keyTooLarge(
                size: size, maximum: catalog.maxKeySize,
                operation: "unique index \(binding.schema.name).\(property.schema.name)")
        }
    }

    /// Throws when a unique index already holds one of `values` for another object.
    func checkUniqueIndexes(_ values: [StoredValue], old: [StoredValue]?, key: [UInt8], in binding: TypeBinding) throws
    {
        try checkCompoundKeys(values, old: old, key: key, in: binding)
        guard !binding.uniqueProperties.isEmpty else { return }
        let transaction = try writeTransaction("index")
        for property in binding.uniqueProperties {
            guard let index = property.index else { continue }
            let value = values[property.position]
            if let old, old[property.position] == value { continue }
            guard let indexKey = try indexKey(value, for: property, in: binding) else { continue }
            let holder = try indexKey.withUnsafeBytes { try transaction.get($0, in: index) }
            if let holder, !holder.elementsEqual(key) {
                throw ObjDBError.uniqueConstraintViolated(
                    type: binding.schema.name, property: property.schema.name, value: value.description)
            }
        }
    }

    /// Moves an object's index entries from its `old` values to its `new` ones (`nil`: none).
    func updateIndexes(from old: [StoredValue]?, to new: [StoredValue]?, key: [UInt8], in binding: TypeBinding) throws {
        try updateCompoundKeys(from: old, to: new, key: key, in: binding)
        guard !binding.indexedProperties.isEmpty else { return }
        let transaction = try writeTransaction("index")
        for property in binding.indexedProperties {
            guard let index = property.index else { continue }
            let before = old?[property.position]
            let after = new?[property.position]
            if before == after { continue }
            if property.schema.index == .fullText {
                try updateFullText(property, from: before, to: after, key: key, in: binding)
                continue
            }
            let isUnique = property.schema.index == .unique
            if let before {
                try withIndexKey(before, for: property, unique: isUnique, in: binding) { indexKey in
                    try key.withUnsafeBytes { value in
                        _ = try transaction.delete(indexKey, value: isUnique ? nil : value, in: index)
                    }
                }
            }
            if let after {
                try withIndexKey(after, for: property, unique: isUnique, in: binding) { indexKey in
                    try key.withUnsafeBytes { _ = try transaction.put($0, forKey: indexKey, in: index) }
                }
            }
        }
        didWrite()
    }

    /// Calls `body` with the index key of `value` (not when the index holds none), built in the
    /// write's reused buffer.
    private func withIndexKey(
        _ value: StoredValue, for property: BoundProperty, unique: Bool, in binding: TypeBinding,
        _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        var buffer = indexKeyBuffer
        indexKeyBuffer = []
        defer {
            buffer.removeAll(keepingCapacity: true)
            indexKeyBuffer = buffer
        }
        let maximum = catalog.maxKeySize
        switch IndexKeyCodec.build(value, into: &buffer, unique: unique, maxKeySize: maximum) {
        case .key:
            try buffer.withUnsafeBytes(body)
        case .none:
            return
        case .tooLarge(let size):
            throw ObjDBError.keyTooLarge(
                size: size, maximum: maximum, operation: "unique index \(binding.schema.name).\(property.schema.name)")
        }
    }

    /// Fills the index of `property` from every stored object (a migration added it).
    func buildIndex(of property: BoundProperty, in binding: TypeBinding) throws {
        if property.schema.index == .fullText { return try buildFullTextIndex(of: property, in: binding) }
        let transaction = try writeTransaction("build index")
        guard let index = property.index else { return }
        try transaction.removeAll(in: index)
        for key in try allKeys(in: binding) {
            guard let reader = try record(in: binding, key: key) else { continue }
            let value = values(of: reader, in: binding)[property.position]
            try checkUniqueIndexes(
                binding.properties.map { $0 === property ? value : .null }, old: nil, key: key, in: binding)
            guard let indexKey = try indexKey(value, for: property, in: binding) else { continue }
            try indexKey.withUnsafeBytes { indexKey in
                try key.withUnsafeBytes { _ = try transaction.put($0, forKey: indexKey, in: index) }
            }
        }
        didWrite()
    }
}
