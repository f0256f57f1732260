/// A query over one type, prepared for a scan above the core that hands out the matching records
/// one at a time without collecting them (`objdb-inspect`'s `dump`, `export` and `get`): the query
/// layer as the package sees it.
package struct ScanQuery {
    private let query: PreparedQuery

    /// The type the query selects from.
    package var binding: TypeBinding { query.binding }

    /// The objects of the type named `type` in `view` that match `filter` (the string predicate
    /// syntax), in `sorts` order: a `SORT`, `DISTINCT` or `LIMIT` trailer in `filter` applies
    /// first, then `sorts` (ties kept in the trailer's order).
    ///
    /// - Throws: ``ObjDBError/unknownType(_:)``, the predicate's syntax and query errors.
    package init(type: String, filter: String?, sorts: [SortKey], in view: ReadView) throws {
        let catalog = view.snapshot.catalog
        let binding = try catalog.binding(named: type)
        var spec = try ReadView.spec(filter: filter, arguments: [], sorts: sorts, limit: nil)
        if let filter = spec.filter { spec.filter = try view.resolvingObjectLiterals(filter, for: binding) }
        query = try PreparedQuery(catalog: catalog, binding: binding, spec: spec)
    }

    /// How a scan reads the matches, in the results' order.
    package enum Walk {
        /// The type's table between two bounds (`nil`: from its start, to its end), in key order:
        /// every record the filter (when there is one) passes matches.
        case table(lower: KeyBound?, upper: KeyBound?, filter: RecordFilter?)
        /// These table keys, in this order: every one matches. An index or a sort found them.
        case keys([[UInt8]])
    }

    /// How to read the matches in `source`, when only the first `count` of them (`nil`: all) are
    /// wanted: without an order to impose, a walk of the table (or of the primary-key range the
    /// filter allows) holding nothing; otherwise the matches' keys, not their records.
    ///
    /// A `deadline` bounds the query's work: finding the keys, and each record the returned
    /// filter tests; past it they throw ``ObjDBError/Code/queryTimedOut`` or
    /// ``ObjDBError/Code/queryCancelled``.
    package func walk(first count: Int?, in source: RecordSource, deadline: QueryDeadline? = nil) throws -> Walk {
        let spec = query.spec
        var reader = QueryReader(source: source, readsDamagedAsEmpty: false)
        if let deadline { reader.budget = QueryBudget(deadline, typeName: query.binding.schema.name) }
        guard spec.sorts.isEmpty, spec.distinctPaths.isEmpty, spec.limit == nil, spec.then.isEmpty else {
            return .keys(try (count.map { query.limited(to: $0) } ?? query).matches(reader).keys)
        }
        let filter = try query.wholeFilter().map { RecordFilter(program: $0, reader: reader) }
        switch query.plan {
        case .fullScan:
            return .table(lower: nil, upper: nil, filter: filter)
        case .primaryKeyRange(let lower, let upper):
            return .table(lower: lower, upper: upper, filter: filter)
        default:
            // An index narrows the search: only the matches' keys are held, in key order.
            return .keys(try query.matches(reader).keys)
        }
    }
}

/// A query's filter as a test of one record of its type, on the record's bytes.
package struct RecordFilter {
    let program: FilterProgram
    let reader: QueryReader

    /// Whether `record`, the record of the object with table key `key`, matches.
    ///
    /// - Throws: ``ObjDBError/corruptRecord(path:type:reason:)`` for a damaged linked record the
    ///   filter reads.
    package func matches(_ record: RecordReader, key: UnsafeRawBufferPointer) throws -> Bool {
        try reader.budget?.spend()
        return try program.matches(record, key: key, in: reader)
    }
}
