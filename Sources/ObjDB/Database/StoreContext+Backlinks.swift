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
extension StoreContext {
    struct Backlink: Hashable {
        let targetType: String
        let targetKey: [UInt8]
        let propertyID: UInt16
    }

    /// The links `values` of a `binding` object hold, by the top-level property holding each.
    func links(in values: [StoredValue], of binding: TypeBinding) -> Set<Backlink> {
        var links = Set<Backlink>()
        for property in binding.properties where property.schema.type == .object || property.schema.type == .embedded {
            collectLinks(values[property.position], propertyID: property.schema.id, into: &links)
        }
        return links
    }

    private func collectLinks(_ value: StoredValue, propertyID: UInt16, into links: inout Set<Backlink>) {
        switch value {
        case .link(let type, let key):
            links.insert(Backlink(targetType: type, targetKey: ObjectKeyCodec.encode(key), propertyID: propertyID))
        case .list(let elements):
            for element in elements { collectLinks(element, propertyID: propertyID, into: &links) }
        case .map(let entries):
            for element in entries.values { collectLinks(element, propertyID: propertyID, into: &links) }
        case .embedded(let fields):
            for field in fields.values { collectLinks(field, propertyID: propertyID, into: &links) }
        default:
            break
        }
    }

    /// Adds and removes backlink entries for the links that changed between `old` and `new`.
    func updateBacklinks(from old: [StoredValue]?, to new: [StoredValue]?, key: [UInt8], in binding: TypeBinding) throws
    {
        guard let backlinks = database.backlinks else { return }
        let before = old.map { links(in: $0, of: binding) } ?? []
        let after = new.map { links(in: $0, of: binding) } ?? []
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
        for source in try incomingLinks(to: key, in: binding) {
            guard let sourceBinding = database.bindings[source.type],
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

    /// The sources linking to the object `key` of `binding`.
    func incomingLinks(to key: [UInt8], in binding: TypeBinding) throws -> [(
        type: String, propertyID: UInt16, key: [UInt8]
    )] {
        guard let backlinks = database.backlinks else { return [] }
        let targetKey = BacklinkCodec.targetKey(type: binding.schema.name, key: key)
        let cursor = try readTransaction().cursor(backlinks)
        var sources: [(type: String, propertyID: UInt16, key: [UInt8])] = []
        guard try targetKey.withUnsafeBytes({ try cursor.seek(exactly: $0) }) != nil else { return [] }
        var entry = try cursor.current()
        while let current = entry {
            if let source = BacklinkCodec.source(current.value) {
                sources.append((source.typeName, source.propertyID, source.key))
            }
            entry = try cursor.nextValueOfKey()
        }
        return sources
    }

    /// The objects of `Origin` linking to `accessor`'s object through `property`'s origin property.
    func linkingObjects<Origin: Object>(
        of accessor: ObjectAccessor, through property: BoundProperty, as type: Origin.Type
    ) throws -> [Origin] {
        guard let originName = property.schema.objectType, let originBinding = database.bindings[originName],
            let originProperty = property.schema.originProperty.flatMap({ originBinding[$0] })
        else { return [] }
        return try incomingLinks(to: accessor.key, in: accessor.binding)
            .filter { $0.type == originName && $0.propertyID == originProperty.schema.id }
            .compactMap { source in
                guard try record(in: originBinding, key: source.key) != nil,
                    let key = source.key.withUnsafeBytes({
                        ObjectKeyCodec.decode($0, primaryKeyType: originBinding.primaryKey?.schema.type)
                    })
                else { return nil }
                return makeObject(type, binding: originBinding, keyBytes: source.key, key: key)
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
        _ link: Backlink, source: String, sourceKey: [UInt8],
        _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Void
    ) throws {
        let target = BacklinkCodec.targetKey(type: link.targetType, key: link.targetKey)
        let value = BacklinkCodec.sourceValue(type: source, propertyID: link.propertyID, key: sourceKey)
        try target.withUnsafeBytes { target in try value.withUnsafeBytes { try body(target, $0) } }
    }
}
