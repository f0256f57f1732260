/// Every object write goes through here, so that the record, its indexes and its
/// backlinks change together, in the one LMDB write transaction.
extension WriteScope {
    /// Adds an unmanaged object (and the unmanaged objects it links to), or returns a managed one's key.
    @discardableResult
    func add(_ object: ObjectBase, policy: UpdatePolicy) throws -> (TypeBinding, ObjectKey) {
        let binding = try catalog.binding(for: type(of: object))
        if let accessor = object.accessor {
            guard accessor.snapshot.catalog === catalog else {
                throw ObjDBError.invalidSchema(
                    type: binding.schema.name, reason: "the object is managed by another database; add a copy")
            }
            // Checked in this transaction: the object may be gone since its own view's snapshot.
            guard try record(in: binding, key: accessor.key) != nil else {
                throw ObjDBError.objectInvalidated(type: binding.schema.name)
            }
            return (binding, accessor.objectKey)
        }
        if !objectsBeingAdded.isEmpty, let adding = objectsBeingAdded[ObjectIdentifier(object)] { return adding }
        guard !binding.schema.isEmbedded else {
            throw ObjDBError.invalidSchema(
                type: binding.schema.name, reason: "embedded objects are added with their owner")
        }

        let storing = _StoringContext(writer: self, catalog: catalog, policy: policy)
        let discovered = try binding.discovered ?? DiscoveredType.of(type(of: object))
        let key: ObjectKey
        if binding.primaryKey != nil {
            let ordinal = binding.primaryKeyOrdinal!
            key = try objectKey(from: try discovered.storedValue(of: object, ordinal: ordinal, storing), in: binding)
        } else if policy != .error, !binding.compoundKeys.isEmpty,
            let existing = try keyOfObject(
                matchingConstraintsOf: { property in
                    // Constrained properties hold values, never links: reading them adds nothing.
                    let ordinal = binding.propertiesByOrdinal.firstIndex { $0 === property }!
                    return try discovered.storedValue(of: object, ordinal: ordinal, storing)
                }, in: binding),
            let existingKey = binding.objectKey(fromTableKey: existing)
        {
            // An upsert by a uniqueness constraint: the stored object with the same values is updated.
            key = existingKey
        } else {
            key = .internalID(try nextInternalID(for: binding))
        }
        // Linked objects are added before this one is stored: an existing key must fail first.
        if policy == .error, binding.primaryKey != nil, binding.hasLinks,
            try record(in: binding, key: try tableKey(for: key, in: binding)) != nil
        {
            throw ObjDBError.primaryKeyExists(type: binding.schema.name, key: key.description)
        }
        // Only a type with links (or embedded objects, which may link) can reach this object again
        // while it is stored; the others skip the two hash-table updates per add.
        if binding.hasLinks { objectsBeingAdded[ObjectIdentifier(object)] = (binding, key) }
        defer { if binding.hasLinks { objectsBeingAdded[ObjectIdentifier(object)] = nil } }

        let writesBefore = writeCount
        let keyBytes: [UInt8]
        do {
            var values = addedValuesBuffer
            addedValuesBuffer = []
            defer { addedValuesBuffer = values }
            let count = binding.properties.count
            // Reused only when every position is written below: no value of another object stays.
            if values.count != count || binding.positionsByOrdinal.count != count {
                values = [StoredValue](repeating: .null, count: count)
            }
            try discovered.storeValues(of: object, into: &values, positions: binding.positionsByOrdinal, storing)
            // A typed property gives its stored type's value: nothing to make canonical.
            keyBytes = try put(values, key: key, in: binding, policy: policy, isCanonical: true)
        } catch {
            // Linked objects this add stored stay in the transaction: it must not commit.
            if writeCount != writesBefore, deferredError == nil { deferredError = error }
            throw error
        }
        object.accessor = ObjectAccessor(snapshot: snapshot, binding: binding, key: keyBytes, objectKey: key)
        return (binding, key)
    }

