/// Deleting goes through here, so that an object's record, its index entries, its backlinks and
/// the links to it go together, in the one LMDB write transaction; a delete rule's cascade and
/// deny start here too (`WriteScope+DeleteRules`).
extension WriteScope {
    /// Deletes the object with table key `key`: nullifies links to it, removes it
    /// from lists, sets and maps, and removes its index entries and backlinks. `known` is its
    /// record, when the caller read it in this write.
    func delete(key: [UInt8], in binding: TypeBinding, record known: RecordReader? = nil, followingRules: Bool = true)
        throws
    {
        if known == nil, !deletedByRules.isEmpty,
            deletedByRules.contains(DeletedObject(type: binding.schema.name, key: key)),
            try record(in: binding, key: key) == nil
        {
            return  // a delete rule of this write deleted it already
        }
        if followingRules, !binding.ruledLinks.isEmpty {
            try deleteFollowingRules(key: key, in: binding, record: known)
            return
        }
        let transaction = try writeTransaction("delete \(binding.schema.name)")
        guard let table = binding.table, var reader = try known ?? record(in: binding, key: key) else {
            throw ObjDBError.objectInvalidated(type: binding.schema.name)
        }
        if binding.isLinkTarget {
            try unlinkIncoming(to: key, in: binding)
            // Unlinking rewrote other records (or this one, linking to itself): read it again.
            guard let current = try record(in: binding, key: key) else { return }
            reader = current
        }
        // Only what the indexes and backlinks need: the other fields are deleted unread. (In the
        // buffer adds reuse: deleting never adds.)
        var values = addedValuesBuffer
        addedValuesBuffer = []
        defer { addedValuesBuffer = values }
        if values.count == binding.properties.count {
            for position in values.indices { values[position] = .null }
        } else {
            values = [StoredValue](repeating: .null, count: binding.properties.count)
        }
        let codec = ValueCodec(schema: catalog.schemaIndex)
        for property in binding.bookkeepingProperties {
            values[property.position] = codec.decodeField(reader.field(property.slot), of: property.schema)
        }
        try updateIndexes(from: values, to: nil, key: key, in: binding)
        try updateBacklinks(from: values, to: nil, key: key, in: binding)
        try key.withUnsafeBytes {
            _ = try transaction.delete($0, in: table)
            if changes.isEnabled { changes.recordDeletion(of: $0, in: binding.schema.name) }
        }
        didWrite()
    }

    /// Deletes every object of a type, one by one, so links to them are cleared. `followingRules`
    /// is false when every type is emptied: a cascade has nothing left to add, a deny nothing to keep.
    func deleteAll(in binding: TypeBinding, followingRules: Bool = true) throws {
        for key in try allKeys(in: binding) {
            try delete(key: key, in: binding, followingRules: followingRules)
        }
    }
}
