/// Uniqueness constraints over several properties: one LMDB database per constraint, mapping the
/// ``CompoundKeyCodec`` key of an object's values to its table key, kept in step with the records
/// by every put and delete of the write.
extension WriteScope {
    /// Throws when another object already holds the values `values` give a uniqueness constraint.
    func checkCompoundKeys(_ values: [StoredValue], old: [StoredValue]?, key: [UInt8], in binding: TypeBinding) throws {
        guard !binding.compoundKeys.isEmpty else { return }
        let transaction = try writeTransaction("uniqueness constraint")
        for compound in binding.compoundKeys {
            guard let index = compound.index else { continue }
            if let old, compound.properties.allSatisfy({ old[$0.position] == values[$0.position] }) { continue }
            guard let indexKey = try compoundIndexKey(values, compound, in: binding) else { continue }
            let holder = try indexKey.withUnsafeBytes { try transaction.get($0, in: index) }
            if let holder, !holder.elementsEqual(key) {
                throw ObjDBError.uniqueConstraintViolated(
                    type: binding.schema.name, property: compound.label,
                    value: "(" + compound.properties.map { values[$0.position].description }.joined(separator: ", ")
                        + ")")
            }
        }
    }

    /// Moves an object's entries in its type's constraint indexes from its `old` values to its `new` ones.
    func updateCompoundKeys(from old: [StoredValue]?, to new: [StoredValue]?, key: [UInt8], in binding: TypeBinding)
        throws
    {
        guard !binding.compoundKeys.isEmpty else { return }
        let transaction = try writeTransaction("uniqueness constraint")
        for compound in binding.compoundKeys {
            guard let index = compound.index else { continue }
            let before = try old.flatMap { try compoundIndexKey($0, compound, in: binding) }
            let after = try new.flatMap { try compoundIndexKey($0, compound, in: binding) }
            if before == after { continue }
            if let before { _ = try before.withUnsafeBytes { try transaction.delete($0, value: nil, in: index) } }
            if let after {
                try after.withUnsafeBytes { indexKey in
                    try key.withUnsafeBytes { _ = try transaction.put($0, forKey: indexKey, in: index) }
                }
            }
            didWrite()
        }
    }

    /// The table key of the stored object whose values for some uniqueness constraint of
    /// `binding` are those of `values` (a new object's, by property position), if one is.
    func keyOfObject(matchingConstraintsOf values: (BoundProperty) throws -> StoredValue, in binding: TypeBinding)
        throws -> [UInt8]?
    {
        let transaction = try writeTransaction("uniqueness constraint")
        for compound in binding.compoundKeys {
            guard let index = compound.index else { continue }
            var parts: [StoredValue] = []
            for property in compound.properties { parts.append(try values(property)) }
            guard case .key(let indexKey) = CompoundKeyCodec.entry(for: parts, maxKeySize: catalog.maxKeySize) else {
                continue
            }
            if let holder = try indexKey.withUnsafeBytes({ try transaction.get($0, in: index) }) {
                return Array(holder)
            }
        }
        return nil
    }

    /// Fills the index of `compound` from every stored object (a migration declared the constraint),
    /// throwing when two objects share its values.
    func buildCompoundIndex(_ compound: CompoundKey, in binding: TypeBinding) throws {
        let transaction = try writeTransaction("build uniqueness constraint")
        guard let index = compound.index else { return }
        try transaction.removeAll(in: index)
        for key in try allKeys(in: binding) {
            guard let reader = try record(in: binding, key: key) else { continue }
            let values = values(of: reader, in: binding)
            guard let indexKey = try compoundIndexKey(values, compound, in: binding) else { continue }
            if try indexKey.withUnsafeBytes({ try transaction.get($0, in: index) }) != nil {
                throw ObjDBError.uniqueConstraintViolated(
                    type: binding.schema.name, property: compound.label,
                    value: "(" + compound.properties.map { values[$0.position].description }.joined(separator: ", ")
                        + ")")
            }
            try indexKey.withUnsafeBytes { indexKey in
                try key.withUnsafeBytes { _ = try transaction.put($0, forKey: indexKey, in: index) }
            }
        }
        didWrite()
    }

    /// The key `values` give `compound`'s index; `nil` when one of them is `nil`.
    private func compoundIndexKey(_ values: [StoredValue], _ compound: CompoundKey, in binding: TypeBinding) throws
        -> [UInt8]?
    {
        let parts = compound.properties.map { values[$0.position] }
        switch CompoundKeyCodec.entry(for: parts, maxKeySize: catalog.maxKeySize) {
        case .key(let key): return key
        case .none: return nil
        case .tooLarge(let size):
            throw ObjDBError.keyTooLarge(
                size: size, maximum: catalog.maxKeySize,
                operation: "uniqueness constraint \(binding.schema.name)\(compound.label)")
        }
    }
}