    /// The object key a primary-key value gives.
    func objectKey(from value: StoredValue, in binding: TypeBinding) throws -> ObjectKey {
        guard let primaryKey = binding.primaryKey,
            let key = ObjectKeyCodec.key(fromPrimaryKey: value, type: primaryKey.schema.type)
        else {
            throw ObjDBError.typeMismatch(
                type: binding.schema.name, property: binding.primaryKey?.schema.name ?? "(primary key)",
                expected: binding.primaryKey?.schema.typeDescription ?? "a primary key", found: value.kindName)
        }
        return key
    }

    /// The table key of `key`, checked against LMDB's key size limit.
    ///
    /// A backlink entry holds a table key behind a type name, so the limit leaves room for the longest one.
    func tableKey(for key: ObjectKey, in binding: TypeBinding) throws -> [UInt8] {
        let keyBytes = ObjectKeyCodec.encode(key)
        let maximum = catalog.maxTableKeySize
        if keyBytes.count > maximum {
            throw ObjDBError.keyTooLarge(
                size: keyBytes.count, maximum: maximum, operation: "primary key of \(binding.schema.name)")
        }
        return keyBytes
    }

    /// Stores an object's values under `key`, inserting or updating by `policy`, and keeps its
    /// indexes and backlinks in step. `isCanonical`: the values already have their properties'
    /// stored types (they came from typed properties).
    ///
    /// - Returns: the table key.
    @discardableResult
    package func put(
        _ values: [StoredValue], key: ObjectKey, in binding: TypeBinding, policy: UpdatePolicy,
        isCanonical: Bool = false
    ) throws -> [UInt8] {
        let transaction = try writeTransaction("add \(binding.schema.name)")
        guard let table = binding.table else { throw ObjDBError.unknownType(binding.schema.name) }
        let keyBytes = try tableKey(for: key, in: binding)
        var values = values
        if !isCanonical {
            let codec = ValueCodec(schema: catalog.schemaIndex)
            for property in binding.properties {
                values[property.position] = codec.canonical(values[property.position], for: property.schema)
            }
        }
        // Under `.error` an existing object fails the put below (MDB_NOOVERWRITE): no lookup first.
        let oldRecord = policy == .error ? nil : try record(in: binding, key: keyBytes)
        let old = oldRecord.map { self.values(of: $0, in: binding) }
        if let old, policy == .modified, old == values { return keyBytes }
        try checkUniqueIndexes(values, old: old, key: keyBytes, in: binding)

        // Internal IDs only grow, so a new object usually goes at the end of the table
        // (MDB_APPEND skips the search); one added after a later ID (a linked object
        // added first) is put in its place.
        let options: PutOptions =
            old == nil && binding.primaryKey == nil ? .append : policy == .error ? .noOverwrite : []
        let preserving = preservesRemovedProperties ? oldRecord : nil
        try keyBytes.withUnsafeBytes { keyBuffer in
            guard preserving == nil else {
                // The old record's fields are copied into the new one: it cannot be encoded where LMDB may
                // reserve the new one (over the old).
                let record = try binding.codec.encode(values, preserving: preserving)
                try record.withUnsafeBytes { value in
                    _ = try transaction.put(value, forKey: keyBuffer, in: table, options: options)
                }
                return
            }
            // Encoded once, straight into the space LMDB reserves for it (MDB_RESERVE).
            let size = try binding.codec.size(of: values)
            let fill = { (buffer: UnsafeMutableRawBufferPointer) in
                do {
                    try binding.codec.encode(values, into: buffer, size: size)
                } catch {
                    // The space is reserved in the transaction, unfilled: it must not commit.
                    if self.deferredError == nil { self.deferredError = error }
                    throw error
                }
            }
            if try !transaction.put(
                reserving: size.byteCount, forKey: keyBuffer, in: table, options: options, fill: fill)
            {
                guard options == .append else {
                    throw ObjDBError.primaryKeyExists(type: binding.schema.name, key: key.description)
                }
                try transaction.put(reserving: size.byteCount, forKey: keyBuffer, in: table, fill: fill)
            }
        }
        didWrite()
        // Only while someone watches: the changed IDs and the type name cost a put otherwise.
        if changes.isEnabled {
            recordPut(of: keyBytes, old: old, new: values, in: binding, policy: policy)
        }
        try updateIndexes(from: old, to: values, key: keyBytes, in: binding)
        try updateBacklinks(from: old, to: values, key: keyBytes, in: binding)
        return keyBytes
    }

