/// Verifies a whole store: every record decodes, every index entry points at an
/// object holding its value and every object is indexed, every link reaches an
/// existing object, and the backlinks are exactly the links.
///
/// `objdb-inspect check` prints what this finds; tests run it after every step.
package struct StoreCheck {
    let database: Database

    package init(database: Database) {
        self.database = database
    }

    /// Every problem found, one sentence each; empty for a sound store.
    package func problems() throws -> [String] {
        // LMDB's own pages first: the checks below let LMDB walk every tree.
        let pageProblems = try PageCheck(environment: database.environment).problems()
        guard pageProblems.isEmpty else { return pageProblems.map(\.description) }
        return try database.read { view in
            let source = try view.snapshot.source()
            var problems: [String] = []
            var expectedBacklinks = Set<[UInt8]>()
            for binding in database.bindings.values.sorted(by: { $0.schema.name < $1.schema.name })
            where !binding.schema.isEmbedded {
                try checkObjects(of: binding, source: source, backlinks: &expectedBacklinks, problems: &problems)
                try checkIndexes(of: binding, source: source, problems: &problems)
            }
            try checkBacklinks(expected: expectedBacklinks, source: source, problems: &problems)
            return problems
        }
    }

    private func checkObjects(
        of binding: TypeBinding, source: RecordSource, backlinks: inout Set<[UInt8]>, problems: inout [String]
    ) throws {
        guard let table = binding.table else { return }
        let name = binding.schema.name
        let transaction = source.transaction
        var entries: [([UInt8], [UInt8])] = []
        try transaction.cursor(table).forEach { entry in
            entries.append((Array(entry.key), Array(entry.value)))
            return true
        }
        for (key, record) in entries {
            let label = key.withUnsafeBytes {
                ObjectKeyCodec.decode($0, primaryKeyType: binding.primaryKey?.schema.type)
            }.map { "\(name)(\($0))" }
            guard let label else {
                problems.append("\(name): a key of \(key.count) bytes does not decode")
                continue
            }
            let decoded = record.withUnsafeBytes { bytes in
                RecordReader(validating: bytes).map { source.values(of: $0, in: binding) }
            }
            guard let values = decoded else {
                problems.append("\(label): the record does not decode")
                continue
            }
            if let primaryKey = binding.primaryKey,
                let decoded = key.withUnsafeBytes({ ObjectKeyCodec.decode($0, primaryKeyType: primaryKey.schema.type) }
                ),
                values[primaryKey.position] != decoded.storedValue
            {
                problems.append("\(label): the primary-key property holds \(values[primaryKey.position])")
            }
            for property in binding.properties where property.schema.isIndexed {
                guard let index = property.index,
                    let indexKey = try Self.indexKey(values[property.position], for: property, in: binding, source)
                else { continue }
                let cursor = try transaction.cursor(index)
                var found = false
                try cursor.forEach(from: KeyBound(indexKey), to: KeyBound(indexKey)) { entry in
                    found = entry.value.elementsEqual(key)
                    return !found
                }
                if !found { problems.append("\(label): \(property.schema.name) is missing from its index") }
            }
            for link in binding.links(in: values) {
                guard let target = database.bindings[link.targetType],
                    (try? source.record(in: target, key: link.targetKey)) ?? nil != nil
                        || Self.exists(link.targetKey, in: target, source)
                else {
                    problems.append("\(label): a link to a missing \(link.targetType)")
                    continue
                }
                backlinks.insert(Self.backlink(link, source: name, sourceKey: key))
            }
        }
    }

    private func checkIndexes(of binding: TypeBinding, source: RecordSource, problems: inout [String]) throws {
        let transaction = source.transaction
        for property in binding.properties where property.schema.isIndexed {
            guard let index = property.index else { continue }
            var entries: [([UInt8], [UInt8])] = []
            try transaction.cursor(index).forEach { entry in
                entries.append((Array(entry.key), Array(entry.value)))
                return true
            }
            for (indexKey, objectKey) in entries {
                let label = "index \(binding.schema.name).\(property.schema.name)"
                guard Self.exists(objectKey, in: binding, source) else {
                    problems.append("\(label): an entry points at a missing object")
                    continue
                }
                // A damaged record is reported once, with the objects.
                guard let reader = try? source.record(in: binding, key: objectKey) else { continue }
                let value = source.values(of: reader, in: binding)[property.position]
                if try Self.indexKey(value, for: property, in: binding, source) != indexKey {
                    problems.append("\(label): an entry does not match its object's value \(value)")
                }
            }
        }
    }

    private func checkBacklinks(expected: Set<[UInt8]>, source: RecordSource, problems: inout [String]) throws {
        guard let backlinks = database.backlinks else { return }
        var stored = Set<[UInt8]>()
        try source.transaction.cursor(backlinks).forEach { entry in
            stored.insert(Array(entry.key) + [0xFF] + Array(entry.value))
            return true
        }
        let missing = expected.subtracting(stored).count
        let extra = stored.subtracting(expected).count
        if missing > 0 { problems.append("backlinks: \(missing) link(s) have no backlink") }
        if extra > 0 { problems.append("backlinks: \(extra) backlink(s) match no link") }
    }

    /// Whether the table holds the key, whatever its record looks like.
    private static func exists(_ key: [UInt8], in binding: TypeBinding, _ source: RecordSource) -> Bool {
        guard let table = binding.table else { return false }
        let transaction = source.transaction
        return ((try? key.withUnsafeBytes { try transaction.get($0, in: table) }) ?? nil) != nil
    }

    private static func backlink(_ link: TypeBinding.Link, source: String, sourceKey: [UInt8]) -> [UInt8] {
        let target =
            [UInt8(truncatingIfNeeded: link.targetType.utf8.count)] + Array(link.targetType.utf8) + link.targetKey
        let value =
            [UInt8(truncatingIfNeeded: source.utf8.count)] + Array(source.utf8)
            + [UInt8(link.propertyID >> 8), UInt8(link.propertyID & 0xFF)] + sourceKey
        return target + [0xFF] + value
    }

    /// The key the index of `property` holds for `value`, as the write path puts it.
    private static func indexKey(
        _ value: StoredValue, for property: BoundProperty, in binding: TypeBinding, _ source: RecordSource
    ) throws -> [UInt8]? {
        switch IndexKeyCodec.entry(
            for: value, unique: property.schema.index == .unique, maxKeySize: source.catalog.maxKeySize)
        {
        case .key(let key): return key
        case .none: return nil
        case .tooLarge(let size):
            throw ObjDBError.keyTooLarge(
                size: size, maximum: source.catalog.maxKeySize,
                operation: "unique index \(binding.schema.name).\(property.schema.name)")
        }
    }
}
