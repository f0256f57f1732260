import ObjDB

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
    /// The query, compiled once (so a bad filter fails in `init`).
    let query: ScanQuery

    /// The objects of `type` in `view` matching `filter` (the string predicate syntax), in `sorts` order.
    ///
    /// A `SORT`, `DISTINCT` or `LIMIT` trailer in `filter` applies first, then `sorts` (ties kept in
    /// the trailer's order), then ``forEach(offset:limit:_:)``'s paging.
    ///
    /// - Throws: ``ObjDBError/unknownType(_:)``, the predicate's syntax and query errors.
    package init(view: ReadView, type: String, filter: String? = nil, sorts: [SortKey] = []) throws {
        self.view = view
        query = try ScanQuery(type: type, filter: filter, sorts: sorts, in: view)
        binding = query.binding
    }

    /// The type's stored schema.
    package var schema: ObjectSchema { binding.schema }

    /// Calls `body` with each selected object after the first `offset`, at most `limit` of them;
    /// `body` returns `false` to stop. A `deadline` bounds the query's work (not `body`'s).
    ///
    /// - Throws: ``ObjDBError/corruptRecord(path:type:reason:)`` for a record that does not decode,
    ///   `queryTimedOut` or `queryCancelled` past the deadline, and what `body` throws.
    package func forEach(
        offset: Int = 0, limit: Int? = nil, deadline: QueryDeadline? = nil, _ body: (ScannedObject) throws -> Bool
    ) throws {
        guard let table = binding.table, limit != 0 else { return }
        let database = view.database
        let source = try view.recordSource()
        let transaction = source.transaction
        let residency = ResidentMap(path: database.configuration.path)
        var skipped = 0
        var delivered = 0
        func deliver(_ key: UnsafeRawBufferPointer, _ record: UnsafeRawBufferPointer) throws -> Bool {
            residency.note(key.count + record.count)
            guard let reader = RecordReader(validating: record) else {
                let label =
                    ObjectKeyCodec.decode(key, primaryKeyType: binding.primaryKey?.schema.type)
                    .map { "\(binding.schema.name)(\($0))" } ?? binding.schema.name
                throw ObjDBError.corruptRecord(
                    path: database.configuration.path, type: binding.schema.name,
                    reason: "the slot table of \(label) is inconsistent; objdb-inspect check lists every damaged record"
                )
            }
            if skipped < offset {
                skipped += 1
                return true
            }
            guard
                try body(
                    ScannedObject(key: key, reader: reader, binding: binding, schema: database.schemaIndex))
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

        var wanted: Int?
        if let limit, !offset.addingReportingOverflow(limit).overflow { wanted = offset + limit }
        switch try query.walk(first: wanted, in: source, deadline: deadline) {
        case .keys(let keys):
            try deliverKeys(keys)
        case .table(let lower, let upper, let filter):
            try transaction.cursor(table).forEach(from: lower, to: upper) { entry in
                if let filter {
                    guard let reader = RecordReader(header: entry.value) else {
                        return try deliver(entry.key, entry.value)
                    }
                    guard try filter.matches(reader, key: entry.key) else {
                        residency.note(entry.key.count + entry.value.count)
                        return true
                    }
                }
                return try deliver(entry.key, entry.value)
            }
        }
    }

    /// The object with `key`, if there is one.
    ///
    /// - Throws: ``ObjDBError/corruptRecord(path:type:reason:)`` when its record is damaged.
    package func object<Result>(forKey key: ObjectKey, _ body: (ScannedObject) throws -> Result) throws -> Result? {
        guard let table = binding.table else { return nil }
        let keyBytes = ObjectKeyCodec.encode(key)
        let database = view.database
        guard keyBytes.count <= database.environment.maxKeySize else { return nil }
        let transaction = try view.recordSource().transaction
        return try keyBytes.withUnsafeBytes { keyBytes -> Result? in
            guard let record = try transaction.get(keyBytes, in: table) else { return nil }
            guard let reader = RecordReader(validating: record) else {
                throw ObjDBError.corruptRecord(
                    path: database.configuration.path, type: binding.schema.name,
                    reason: "the slot table of \(binding.schema.name)(\(key)) is inconsistent; objdb-inspect check "
                        + "lists every damaged record")
            }
            return try body(
                ScannedObject(
                    key: keyBytes, reader: reader, binding: binding, schema: database.schemaIndex))
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
