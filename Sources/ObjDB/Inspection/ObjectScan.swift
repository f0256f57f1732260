/// The objects of one type that a query selects, read one at a time from one snapshot and
/// handed out in place (a pointer into LMDB's map), never collected: what `objdb-inspect`'s
/// `dump`, `export` and `get` read.
///
/// Without a sort, the objects come in table-key order straight from a cursor, and a filter is
/// checked on each record as it passes (an index narrows the search when the planner finds one
/// that does). A sort the planner cannot take from an index holds the matching keys (not the
/// records) in memory, as sqlite3's sorter does.
package struct ObjectScan {
    let view: ReadView
    let binding: TypeBinding
    let spec: QuerySpec
    /// The query, compiled once (so a bad filter fails in `init`).
    let query: PreparedQuery

    /// The objects of `type` in `view` matching `filter` (the string predicate syntax), in `sorts` order.
    ///
    /// A `SORT`, `DISTINCT` or `LIMIT` trailer in `filter` applies first, then `sorts` (ties kept in
    /// the trailer's order), then ``forEach(offset:limit:_:)``'s paging.
    ///
    /// - Throws: ``ObjDBError/unknownType(_:)``, the predicate's syntax and query errors.
    package init(view: ReadView, type: String, filter: String? = nil, sorts: [SortKey] = []) throws {
        self.view = view
        binding = try view.snapshot.catalog.binding(named: type)
        var spec = try ReadView.spec(filter: filter, arguments: [], sorts: sorts, limit: nil)
        if let filter = spec.filter { spec.filter = try view.resolvingObjectLiterals(filter, for: binding) }
        self.spec = spec
        query = try PreparedQuery(catalog: view.snapshot.catalog, binding: binding, spec: spec)
    }

    /// The type's stored schema.
    package var schema: ObjectSchema { binding.schema }

    /// Calls `body` with each selected object after the first `offset`, at most `limit` of them;
    /// `body` returns `false` to stop.
    ///
    /// - Throws: ``ObjDBError/corruptRecord(path:type:reason:)`` for a record that does not decode,
    ///   and what `body` throws.
    package func forEach(offset: Int = 0, limit: Int? = nil, _ body: (ScannedObject) throws -> Bool) throws {
        guard let table = binding.table, limit != 0 else { return }
        let catalog = view.snapshot.catalog
        let source = try view.snapshot.source()
        let transaction = source.transaction
        let residency = ResidentMap(path: catalog.path)
        var skipped = 0
        var delivered = 0
        func deliver(_ key: UnsafeRawBufferPointer, _ record: UnsafeRawBufferPointer) throws -> Bool {
            residency.note(key.count + record.count)
            guard let reader = RecordReader(validating: record) else {
                let label =
                    ObjectKeyCodec.decode(key, primaryKeyType: binding.primaryKey?.schema.type)
                    .map { "\(binding.schema.name)(\($0))" } ?? binding.schema.name
                throw ObjDBError.corruptRecord(
                    path: catalog.path, type: binding.schema.name,
                    reason: "the slot table of \(label) is inconsistent; objdb-inspect check lists every damaged record"
                )
            }
            if skipped < offset {
                skipped += 1
                return true
            }
            guard
                try body(
                    ScannedObject(key: key, reader: reader, binding: binding, schema: catalog.schemaIndex))
            else { return false }
            delivered += 1
            return limit.map { delivered < $0 } ?? true
        }

        func deliverKeys(_ keys: [[UInt8]]) throws {
            for key in keys {
                let keepGoing = try key.withUnsafeBytes { key -> Bool in
                    guard let record = try transaction.get(key, in: table) else { return true }
                    return try deliver(key, record)
                }
                if !keepGoing { return }
            }
        }

        let filter = query.filter
        let queryReader = QueryReader(source: source, readsDamagedAsEmpty: false)
        if spec.sorts.isEmpty, spec.distinctPaths.isEmpty, spec.limit == nil, spec.then.isEmpty {
            let (plan, _) = try QueryPlanner(catalog: catalog, binding: binding).plan(filter: spec.filter, sorts: [])
            var lower: KeyBound?
            var upper: KeyBound?
            switch plan {
            case .fullScan:
                break
            case .primaryKeyRange(let from, let to):
                (lower, upper) = (from, to)
            default:
                // An index narrows the search: only the matches' keys are held, then read in key order.
                try deliverKeys(try QueryExecution(source: source, binding: binding, spec: spec).keys())
                return
            }
            try transaction.cursor(table).forEach(from: lower, to: upper) { entry in
                if let filter {
                    guard let reader = RecordReader(header: entry.value) else {
                        return try deliver(entry.key, entry.value)
                    }
                    guard try filter.matches(reader, key: entry.key, in: queryReader) else {
                        residency.note(entry.key.count + entry.value.count)
                        return true
                    }
                }
                return try deliver(entry.key, entry.value)
            }
            return
        }
        var sorted = spec
        if let limit, !offset.addingReportingOverflow(limit).overflow {
            sorted = spec.ordered(by: [.limit(offset + limit)])
        }
        try deliverKeys(try QueryExecution(source: source, binding: binding, spec: sorted).keys())

    }

    /// The object with `key`, if there is one.
    ///
    /// - Throws: ``ObjDBError/corruptRecord(path:type:reason:)`` when its record is damaged.
    package func object<Result>(forKey key: ObjectKey, _ body: (ScannedObject) throws -> Result) throws -> Result? {
        guard let table = binding.table else { return nil }
        let keyBytes = ObjectKeyCodec.encode(key)
        let catalog = view.snapshot.catalog
        guard keyBytes.count <= catalog.maxKeySize else { return nil }
        let transaction = try view.snapshot.readTransaction()
        return try keyBytes.withUnsafeBytes { keyBytes -> Result? in
            guard let record = try transaction.get(keyBytes, in: table) else { return nil }
            guard let reader = RecordReader(validating: record) else {
                throw ObjDBError.corruptRecord(
                    path: catalog.path, type: binding.schema.name,
                    reason: "the slot table of \(binding.schema.name)(\(key)) is inconsistent; objdb-inspect check "
                        + "lists every damaged record")
            }
            return try body(
                ScannedObject(
                    key: keyBytes, reader: reader, binding: binding, schema: catalog.schemaIndex))
        }
    }
}

/// One object a scan hands out: its table key and record, in LMDB's map; valid only during the call.
package struct ScannedObject {
    let key: UnsafeRawBufferPointer
    let reader: RecordReader
    let binding: TypeBinding
    let schema: SchemaIndex

    /// The object's key.
    package var objectKey: ObjectKey? {
        ObjectKeyCodec.decode(key, primaryKeyType: binding.primaryKey?.schema.type)
    }

    /// The value of the stored property `property`, decoded.
    package func value(of property: PropertySchema) -> StoredValue {
        ValueCodec(schema: schema).decodeField(reader.field(Int(property.id)), of: property)
    }
}
