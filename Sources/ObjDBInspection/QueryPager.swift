import ObjDB

/// Where a page starts: what `objdb-inspect serve` asks a ``QueryPager`` for.
package enum PagePosition: Hashable, Sendable {
    /// The first page.
    case first
    /// The last page.
    case last
    /// The page after the object at a cursor.
    case after(PageCursor)
    /// The page before the object at a cursor.
    case before(PageCursor)
}

/// One page of a query: its objects' table keys in the query's order, a cursor for each, and
/// whether pages lie before and after it.
package struct QueryPage {
    package var keys: [[UInt8]] = []
    package var cursors: [PageCursor] = []
    package var hasPrevious = false
    package var hasNext = false
}

/// Pages through the objects a query selects, by key (keyset pagination), as Datasette and
/// GitHub's API do: a page starts after (or ends before) the last object of the page before,
/// named by its sort values and table key, so the next and the previous page cost the same at
/// any depth, and a commit between two pages neither repeats nor skips an object. The walks
/// that find a page are the core's ``KeysetQuery``; a query with `DISTINCT` or `LIMIT` (which
/// needs the whole answer) pages by position.
///
/// Every page and count spends a ``QueryDeadline``.
package struct QueryPager {
    let view: ReadView
    let query: KeysetQuery

    /// A pager over the objects of `type` that `filter` selects (the predicate syntax, with any
    /// `SORT`/`DISTINCT`/`LIMIT` trailer), sorted by `sorts` first (ties in the trailer's order).
    ///
    /// - Throws: ``ObjDBError/unknownType(_:)``, the predicate's syntax and query errors.
    package init(view: ReadView, type: String, filter: String?, sorts: [SortKey] = []) throws {
        self.view = view
        query = try KeysetQuery(type: type, filter: filter, sorts: sorts, in: view)
    }

    /// The type's stored schema.
    package var schema: ObjectSchema { query.binding.schema }

    /// The plan, as `explain()` shows it, and how pages are found.
    package var explanation: String { query.explanation }

    /// The number of objects the query selects, counted before `deadline`.
    package func count(deadline: QueryDeadline) throws -> Int {
        try query.count(in: view.recordSource(), deadline: deadline)
    }

    /// The page at `position`, at most `limit` objects, found before `deadline`.
    ///
    /// - Throws: ``ObjDBError/Code/queryTimedOut``, ``ObjDBError/Code/queryCancelled``, and
    ///   ``ObjDBError/corruptRecord(path:type:reason:)`` for a damaged record.
    package func page(_ position: PagePosition, limit: Int, deadline: QueryDeadline) throws -> QueryPage {
        precondition(limit > 0, "A page holds at least one object.")
        let source = try view.recordSource()
        guard query.pagesByKey else {
            return try pageByPosition(position, limit: limit, try query.allKeys(in: source, deadline: deadline))
        }
        let backward: Bool
        let bound: PageCursor?
        switch position {
        case .first: (backward, bound) = (false, nil)
        case .last: (backward, bound) = (true, nil)
        case .after(let cursor): (backward, bound) = (false, cursor)
        case .before(let cursor): (backward, bound) = (true, cursor)
        }
        if let bound, bound.offset != nil || bound.values.count != query.order.count { throw Self.foreignCursor }
        var found = try query.matches(
            after: bound.map { ($0.key, $0.values) }, backward: backward, want: limit + 1, in: source,
            deadline: deadline)
        var page = QueryPage()
        let more = found.count > limit
        if more { found.removeLast(found.count - limit) }
        if backward { found.reverse() }
        page.keys = found.map(\.key)
        page.cursors = found.map { PageCursor(values: $0.values, key: $0.key) }
        page.hasPrevious = backward ? more : bound != nil
        page.hasNext = backward ? bound != nil : more
        return page
    }

    /// The values at the order's key paths of the object `key`, as a cursor at it.
    package func cursor(at key: [UInt8]) throws -> PageCursor {
        PageCursor(values: try query.orderValues(of: key, in: view.recordSource()), key: key)
    }

    /// Calls `body` with the object `key` of the pager's type, if there is one.
    package func withObject<Result>(_ key: [UInt8], _ body: (ScannedObject) throws -> Result) throws -> Result? {
        let binding = query.binding
        let database = view.database
        guard let table = binding.table, !key.isEmpty, key.count <= database.environment.maxKeySize else {
            return nil
        }
        let transaction = try view.recordSource().transaction
        return try key.withUnsafeBytes { key -> Result? in
            guard let record = try transaction.get(key, in: table) else { return nil }
            guard let reader = RecordReader(validating: record) else {
                throw ObjDBError.corruptRecord(
                    path: database.configuration.path, type: binding.schema.name,
                    reason: "its slot table is inconsistent; objdb-inspect check lists every damaged record")
            }
            return try body(ScannedObject(key: key, reader: reader, binding: binding, schema: database.schemaIndex))
        }
    }

    /// A page of a query that needs its whole answer (`DISTINCT`, `LIMIT`): cut by position.
    private func pageByPosition(_ position: PagePosition, limit: Int, _ keys: [[UInt8]]) throws -> QueryPage {
        let range: Range<Int>
        switch position {
        case .first: range = 0..<min(limit, keys.count)
        case .last: range = max(0, keys.count - limit)..<keys.count
        case .after(let cursor):
            guard let offset = cursor.offset else { throw Self.foreignCursor }
            let start = min(offset + 1, keys.count)
            range = start..<min(keys.count, start + limit)
        case .before(let cursor):
            guard let offset = cursor.offset else { throw Self.foreignCursor }
            let end = min(offset, keys.count)
            range = max(0, end - limit)..<end
        }
        var page = QueryPage()
        page.keys = Array(keys[range])
        page.cursors = range.map { PageCursor(offset: $0) }
        page.hasPrevious = range.lowerBound > 0
        page.hasNext = range.upperBound < keys.count
        return page
    }

    private static var foreignCursor: ObjDBError {
        ObjDBError.invalidArgument("cursor", reason: "it belongs to another query; start from the first page")
    }
}
