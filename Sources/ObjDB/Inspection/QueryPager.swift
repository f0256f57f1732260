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
/// any depth, and a commit between two pages neither repeats nor skips an object.
///
/// How a page is found depends on the order and the plan:
/// - **Key order** (no sort) over a full scan or a primary-key range: an LMDB cursor from the
///   cursor's key, testing the filter on each record, until the page is full.
/// - **Key order over one key of an index**: the index holds that key's objects sorted (LMDB's
///   duplicates), so the walk starts at the cursor's key within them.
/// - **Key order over other index plans**: the matches' keys are gathered (up to
///   ``gatherLimit``) and the page cut from them; a query matching more pages like a full scan.
/// - **Sorted**: one pass over the plan's candidates keeps the page's objects (those after the
///   cursor, first in the sort) in a bounded list: memory per page, time per candidate.
/// - **`DISTINCT` or `LIMIT`** (which need the whole answer): by position.
///
/// Every page and count spends a ``QueryDeadline``.
package struct QueryPager {
    let view: ReadView
    let binding: TypeBinding
    let query: PreparedQuery
    /// The order pages follow, before the table key.
    let order: [SortKey]
    private let orderPaths: [[String]]
    /// Whether the query pages by key; otherwise by position.
    let pagesByKey: Bool

    /// Matches gathered at most to page key-ordered results of an index plan.
    package static let gatherLimit = 20_000

    /// A pager over the objects of `type` that `filter` selects (the predicate syntax, with any
    /// `SORT`/`DISTINCT`/`LIMIT` trailer), sorted by `sorts` first (ties in the trailer's order).
    ///
    /// - Throws: ``ObjDBError/unknownType(_:)``, the predicate's syntax and query errors.
    package init(view: ReadView, type: String, filter: String?, sorts: [SortKey] = []) throws {
        self.view = view
        binding = try view.snapshot.catalog.binding(named: type)
        let spec = try ReadView.spec(filter: filter, arguments: [], sorts: sorts, limit: nil)
        query = try PreparedQuery(catalog: view.snapshot.catalog, binding: binding, spec: spec)
        pagesByKey =
            spec.distinctPaths.isEmpty && spec.limit == nil
            && spec.then.allSatisfy { if case .sort = $0 { true } else { false } }
        order = spec.effectiveSorts
        orderPaths = order.map { $0.keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init) }
    }

    /// The type's stored schema.
    package var schema: ObjectSchema { binding.schema }

    /// The plan, as `explain()` shows it, and how pages are found.
    package var explanation: String {
        query.explanation + "; " + strategy.description
    }

    /// The number of objects the query selects, counted before `deadline`.
    package func count(deadline: QueryDeadline) throws -> Int {
        let reader = try self.reader(deadline)
        if query.spec.filter == nil, pagesByKey { return try reader.source.count(of: binding) }
        return try query.count(reader)
    }

    /// The page at `position`, at most `limit` objects, found before `deadline`.
    ///
    /// - Throws: ``ObjDBError/Code/queryTimedOut``, ``ObjDBError/Code/queryCancelled``, and
    ///   ``ObjDBError/corruptRecord(path:type:reason:)`` for a damaged record.
    package func page(_ position: PagePosition, limit: Int, deadline: QueryDeadline) throws -> QueryPage {
        precondition(limit > 0, "A page holds at least one object.")
        let reader = try self.reader(deadline)
        try reader.budget?.check()
        guard pagesByKey else { return try pageByPosition(position, limit: limit, reader) }
        let backward: Bool
        let bound: PageCursor?
        switch position {
        case .first: (backward, bound) = (false, nil)
        case .last: (backward, bound) = (true, nil)
        case .after(let cursor): (backward, bound) = (false, cursor)
        case .before(let cursor): (backward, bound) = (true, cursor)
        }
        if let bound, bound.offset != nil || bound.values.count != order.count {
            throw ObjDBError.invalidArgument("cursor", reason: "it belongs to another query; start from the first page")
        }
        var found: [(key: [UInt8], values: [StoredValue])]
        switch strategy {
        case .tableWalk:
            found = try walkTable(after: bound?.key, backward: backward, want: limit + 1, reader)
        case .duplicateWalk(let property, let indexKey):
            found = try walkDuplicates(
                property, indexKey, after: bound?.key, backward: backward, want: limit + 1, reader)
        case .gathered:
            found = try gathered(after: bound, backward: backward, want: limit + 1, reader)
        case .bestOfScan:
            found = try bestOfScan(after: bound, backward: backward, want: limit + 1, reader)
        }
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
        PageCursor(
            values: try sortValues(of: key, record: nil, QueryReader(source: source(), readsDamagedAsEmpty: false)),
            key: key)
    }

    /// Calls `body` with the object `key` of the pager's type, if there is one.
    package func withObject<Result>(_ key: [UInt8], _ body: (ScannedObject) throws -> Result) throws -> Result? {
        guard let table = binding.table, !key.isEmpty, key.count <= view.snapshot.catalog.maxKeySize else {
            return nil
        }
        let transaction = try view.snapshot.readTransaction()
        return try key.withUnsafeBytes { key -> Result? in
            guard let record = try transaction.get(key, in: table) else { return nil }
            guard let reader = RecordReader(validating: record) else {
                throw ObjDBError.corruptRecord(
                    path: view.snapshot.catalog.path, type: binding.schema.name,
                    reason: "its slot table is inconsistent; objdb-inspect check lists every damaged record")
            }
            return try body(
                ScannedObject(key: key, reader: reader, binding: binding, schema: view.snapshot.catalog.schemaIndex))
        }
    }

    // MARK: Strategies

    /// How pages are found, from the order and the plan.
    enum Strategy: CustomStringConvertible {
        case tableWalk
        case duplicateWalk(BoundProperty, [UInt8])
        case gathered
        case bestOfScan

        var description: String {
            switch self {
            case .tableWalk: "paged by key along the table"
            case .duplicateWalk(let property, _): "paged by key along the index on \(property.schema.name)"
            case .gathered: "paged by key among the index's matches"
            case .bestOfScan: "paged by sort values, one pass over the candidates per page"
            }
        }
    }

    var strategy: Strategy {
        guard pagesByKey else { return .bestOfScan }
        guard order.isEmpty else { return .bestOfScan }
        switch query.plan {
        case .fullScan, .primaryKeyRange: return .tableWalk
        case .indexLookup(let property, let keys) where keys.count == 1 && property.schema.index == .regular:
            return .duplicateWalk(property, keys[0])
        default: return .gathered
        }
    }

    private func source() throws -> RecordSource { try view.snapshot.source() }

    private func reader(_ deadline: QueryDeadline) throws -> QueryReader {
        var reader = QueryReader(source: try source(), readsDamagedAsEmpty: false)
        reader.budget = QueryBudget(deadline, typeName: binding.schema.name)
        return reader
    }

    /// Key order along the table (or the plan's primary-key range), testing the whole filter.
    private func walkTable(after key: [UInt8]?, backward: Bool, want: Int, _ reader: QueryReader) throws
        -> [(key: [UInt8], values: [StoredValue])]
    {
        guard let table = binding.table else { return [] }
        var lower: KeyBound?
        var upper: KeyBound?
        if case .primaryKeyRange(let from, let to) = query.plan { (lower, upper) = (from, to) }
        if let key {
            let bound = KeyBound(key, inclusive: false)
            if backward {
                upper = Self.tighter(upper, bound, upper: true)
            } else {
                lower = Self.tighter(lower, bound, upper: false)
            }
        }
        var found: [(key: [UInt8], values: [StoredValue])] = []
        let filter = query.filter
        let budget = reader.budget
        try reader.source.transaction.cursor(table).forEach(from: lower, to: upper, reverse: backward) { entry in
            try budget?.spend()
            if let filter {
                let record = try reader.record(entry.value, of: binding)
                guard try filter.matches(record, key: entry.key, in: reader) else { return true }
            }
            found.append((Array(entry.key), []))
            return found.count < want
        }
        return found
    }

    /// Key order within one key of a regular index, whose objects LMDB keeps sorted.
    private func walkDuplicates(
        _ property: BoundProperty, _ indexKey: [UInt8], after key: [UInt8]?, backward: Bool, want: Int,
        _ reader: QueryReader
    ) throws -> [(key: [UInt8], values: [StoredValue])] {
        guard let index = property.index, let table = binding.table else { return [] }
        let transaction = reader.source.transaction
        let cursor = try transaction.cursor(index)
        var entry: CursorEntry?
        try indexKey.withUnsafeBytes { indexKey in
            switch (key, backward) {
            case (nil, false):
                entry = try cursor.seek(exactly: indexKey)
            case (nil, true):
                guard try cursor.seek(exactly: indexKey) != nil, try cursor.lastValueOfKey() != nil else { return }
                entry = try cursor.current()
            case (let key?, false):
                entry = try key.withUnsafeBytes { try cursor.seek(indexKey, valueAtLeast: $0) }
                if let found = entry, found.value.elementsEqual(key) { entry = try cursor.nextValueOfKey() }
            case (let key?, true):
                if try key.withUnsafeBytes({ try cursor.seek(indexKey, valueAtLeast: $0) }) != nil {
                    entry = try cursor.previousValueOfKey()
                } else if try cursor.seek(exactly: indexKey) != nil, try cursor.lastValueOfKey() != nil {
                    entry = try cursor.current()
                }
            }
        }
        var found: [(key: [UInt8], values: [StoredValue])] = []
        let residual = query.residual
        while let current = entry, found.count < want {
            try reader.budget?.spend()
            if let record = try transaction.get(current.value, in: table) {
                let matches = try residual.map {
                    try $0.matches(try reader.record(record, of: binding), key: current.value, in: reader)
                }
                if matches ?? true { found.append((Array(current.value), [])) }
            }
            entry = backward ? try cursor.previousValueOfKey() : try cursor.nextValueOfKey()
        }
        return found
    }

    /// Key order among an index plan's matches, gathered; past ``gatherLimit`` of them, along the table.
    private func gathered(after bound: PageCursor?, backward: Bool, want: Int, _ reader: QueryReader) throws
        -> [(key: [UInt8], values: [StoredValue])]
    {
        var collector = MatchCollector(limit: Self.gatherLimit + 1)
        try query.scan(reader, &collector)
        guard collector.keys.count <= Self.gatherLimit else {
            return try walkTable(after: bound?.key, backward: backward, want: want, reader)
        }
        let keys = collector.keys.sorted { $0.lexicographicallyPrecedes($1) }
        if backward {
            let end =
                bound.map { key in keys.firstIndex { !$0.lexicographicallyPrecedes(key.key) } ?? keys.count }
                ?? keys.count
            return keys[max(0, end - want)..<end].reversed().map { ($0, []) }
        }
        let start =
            bound.map { key in keys.firstIndex { key.key.lexicographicallyPrecedes($0) } ?? keys.count } ?? 0
        return keys[start..<min(keys.count, start + want)].map { ($0, []) }
    }

    /// The `want` candidates that come first after (or, backward, last before) `bound` in the
    /// order, from one pass over the plan's candidates, kept in a list no longer than the page.
    private func bestOfScan(after bound: PageCursor?, backward: Bool, want: Int, _ reader: QueryReader) throws
        -> [(key: [UInt8], values: [StoredValue])]
    {
        var best = BestOf(
            want: want,
            precedes: { left, right in
                let order = self.compare(left, right)
                return backward ? order > 0 : order < 0
            })
        // Candidates that come in the order already (an index walk for the sort) stop at a full page.
        let inOrder = !backward && query.sortedByPlan && query.spec.then.isEmpty
        var visitor = SortingVisitor(pager: self, reader: reader) { candidate in
            if let bound {
                let order = self.compare(candidate, (bound.key, bound.values))
                guard backward ? order < 0 : order > 0 else { return true }
            }
            best.offer(candidate)
            return !inOrder || best.items.count < want
        }
        try query.scan(reader, &visitor)
        if let error = visitor.error { throw error }
        return best.items
    }

    /// -1, 0 or 1 as `left` comes before, with or after `right` in the order, then by table key.
    private func compare(
        _ left: (key: [UInt8], values: [StoredValue]), _ right: (key: [UInt8], values: [StoredValue])
    ) -> Int {
        for (index, sort) in order.enumerated() {
            let order = QueryOrdering.compare(left.values[index], right.values[index], sort.options)
            if order != 0 { return sort.ascending ? order : -order }
        }
        if left.key == right.key { return 0 }
        return left.key.lexicographicallyPrecedes(right.key) ? -1 : 1
    }

    /// The values at the order's paths of the object `key`, read from `record` when given.
    fileprivate func sortValues(of key: [UInt8], record: RecordReader?, _ reader: QueryReader) throws -> [StoredValue] {
        let codec = ValueCodec(schema: reader.catalog.schemaIndex)
        return try orderPaths.map { path in
            if path.count == 1, let record, let property = binding[path[0]] {
                return codec.decodeField(record.field(property.slot), of: property.schema)
            }
            return try QueryPaths(reader: reader).value(at: path, of: key, in: binding)
        }
    }

    /// A page of a query that needs its whole answer (`DISTINCT`, `LIMIT`): cut by position.
    private func pageByPosition(_ position: PagePosition, limit: Int, _ reader: QueryReader) throws -> QueryPage {
        let keys = try query.matches(reader).keys
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

    /// The tighter of two bounds on the same end of a key range.
    private static func tighter(_ current: KeyBound?, _ new: KeyBound, upper: Bool) -> KeyBound {
        guard let current else { return new }
        if current.key == new.key { return current.isInclusive ? new : current }
        let newIsBelow = new.key.lexicographicallyPrecedes(current.key)
        return newIsBelow == upper ? new : current
    }
}

