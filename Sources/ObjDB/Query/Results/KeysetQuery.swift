/// A query over one type, prepared for keyset paging above the core (`objdb-inspect serve`'s
/// pager): the walks that find the objects just after (or before) a position in the query's
/// order, each costing about the same at any depth. The query layer as the pager sees it, as
/// ``ScanQuery`` is for the scans.
///
/// How the objects after a bound are found depends on the order and the plan (``Walk``):
/// - **Key order** (no sort) over a full scan or a primary-key range: an LMDB cursor from the
///   bound's key, testing the filter on each record, until the page is full.
/// - **Key order over one key of an index**: the index holds that key's objects sorted (LMDB's
///   duplicates), so the walk starts at the bound's key within them.
/// - **Key order over an index range** (`createdAt > x`): a short walk of the table from the bound
///   (``defaultTableProbe`` records), which finds a page at once when matches are dense there; else
///   one pass over the range's index entries keeping the page's keys in a list no longer than the
///   page, reading the record (for the rest of the filter) only of an entry that would join it. A walk of the table alone could pass every
///   record before the first match (the newest half of a table filled in time order).
/// - **Key order over other index plans**: the matches' keys are gathered (at most ``gatherLimit``)
///   and the page cut from them; past that, along the table.
/// - **Sorted**: one pass over the plan's candidates keeps the page's objects (those after the
///   bound, first in the sort) in a bounded list: memory per page, time per candidate.
///
/// A query with `DISTINCT` or `LIMIT` needs its whole answer: it pages by position
/// (``allKeys(in:deadline:)``), not by key.
package struct KeysetQuery {
    let query: PreparedQuery
    /// The type the query selects from.
    package let binding: TypeBinding
    /// The order pages follow, before the table key.
    package let order: [SortKey]
    private let orderPaths: [[String]]
    /// Whether the query pages by key; otherwise by position.
    package let pagesByKey: Bool
    /// The records a page of an index range walks along the table before it turns to the index.
    let tableProbe: Int

    /// A bound between two pages: the table key and the order's values of the object it follows
    /// or precedes.
    package typealias Bound = (key: [UInt8], values: [StoredValue])

    /// The objects of the type named `type` in `view` that `filter` selects (the predicate syntax,
    /// with any `SORT`/`DISTINCT`/`LIMIT` trailer), sorted by `sorts` first (ties in the trailer's order).
    ///
    /// - Throws: ``ObjDBError/unknownType(_:)``, the predicate's syntax and query errors.
    package init(
        type: String, filter: String?, sorts: [SortKey], in view: ReadView,
        tableProbe: Int = KeysetQuery.defaultTableProbe
    ) throws {
        self.tableProbe = tableProbe
        let catalog = view.snapshot.catalog
        binding = try catalog.binding(named: type)
        let spec = try ReadView.spec(filter: filter, arguments: [], sorts: sorts, limit: nil)
        query = try PreparedQuery(catalog: catalog, binding: binding, spec: spec)
        pagesByKey =
            spec.distinctPaths.isEmpty && spec.limit == nil
            && spec.then.allSatisfy { if case .sort = $0 { true } else { false } }
        order = spec.effectiveSorts
        orderPaths = order.map { $0.keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init) }
    }

    /// The plan, as `explain()` shows it, and how pages are found.
    package var explanation: String {
        query.explanation + "; " + walk.description
    }

    /// The number of objects the query selects, counted before `deadline`.
    package func count(in source: RecordSource, deadline: QueryDeadline?) throws -> Int {
        let reader = self.reader(source, deadline)
        if query.spec.filter == nil, pagesByKey { return try source.count(of: binding) }
        return try query.count(reader)
    }

    /// Every match's table key, in the query's order: the whole answer, for paging by position.
    package func allKeys(in source: RecordSource, deadline: QueryDeadline?) throws -> [[UInt8]] {
        let reader = self.reader(source, deadline)
        try reader.budget?.check()
        return try query.matches(reader).keys
    }

    /// At most `want` matches after `bound` in the order (backward: before it, nearest first),
    /// found before `deadline`. Only for a query that ``pagesByKey``.
    ///
    /// - Throws: ``ObjDBError/Code/queryTimedOut``, ``ObjDBError/Code/queryCancelled``, and
    ///   ``ObjDBError/corruptRecord(path:type:reason:)`` for a damaged record.
    package func matches(
        after bound: Bound?, backward: Bool, want: Int, in source: RecordSource, deadline: QueryDeadline?
    ) throws -> [Bound] {
        precondition(pagesByKey, "A query with DISTINCT or LIMIT pages by position.")
        let reader = self.reader(source, deadline)
        try reader.budget?.check()
        switch walk {
        case .table:
            return try walkTable(after: bound?.key, backward: backward, want: want, reader).found
        case .duplicates(let property, let indexKey):
            return try walkDuplicates(property, indexKey, after: bound?.key, backward: backward, want: want, reader)
        case .indexRange(let index, let lower, let upper):
            let probe = try walkTable(
                after: bound?.key, backward: backward, want: want, visiting: tableProbe, reader)
            if probe.isComplete { return probe.found }
            return try nearestInRange(
                index, lower: lower, upper: upper, after: bound?.key, backward: backward, want: want, reader)
        case .gathered:
            return try gathered(after: bound, backward: backward, want: want, reader)
        case .bestOfScan:
            return try bestOfScan(after: bound, backward: backward, want: want, reader)
        }
    }

    /// The values at the order's key paths of the object `key`.
    package func orderValues(of key: [UInt8], in source: RecordSource) throws -> [StoredValue] {
        try sortValues(of: key, record: nil, QueryReader(source: source, readsDamagedAsEmpty: false))
    }

    /// The most matches gathered to page key-ordered results of an index plan that is not a range.
    package static let gatherLimit = 20_000

    /// The records a page of an index range walks along the table, by default, before it turns to the index.
    package static let defaultTableProbe = 4_096

    // MARK: Walks

    /// How the objects after a bound are found, from the order and the plan.
    enum Walk: CustomStringConvertible {
        case table
        case duplicates(BoundProperty, [UInt8])
        case indexRange(DatabaseHandle, lower: KeyBound?, upper: KeyBound?)
        case gathered
        case bestOfScan

        var description: String {
            switch self {
            case .table: "paged by key along the table"
            case .duplicates(let property, _): "paged by key along the index on \(property.schema.name)"
            case .indexRange:
                "paged by key: a short walk of the table, else one pass over the index range keeping the page"
            case .gathered: "paged by key among the index's matches, or along the table past \(gatherLimit)"
            case .bestOfScan: "paged by sort values, one pass over the candidates per page"
            }
        }
    }

    var walk: Walk {
        guard pagesByKey, order.isEmpty else { return .bestOfScan }
        switch query.plan {
        case .fullScan, .primaryKeyRange: return .table
        case .indexLookup(let property, let keys) where keys.count == 1 && property.schema.index == .regular:
            return .duplicates(property, keys[0])
        case .indexRange(let property, let lower, let upper):
            guard let index = property.index else { return .gathered }
            return .indexRange(index, lower: lower, upper: upper)
        default: return .gathered
        }
    }

    private func reader(_ source: RecordSource, _ deadline: QueryDeadline?) -> QueryReader {
        var reader = QueryReader(source: source, readsDamagedAsEmpty: false)
        if let deadline { reader.budget = QueryBudget(deadline, typeName: binding.schema.name) }
        return reader
    }

    /// Key order along the table (or the plan's primary-key range), testing the whole filter, at
    /// most `visiting` records; complete unless it stopped there short of `want` matches.
    private func walkTable(
        after key: [UInt8]?, backward: Bool, want: Int, visiting: Int = .max, _ reader: QueryReader
    ) throws -> (found: [Bound], isComplete: Bool) {
        guard let table = binding.table else { return ([], true) }
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
        var found: [Bound] = []
        var visited = 0
        var isComplete = true
        let filter = try query.wholeFilter()
        let budget = reader.budget
        try reader.source.transaction.cursor(table).forEach(from: lower, to: upper, reverse: backward) { entry in
            guard visited < visiting else {
                isComplete = false
                return false
            }
            visited += 1
            try budget?.spend()
            if let filter {
                let record = try reader.record(entry.value, of: binding)
                guard try filter.matches(record, key: entry.key, in: reader) else { return true }
            }
            found.append((Array(entry.key), []))
            return found.count < want
        }
        return (found, isComplete || found.count == want)
    }

    /// The `want` matches nearest after (backward: before) `key` among the entries of an index
    /// range: one pass over the entries, keeping a sorted list no longer than the page. An entry
    /// past the list's last costs one comparison; only one that would join it has its record read,
    /// to test the rest of the filter.
    private func nearestInRange(
        _ index: DatabaseHandle, lower: KeyBound?, upper: KeyBound?, after key: [UInt8]?, backward: Bool,
        want: Int, _ reader: QueryReader
    ) throws -> [Bound] {
        // Comparisons in the walk's direction: below 0 when the left key comes first.
        let direction = backward ? -1 : 1
        func order(_ left: UnsafeRawBufferPointer, _ right: [UInt8]) -> Int {
            right.withUnsafeBytes { direction * ByteOrder.compare(left, $0) }
        }
        guard let table = binding.table else { return [] }
        var nearest: [[UInt8]] = []
        let budget = reader.budget
        let residual = query.residual
        let transaction = reader.source.transaction
        try transaction.cursor(index).forEach(from: lower, to: upper) { entry in
            try budget?.spend()
            let candidate = entry.value
            if let key, order(candidate, key) <= 0 { return true }
            if nearest.count == want, let last = nearest.last, order(candidate, last) >= 0 { return true }
            if let residual {
                guard let bytes = try transaction.get(candidate, in: table) else { return true }
                let record = try reader.record(bytes, of: binding)
                guard try residual.matches(record, key: candidate, in: reader) else { return true }
            }
            var low = 0
            var high = nearest.count
            while low < high {
                let middle = (low + high) / 2
                if order(candidate, nearest[middle]) > 0 { low = middle + 1 } else { high = middle }
            }
            nearest.insert(Array(candidate), at: low)
            if nearest.count > want { nearest.removeLast() }
            return true
        }
        return nearest.map { ($0, []) }
    }

    /// Key order within one key of a regular index, whose objects LMDB keeps sorted.
    private func walkDuplicates(
        _ property: BoundProperty, _ indexKey: [UInt8], after key: [UInt8]?, backward: Bool, want: Int,
        _ reader: QueryReader
    ) throws -> [Bound] {
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
        var found: [Bound] = []
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
    private func gathered(after bound: Bound?, backward: Bool, want: Int, _ reader: QueryReader) throws -> [Bound] {
        var collector = MatchCollector(limit: Self.gatherLimit + 1)
        try query.scan(reader, &collector)
        guard collector.keys.count <= Self.gatherLimit else {
            return try walkTable(after: bound?.key, backward: backward, want: want, reader).found
        }
        let keys = collector.keys.sorted { $0.lexicographicallyPrecedes($1) }
        if backward {
            let end =
                bound.map { bound in keys.firstIndex { !$0.lexicographicallyPrecedes(bound.key) } ?? keys.count }
                ?? keys.count
            return keys[max(0, end - want)..<end].reversed().map { ($0, []) }
        }
        let start =
            bound.map { bound in keys.firstIndex { bound.key.lexicographicallyPrecedes($0) } ?? keys.count } ?? 0
        return keys[start..<min(keys.count, start + want)].map { ($0, []) }
    }

    /// The `want` candidates that come first after (or, backward, last before) `bound` in the
    /// order, from one pass over the plan's candidates, kept in a list no longer than the page.
    private func bestOfScan(after bound: Bound?, backward: Bool, want: Int, _ reader: QueryReader) throws -> [Bound] {
        var best = BestOf(
            want: want,
            precedes: { left, right in
                let order = self.compare(left, right)
                return backward ? order > 0 : order < 0
            })
        // Candidates that come in the order already (an index walk for the sort) stop at a full page.
        let inOrder = !backward && query.sortedByPlan && query.spec.then.isEmpty
        var visitor = SortingVisitor(query: self, reader: reader) { candidate in
            if let bound {
                let order = self.compare(candidate, bound)
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
    private func compare(_ left: Bound, _ right: Bound) -> Int {
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
    let precedes: (KeysetQuery.Bound, KeysetQuery.Bound) -> Bool
    private(set) var items: [KeysetQuery.Bound] = []

    init(want: Int, precedes: @escaping (KeysetQuery.Bound, KeysetQuery.Bound) -> Bool) {
        self.want = want
        self.precedes = precedes
    }

    mutating func offer(_ item: KeysetQuery.Bound) {
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
    let query: KeysetQuery
    let reader: QueryReader
    /// Takes a candidate; `false` once no more are needed.
    let body: (KeysetQuery.Bound) -> Bool
    var error: (any Error)?
    private var isDone = false

    init(query: KeysetQuery, reader: QueryReader, body: @escaping (KeysetQuery.Bound) -> Bool) {
        self.query = query
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
            isDone = !body((key, try query.sortValues(of: key, record: record, reader)))
            return !isDone
        } catch {
            self.error = error
            return false
        }
    }
}
