extension ReadView {
    /// The table key of the object `key` of `type`.
    package func tableKey(_ key: ObjectKey) -> [UInt8] {
        ObjectKeyCodec.encode(key)
    }

    /// The object key of a table key of `type`, or `nil` for a key that does not decode.
    package func objectKey(ofType type: String, tableKey key: [UInt8]) throws -> ObjectKey? {
        let binding = try snapshot.catalog.binding(named: type)
        return key.withUnsafeBytes { ObjectKeyCodec.decode($0, primaryKeyType: binding.primaryKey?.schema.type) }
    }

    /// The table keys of the objects of `sourceType` whose property `property` links to the object
    /// `key` of `type`, in key order, after the table key `after`, at most `limit`; and whether
    /// more follow. Read from the backlinks, one entry each: the cost of a page at any depth.
    ///
    /// - Throws: ``ObjDBError/unknownType(_:)``, ``ObjDBError/unknownProperty(type:property:)``.
    package func linkingKeys(
        to key: [UInt8], ofType type: String, from sourceType: String, property: String, after: [UInt8]? = nil,
        limit: Int
    ) throws -> (keys: [[UInt8]], hasMore: Bool) {
        var keys: [[UInt8]] = []
        var hasMore = false
        try forEachLinkingKey(to: key, ofType: type, from: sourceType, property: property, after: after) { source in
            if keys.count == limit {
                hasMore = true
                return false
            }
            keys.append(source)
            return true
        }
        return (keys, hasMore)
    }

    /// The number of objects of `sourceType` whose property `property` links to the object `key`
    /// of `type`, counted up to `cap` (a count past it reads as `cap`).
    package func linkingCount(
        to key: [UInt8], ofType type: String, from sourceType: String, property: String, cap: Int
    ) throws -> Int {
        var count = 0
        try forEachLinkingKey(to: key, ofType: type, from: sourceType, property: property, after: nil) { _ in
            count += 1
            return count < cap
        }
        return count
    }

    /// The types and properties that link to the object `key` of `type`, each with how many
    /// objects link through it, reading at most `cap` backlink entries in all.
    package func linkingGroups(to key: [UInt8], ofType type: String, cap: Int) throws -> [(
        type: String, property: String, count: Int
    )] {
        let catalog = snapshot.catalog
        guard let backlinks = catalog.backlinks else { return [] }
        let target = BacklinkCodec.targetKey(type: type, key: key)
        let cursor = try snapshot.readTransaction().cursor(backlinks)
        var entry = try target.withUnsafeBytes { try cursor.seek(exactly: $0) }
        var groups: [(type: String, property: String, count: Int)] = []
        var lastID: (String, UInt16)?
        var read = 0
        while let current = entry, read < cap {
            read += 1
            if let source = BacklinkCodec.source(current.value) {
                if let lastID, lastID.0 == source.typeName, lastID.1 == source.propertyID {
                    groups[groups.count - 1].count += 1
                } else {
                    let name =
                        catalog.bindings[source.typeName]?.properties.first { $0.schema.id == source.propertyID }?
                        .schema.name ?? "#\(source.propertyID)"
                    groups.append((source.typeName, name, 1))
                    lastID = (source.typeName, source.propertyID)
                }
            }
            entry = try cursor.nextValueOfKey()
        }
        return groups
    }

    private func forEachLinkingKey(
        to key: [UInt8], ofType type: String, from sourceType: String, property: String, after: [UInt8]?,
        _ body: ([UInt8]) throws -> Bool
    ) throws {
        let catalog = snapshot.catalog
        _ = try catalog.binding(named: type)
        let source = try catalog.binding(named: sourceType)
        guard let linking = source[property], linking.schema.type == .object, linking.schema.objectType == type else {
            throw ObjDBError.unknownProperty(type: sourceType, property: property)
        }
        guard let backlinks = catalog.backlinks else { return }
        let target = BacklinkCodec.targetKey(type: type, key: key)
        let prefix = BacklinkCodec.sourceValue(type: sourceType, propertyID: linking.schema.id, key: [UInt8]())
        let start = prefix + (after ?? [])
        let cursor = try snapshot.readTransaction().cursor(backlinks)
        var entry = try target.withUnsafeBytes { target in
            try start.withUnsafeBytes { try cursor.seek(target, valueAtLeast: $0) }
        }
        if let after, let first = entry, first.value.elementsEqual(prefix + after) {
            entry = try cursor.nextValueOfKey()
        }
        while let current = entry, current.value.starts(with: prefix) {
            guard try body(Array(current.value.dropFirst(prefix.count))) else { return }
            entry = try cursor.nextValueOfKey()
        }
    }
}

extension ScannedObject {
    /// The number of elements or entries of a stored collection property, without decoding them.
    package func elementCount(of property: PropertySchema) -> Int {
        guard case .bytes(let bytes) = reader.field(Int(property.id)) else { return 0 }
        return ValueCodec.elementCount(bytes)
    }
}