/// The first `want` items in an order, kept sorted; an item after the last of a full list costs one comparison.
private struct BestOf {
    let want: Int
    let precedes: ((key: [UInt8], values: [StoredValue]), (key: [UInt8], values: [StoredValue])) -> Bool
    private(set) var items: [(key: [UInt8], values: [StoredValue])] = []

    init(
        want: Int,
        precedes: @escaping ((key: [UInt8], values: [StoredValue]), (key: [UInt8], values: [StoredValue])) -> Bool
    ) {
        self.want = want
        self.precedes = precedes
    }

    mutating func offer(_ item: (key: [UInt8], values: [StoredValue])) {
        if items.count == want, let last = items.last, !precedes(item, last) { return }
        var low = 0
        var high = items.count
        while low < high {
            let middle = (low + high) / 2
            if precedes(items[middle], item) { low = middle + 1 } else { high = middle }
        }
        items.insert(item, at: low)
        if items.count > want { items.removeLast() }
    }
}

/// Hands each match of a scan, with its sort values, to a closure; keeps the first error.
private struct SortingVisitor: MatchVisitor {
    let pager: QueryPager
    let reader: QueryReader
    /// Takes a candidate; `false` once no more are needed.
    let body: ((key: [UInt8], values: [StoredValue])) -> Bool
    var error: (any Error)?
    private var isDone = false

    init(pager: QueryPager, reader: QueryReader, body: @escaping ((key: [UInt8], values: [StoredValue])) -> Bool) {
        self.pager = pager
        self.reader = reader
        self.body = body
    }

    var wantsMore: Bool { error == nil && !isDone }

    mutating func take(key: UnsafeRawBufferPointer, record: RecordReader) -> Bool {
        take(Array(key), record: record)
    }

    /// A match an index decided without reading its record (a full-text search): the sort values
    /// are read through the key.
    mutating func take(key: UnsafeRawBufferPointer) -> Bool {
        take(Array(key), record: nil)
    }

    private mutating func take(_ key: [UInt8], record: RecordReader?) -> Bool {
        do {
            isDone = !body((key, try pager.sortValues(of: key, record: record, reader)))
            return !isDone
        } catch {
            self.error = error
            return false
        }
    }
}
