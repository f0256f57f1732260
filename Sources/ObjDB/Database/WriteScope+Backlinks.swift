/// Backlinks: for every link, an entry from the linked object back to the linking one, in the
/// same transaction as the link. They answer ``LinkingObjects`` and let a delete find
/// every link to clear, without scanning.
///
/// Database `objdb.backlinks` (`MDB_DUPSORT`). Key: `u8` length of the target
/// type's name, the name, the target's table key. Value: `u8` length of the
/// source type's name, the name, `u16` big-endian source property ID, the
/// source's table key. One entry per (source, property, target), however often
/// the property links to the target; a link inside an embedded object counts
/// for the owner's property that holds the embedded object.
extension WriteScope {
    /// Adds and removes backlink entries for the links that changed between `old` and `new`.
    func updateBacklinks(from old: [StoredValue]?, to new: [StoredValue]?, key: [UInt8], in binding: TypeBinding) throws
    {
        guard let backlinks = catalog.backlinks, !binding.linkProperties.isEmpty else { return }
        let before = old.map { binding.links(in: $0) } ?? []
        let after = new.map { binding.links(in: $0) } ?? []
        if before == after { return }
        let transaction = try writeTransaction("backlinks")
        for link in before.subtracting(after) {
            try withBacklink(link, source: binding.schema.name, sourceKey: key) { target, source in
                _ = try transaction.delete(target, value: source, in: backlinks)
            }
        }
        for link in after.subtracting(before) {
            try withBacklink(link, source: binding.schema.name, sourceKey: key) { target, source in
                _ = try transaction.put(source, forKey: target, in: backlinks)
            }
        }
        didWrite()
    }

    /// Clears every link to the object `key` of `binding`: nulls to-one links, removes it from lists, sets and maps.
    func unlinkIncoming(to key: [UInt8], in binding: TypeBinding) throws {
        let target = StoredValue.link(
            type: binding.schema.name,
            key: key.withUnsafeBytes { ObjectKeyCodec.decode($0, primaryKeyType: binding.primaryKey?.schema.type) }
                ?? .internalID(0))
        for source in try snapshot.source().incomingLinks(to: key, in: binding) {
            guard let sourceBinding = catalog.bindings[source.typeName],
                let property = sourceBinding.properties.first(where: { $0.schema.id == source.propertyID }),
                let reader = try record(in: sourceBinding, key: source.key)
            else { continue }
            var values = self.values(of: reader, in: sourceBinding)
            values[property.position] = Self.removing(target, from: values[property.position])
            let sourceKey = source.key.withUnsafeBytes {
                ObjectKeyCodec.decode($0, primaryKeyType: sourceBinding.primaryKey?.schema.type)
            }
            guard let sourceKey else { continue }
            try put(values, key: sourceKey, in: sourceBinding, policy: .modified)
        }
    }

    /// `value` without any link to `target`.
    static func removing(_ target: StoredValue, from value: StoredValue) -> StoredValue {
        switch value {
        case target: return .null
        case .list(let elements):
            return .list(elements.filter { $0 != target }.map { removing(target, from: $0) })
        case .map(let entries):
            return .map(entries.filter { $0.value != target }.mapValues { removing(target, from: $0) })
        case .embedded(let fields):
            return .embedded(fields.mapValues { removing(target, from: $0) })
        default:
            return value
        }
    }

    private func withBacklink(
        _ link: TypeBinding.Link, source: String, sourceKey: [UInt8],
        _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Void
    ) throws {
        let target = BacklinkCodec.targetKey(type: link.targetType, key: link.targetKey)
        let value = BacklinkCodec.sourceValue(type: source, propertyID: link.propertyID, key: sourceKey)
        try target.withUnsafeBytes { target in try value.withUnsafeBytes { try body(target, $0) } }
    }
}