    /// Logs a put: an insertion, or a modification of the properties whose values changed (every
    /// one under `.all`).
    private func recordPut(
        of key: [UInt8], old: [StoredValue]?, new values: [StoredValue], in binding: TypeBinding, policy: UpdatePolicy
    ) {
        key.withUnsafeBytes { key in
            if let old {
                let changed =
                    policy == .all
                    ? binding.properties.map(\.schema.id)
                    : zip(binding.properties, zip(old, values)).compactMap { $1.0 == $1.1 ? nil : $0.schema.id }
                changes.recordModification(of: key, properties: changed, in: binding.schema.name)
            } else {
                changes.recordInsertion(of: key, in: binding.schema.name)
            }
        }
    }

    /// Replaces one property's value of a managed object (or of the embedded object it reaches).
    func setValue(_ value: StoredValue, of property: BoundProperty, in accessor: ObjectAccessor) throws {
        if let owner = accessor.owner {
            guard let reader = try accessor.reader() else {
                throw ObjDBError.objectInvalidated(type: accessor.binding.schema.name)
            }
            var values = self.values(of: reader, in: accessor.binding)
            values[property.position] = value
            let embedded = StoredValue.embedded(
                Dictionary(uniqueKeysWithValues: zip(accessor.binding.schema.properties.map(\.name), values)))
            let replacement: StoredValue
            if let element = owner.element {
                guard let ownerReader = try owner.accessor.reader(),
                    case .list(var elements) = self.values(of: ownerReader, in: owner.accessor.binding)[
                        owner.property.position], element < elements.count
                else { throw ObjDBError.objectInvalidated(type: accessor.binding.schema.name) }
                elements[element] = embedded
                replacement = .list(elements)
            } else {
                replacement = embedded
            }
            try setValue(replacement, of: owner.property, in: owner.accessor)
            return
        }
        guard let reader = try accessor.reader() else {
            throw ObjDBError.objectInvalidated(type: accessor.binding.schema.name)
        }
        if try patchInPlace(value, of: property, in: accessor, reader: reader) { return }
        var values = self.values(of: reader, in: accessor.binding)
        if property.schema.isPrimaryKey, values[property.position] != value {
            throw ObjDBError.primaryKeyChanged(type: accessor.binding.schema.name)
        }
        values[property.position] = value
        try put(values, key: accessor.objectKey, in: accessor.binding, policy: .modified)
    }

    /// Replaces one field of the record, copying the other fields' bytes as they are, when the
    /// property ``BoundProperty/patchesInPlace``.
    ///
    /// - Returns: whether the value was written this way.
    private func patchInPlace(
        _ value: StoredValue, of property: BoundProperty, in accessor: ObjectAccessor, reader: RecordReader
    ) throws -> Bool {
        guard property.patchesInPlace, let table = accessor.binding.table else { return false }
        let codec = ValueCodec(schema: catalog.schemaIndex)
        let canonical = codec.canonical(value, for: property.schema)
        if codec.decodeField(reader.field(property.slot), of: property.schema) == canonical { return true }
        let typeName = accessor.binding.schema.name
        let edit = try RecordEdit(reader, slot: property.slot) {
            try codec.encodeField(canonical, of: property.schema, in: typeName, into: &$0)
        }
        let transaction = try writeTransaction("set \(typeName).\(property.schema.name)")
        // Written into the write's scratch space, then put: the old record's bytes are read while
        // writing. (Not a temporary allocation: its closure retained and released everything it
        // captured, a fifth of W7's update; BENCHMARKS.md.)
        let buffer = recordScratch(edit.byteCount)
        try edit.write(into: buffer) { try codec.encodeField(canonical, of: property.schema, in: typeName, into: &$0) }
        let key = accessor.key
        try key.withUnsafeBytes { key in
            _ = try transaction.put(UnsafeRawBufferPointer(buffer), forKey: key, in: table)
            if changes.isEnabled {
                changes.recordModification(of: key, properties: [property.schema.id], in: typeName)
            }
        }
        didWrite()
        return true
    }
}
