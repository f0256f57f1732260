import Foundation

/// A query ready to run in any snapshot of its store: the filter compiled, the access path
/// chosen, the sort and `distinct` paths checked, once.
///
/// A ``Results`` prepares its query when it is made, so a bad query fails there, and every
/// count and read runs the same program. Nothing here holds a transaction: each run reads
/// through the ``QueryReader`` it is given.
final class PreparedQuery: @unchecked Sendable {
    // @unchecked Sendable: immutable after `init`; TypeBinding, FilterProgram and the plan's
    // bound properties are immutable too.

    let binding: TypeBinding
    let spec: QuerySpec
    let plan: QueryPlan
    /// Whether the plan yields the sort's order (or, unsorted, table-key order).
    let sortedByPlan: Bool
    /// The whole filter, compiled now or at first use (``wholeFilter()``).
    private let lazyFilter: LazyFilter
    /// The filter each candidate is tested with: the whole filter, less the conjunct the plan decides.
    let residual: FilterProgram?
    /// The paths a run chooses among by their sizes in its snapshot (``plan`` first, with
    /// ``residual``), each with its residual filter; empty when the plan is fixed.
    let alternatives: [(plan: QueryPlan, residual: FilterProgram?)]
    let sortPaths: [[String]]
    private let distinctPaths: [[String]]
    /// The spec's ``QuerySpec/then`` steps, each with the paths it reads.
    private let thenSteps: [(step: OrderingStep, paths: [[String]])]

    /// Prepares `spec` for objects of `binding`'s type.
    ///
    /// - Throws: ``ObjDBError/invalidQuery(type:reason:)`` for a filter, a sort or a `distinct`
    ///   that names a property the type lacks or compares what cannot be compared.
    init(catalog: StoreCatalog, binding: TypeBinding, spec: QuerySpec) throws {
        self.binding = binding
        var spec = spec
        // `5 == x`, `x == {1, 2}` and the like become the comparisons the planner reads.
        spec.filter = try spec.filter.map { try QueryNormalizer(catalog: catalog, root: binding).normalize($0) }
        self.spec = spec
        sortPaths = spec.sorts.map { SortPath.components($0.keyPath) }
        distinctPaths = spec.distinctPaths.map(SortPath.components)
        for path in sortPaths { try QueryPaths.validateSortPath(path, from: binding, catalog: catalog, what: "sort") }
        for path in distinctPaths {
            try QueryPaths.validateSortPath(path, from: binding, catalog: catalog, what: "distinct")
        }
        thenSteps = try spec.then.map { step in
            let paths = Self.paths(of: step)
            let what = if case .sort = step { "sort" } else { "distinct" }
            for path in paths { try QueryPaths.validateSortPath(path, from: binding, catalog: catalog, what: what) }
            return (step, paths)
        }
        let compiler = FilterCompiler(catalog: catalog, root: binding)
        // A shape that compiled before compiles again: the whole filter waits for its first use.
        let shape = spec.filter == nil ? nil : QueryShape(of: spec)
        let compiledBefore = shape.map { catalog.compiledQueryShapes.contains($0) } ?? false
        var filter = compiledBefore ? nil : try spec.filter.map { try compiler.compile($0) }
        let choice = try QueryPlanner(catalog: catalog, binding: binding).choose(filter: spec.filter, sorts: spec.sorts)
        plan = choice.plan
        sortedByPlan = choice.sortedByPlan
        /// The filter less the conjunct a path decides.
        func residualFilter(deciding decided: Int?) throws -> FilterProgram? {
            guard let expression = spec.filter, let decided else {
                if filter == nil, let whole = spec.filter { filter = try compiler.compile(whole) }
                return filter
            }
            var conjuncts = expression.conjuncts
            conjuncts.remove(at: decided)
            switch conjuncts.count {
            case 0: return nil
            case 1: return try compiler.compile(conjuncts[0])
            default: return try compiler.compile(.and(conjuncts))
            }
        }
        let residual = try residualFilter(deciding: choice.exactConjunct)
        self.residual = residual
        alternatives = try choice.alternatives.enumerated().map { position, alternative in
            (alternative.plan, position == 0 ? residual : try residualFilter(deciding: alternative.exactConjunct))
        }
        // Compiled already when a path leaves the whole filter to test.
        if filter == nil, let expression = spec.filter {
            lazyFilter = LazyFilter(compiling: expression, with: compiler)
        } else {
            lazyFilter = LazyFilter(filter)
        }
        if let shape, !compiledBefore { catalog.compiledQueryShapes.insert(shape) }
    }

    /// The whole filter, compiled (at its first use, for a shape that compiled before).
    func wholeFilter() throws -> FilterProgram? {
        try lazyFilter.program()
    }

    /// The same query cut to at most `limit` objects, after whatever it does already: the
    /// filter and the plan are shared, not compiled again.
    func limited(to limit: Int) -> PreparedQuery {
        let spec = self.spec.ordered(by: [.limit(limit)])
        return PreparedQuery(
            binding: binding, spec: spec, plan: plan, sortedByPlan: sortedByPlan, filter: lazyFilter,
            residual: residual, alternatives: alternatives, sortPaths: sortPaths, distinctPaths: distinctPaths,
            thenSteps: spec.then.map { ($0, Self.paths(of: $0)) })
    }

    /// The key paths a step reads, split into names.
    private static func paths(of step: OrderingStep) -> [[String]] {
        let keyPaths: [String]
        switch step {
        case .sort(let keys): keyPaths = keys.map(\.keyPath)
        case .distinct(let paths): keyPaths = paths
        case .limit: keyPaths = []
        }
        return keyPaths.map(SortPath.components)
    }

    private init(
        binding: TypeBinding, spec: QuerySpec, plan: QueryPlan, sortedByPlan: Bool, filter: LazyFilter,
        residual: FilterProgram?, alternatives: [(plan: QueryPlan, residual: FilterProgram?)],
        sortPaths: [[String]], distinctPaths: [[String]], thenSteps: [(step: OrderingStep, paths: [[String]])]
    ) {
        self.binding = binding
        self.spec = spec
        self.plan = plan
        self.sortedByPlan = sortedByPlan
        self.lazyFilter = filter
        self.residual = residual
        self.alternatives = alternatives
        self.sortPaths = sortPaths
        self.distinctPaths = distinctPaths
        self.thenSteps = thenSteps
    }

    /// The plan as `explain()` shows it, without reading a snapshot.
    var explanation: String {
        explanation(of: plan, sizes: [])
    }

    /// The plan as `explain()` shows it for a run on `transaction`'s snapshot: when paths compete,
    /// the one it starts from and each one's size.
    func explanation(in transaction: Transaction) throws -> String {
        guard !alternatives.isEmpty else { return explanation }
        let sizes = try planSizes(transaction)
        return explanation(of: sizes[Self.smallest(sizes)].plan, sizes: sizes)
    }

    private func explanation(of plan: QueryPlan, sizes: [PlanSize]) -> String {
        var text = "\(binding.schema.name): \(plan)"
        if !sizes.isEmpty {
            text +=
                " (the smallest of "
                + sizes.map { "\($0.plan) \($0.isLowerBound ? "> " : "")\($0.count)" }.joined(separator: ", ") + ")"
        }
        if let filter = spec.filter { text += ", filter \(filter.text)" }
        if !spec.sorts.isEmpty { text += sortedByPlan ? ", sorted by the scan" : ", sorted in memory" }
        if !spec.distinctPaths.isEmpty { text += ", distinct by \(spec.distinctPaths.joined(separator: ", "))" }
        if let ranking = spec.ranking { text += ", ranked by BM25 of \(ranking.property) ('\(ranking.search)')" }
        if let limit = spec.limit { text += ", limit \(limit)" }
        for step in spec.then {
            switch step {
            case .sort(let keys):
                text +=
                    ", then sorted by "
                    + keys.map { "\($0.keyPath) \($0.ascending ? "ASC" : "DESC")" }
                    .joined(separator: ", ")
            case .distinct(let paths): text += ", then distinct by \(paths.joined(separator: ", "))"
            case .limit(let count): text += ", then limit \(count)"
            }
        }
        return text
    }

    /// Whether the scan's order is the results' order, so a limit can stop it early.
    private var orderedByScan: Bool { spec.sorts.isEmpty ? plan.yieldsKeyOrder : sortedByPlan }

    // MARK: Running

    /// The number of matching objects; without a sort or `distinct`, counted without keeping a key.
    func count(_ reader: QueryReader) throws -> Int {
        if let ranking = spec.ranking { return try rankedMatches(ranking, reader).count }
        guard spec.then.isEmpty, spec.distinctPaths.isEmpty, spec.sorts.isEmpty || spec.limit == nil else {
            return try matches(reader).keys.count
        }
        if let limit = spec.limit, !orderedByScan { return Swift.min(limit, try matches(reader).keys.count) }
        var counter = MatchCounter(limit: spec.limit)
        try scan(reader, &counter)
        return counter.count
    }

    /// The first matching object's key and record, reading no further than it when the scan's
    /// order is the results' order.
    func first(_ reader: QueryReader) throws -> (key: [UInt8], record: RecordReader?)? {
        if let ranking = spec.ranking { return try rankedMatches(ranking, reader).first.map { ($0, nil) } }
        if !spec.sorts.isEmpty, !sortedByPlan, spec.distinctPaths.isEmpty, spec.then.isEmpty {
            guard spec.limit != 0 else { return nil }
            return try leastBySort(reader).map { ($0, nil) }
        }
        guard orderedByScan, spec.limit != 0, spec.then.isEmpty else {
            let found = try matches(reader)
            return found.keys.first.map { ($0, found.records?.first) }
        }
        var collector = MatchCollector(limit: 1)
        try scan(reader, &collector)
        return collector.keys.first.map { ($0, collector.keptRecords?.first) }
    }

    /// The matching objects' table keys in the results' order, as a key list, with their records
    /// when kept. When the scan's order is the results' and nothing reorders or thins them
    /// afterwards (the common case), the keys stay in one buffer: no array per key.
    func matchedKeys(_ reader: QueryReader) throws -> (keys: KeyChunks, records: [RecordReader]?) {
        if let ranking = spec.ranking { return (KeyChunks(try rankedMatches(ranking, reader)), nil) }
        guard orderedByScan, spec.distinctPaths.isEmpty, thenSteps.isEmpty else {
            let (keys, records) = try matches(reader)
            return (KeyChunks(keys), records)
        }
        var collector = FlatMatchCollector(limit: spec.limit)
        try scan(reader, &collector)
        return (KeyChunks(collector.keys), collector.keptRecords)
    }

    /// The matching objects' table keys in the results' order and, when the scan's order is the
    /// results' order, their records (pointers into the map, valid while the reader's transaction is).
    func matches(_ reader: QueryReader) throws -> (keys: [[UInt8]], records: [RecordReader]?) {
        if let ranking = spec.ranking { return (try rankedMatches(ranking, reader), nil) }
        let stopsEarly = orderedByScan && spec.distinctPaths.isEmpty
        var collector = MatchCollector(limit: stopsEarly ? spec.limit : nil)
        try scan(reader, &collector)
        var keys = collector.keys
        var records: [RecordReader]? = collector.keptRecords
        if !spec.sorts.isEmpty && !sortedByPlan {
            keys = try sort(keys, records: records, reader)
            records = nil
        } else if spec.sorts.isEmpty && !plan.yieldsKeyOrder {
            // Unsorted results always come in table-key order, whichever path found them.
            records = nil
            keys.sort { $0.lexicographicallyPrecedes($1) }
        }
        if !spec.distinctPaths.isEmpty {
            records = nil
            keys = try distinct(keys, reader)
        }
        if let limit = spec.limit, keys.count > limit {
            keys.removeLast(keys.count - limit)
            if let kept = records, kept.count > limit { records = Array(kept.prefix(limit)) }
        }
        try applyThenSteps(to: &keys, records: &records, reader)
        return (keys, records)
    }

    /// A ranked search's matches: the best ones, then whatever steps follow the search.
    private func rankedMatches(_ ranking: TextRanking, _ reader: QueryReader) throws -> [[UInt8]] {
        var keys = try rankedKeys(ranking, reader)
        var records: [RecordReader]? = nil
        try applyThenSteps(to: &keys, records: &records, reader)
        return keys
    }

    /// Applies the spec's ``QuerySpec/then`` steps, in order, to `keys` (and `records`, while kept).
    private func applyThenSteps(to keys: inout [[UInt8]], records: inout [RecordReader]?, _ reader: QueryReader)
        throws
    {
        for (step, paths) in thenSteps {
            switch step {
            case .sort(let sorts):
                records = nil
                keys = try stableSort(keys, by: sorts, at: paths, reader)
            case .distinct:
                records = nil
                keys = try distinct(keys, at: paths, reader)
            case .limit(let limit):
                guard keys.count > limit else { continue }
                keys.removeLast(keys.count - limit)
                if let kept = records, kept.count > limit { records = Array(kept.prefix(limit)) }
            }
        }
    }

    /// Whether the object `key`, whose record is `record`, matches the whole filter.
    func matchesFilter(_ record: RecordReader, key: UnsafeRawBufferPointer, _ reader: QueryReader) throws -> Bool {
        try wholeFilter()?.matches(record, key: key, in: reader) ?? true
    }

    /// Tests every candidate the plan yields and hands each match to `visitor`, in the plan's
    /// order, until the visitor has enough.
    func scan<Visitor: MatchVisitor>(_ reader: QueryReader, _ visitor: inout Visitor) throws {
        QueryInstrumentation.current?.count(.scan)
        guard let table = binding.table, visitor.wantsMore else { return }
        let (plan, residual) = try runPlan(reader)
        try withExtendedLifetime(residual) {
            try scan(reader, plan: plan, runner: residual?.runner, table: table, &visitor)
        }
    }

    /// The scan proper; `runner` (the residual filter's) stays valid while the caller keeps it alive.
    private func scan<Visitor: MatchVisitor>(
        _ reader: QueryReader, plan: QueryPlan, runner: FilterProgram.Runner?, table: DatabaseHandle,
        _ visitor: inout Visitor
    ) throws {
        let transaction = reader.source.transaction
        let binding = self.binding
        let budget = reader.budget
        try budget?.check()

        /// Tests one candidate; `false` once the visitor has enough.
        @inline(__always)
        func consider(_ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) throws -> Bool {
            try budget?.spend()
            let record = try reader.record(value, of: binding)
            if let runner, try !runner.matches(record, key: key, in: reader) { return true }
            return visitor.take(key: key, record: record)
        }

        // Only several lookups can meet an object twice: an index lists each object once. (A
        // constant reference, not a captured `var`: that would cost an access check per row.)
        let seen: SeenKeys?
        switch plan {
        case .indexLookup(_, let keys) where keys.count > 1, .primaryKeyLookup(let keys) where keys.count > 1:
            seen = SeenKeys()
        default: seen = nil
        }
        func considerKey(_ key: UnsafeRawBufferPointer) throws -> Bool {
            if let seen, !seen.insert(key) { return true }
            guard let record = try transaction.get(key, in: table) else { return true }
            return try consider(key, record)
        }

        switch plan {
        case .fullScan:
            let cursor = try transaction.cursor(table)
            var entry = try cursor.first()
            var page = CachePrefetch.PageTracker()
            while let current = entry {
                page.enter(current.value)
                guard try consider(current.key, current.value) else { break }
                entry = try cursor.next()
            }
        case .primaryKeyRange(let lower, let upper):
            try transaction.cursor(table).forEach(from: lower, to: upper) { try consider($0.key, $0.value) }
        case .primaryKeyLookup(let keys):
            for key in keys where try !key.withUnsafeBytes({ try considerKey($0) }) { break }
        case .indexLookup(let property, let indexKeys):
            guard let index = property.index else { break }
            let cursor = try transaction.cursor(index)
            lookups: for indexKey in indexKeys {
                var entry = try indexKey.withUnsafeBytes { try cursor.seek(exactly: $0) }
                // With nothing left to test, each of the key's entries is a match (LMDB keeps
                // their number): the answer's arrays are sized once, not grown by doubling.
                if runner == nil, indexKeys.count == 1, index.options.contains(.duplicateSort), let first = entry {
                    visitor.expect(try cursor.valueCount(), keyLength: first.value.count)
                }
                while let current = entry {
                    guard try considerKey(current.value) else { break lookups }
                    entry = try cursor.nextValueOfKey()
                }
            }
        case .compoundLookup(let compound, let indexKeys):
            guard let index = compound.index else { break }
            for indexKey in indexKeys {
                guard let holder = try indexKey.withUnsafeBytes({ try transaction.get($0, in: index) }) else {
                    continue
                }
                guard try considerKey(holder) else { break }
            }
        case .indexRange(let property, let lower, let upper):
            guard let index = property.index else { break }
            try transaction.cursor(index).forEach(from: lower, to: upper) { try considerKey($0.value) }
        case .fullText(let property, let search):
            guard let index = property.index else { break }
            let keys = try FullTextSearcher(
                transaction: transaction, index: index,
                kind: PostingCodec.KeyKind.forPrimaryKey(binding.primaryKey?.schema.type)
            ).keys(matching: search)
            // With nothing left to test, the index's answer is the answer: no record is read.
            if runner == nil {
                visitor.expect(keys.count, keyLength: keys.isEmpty ? 0 : keys.withKey(at: 0) { $0.count })
            }
            // The candidates come in key order: one cursor goes from each to the next, and LMDB
            // looks on the page it stands on before descending from the root.
            let records = runner == nil ? nil : try transaction.cursor(table)
            for position in 0..<keys.count {
                let more = try keys.withKey(at: position) { key in
                    guard let records else { return visitor.take(key: key) }
                    guard let found = try records.seek(exactly: key) else { return true }
                    return try consider(key, found.value)
                }
                if !more { break }
            }
        case .indexOrder(let property, let descending):
            guard let index = property.index else { break }
            let cursor = try transaction.cursor(index)
            guard descending else {
                var entry = try cursor.first()
                while let current = entry, try considerKey(current.value) {
                    entry = try cursor.next()
                }
                break
            }
            // Keys in descending order, but each key's objects in ascending key order, as a stable
            // in-memory sort would leave ties.
            // (MDB_SET_KEY, not MDB_FIRST_DUP, repositions: after MDB_LAST the cursor is at its end.)
            var entry = try cursor.last()
            walk: while let group = entry {
                let key = Array(group.key)
                var value = try key.withUnsafeBytes { try cursor.seek(exactly: $0) }
                while let current = value {
                    guard try considerKey(current.value) else { break walk }
                    value = try cursor.nextValueOfKey()
                }
                _ = try key.withUnsafeBytes { try cursor.seek(exactly: $0) }
                entry = try cursor.previousKey()
            }
        }
    }

    // MARK: Sorting and distinct

    /// `keys` in the spec's sort order; `records` (the keys' records, when the scan kept them)
    /// spare reading each object again.
    ///
    /// The sort values go in one flat array (a property of the object itself read from its slot,
    /// not looked up by name), and one numeric sort key is compared as plain numbers.
    private func sort(_ keys: [[UInt8]], records: [RecordReader]?, _ reader: QueryReader) throws -> [[UInt8]] {
        let paths = QueryPaths(reader: reader)
        let codec = ValueCodec(schema: reader.catalog.schemaIndex)
        let kept = records.flatMap { $0.count == keys.count ? $0 : nil }
        let direct: [BoundProperty?] = sortPaths.map { path in
            guard path.count == 1, let property = binding[path[0]] else { return nil }
            return property
        }
        let width = sortPaths.count
        var values: [StoredValue] = []
        values.reserveCapacity(keys.count * width)
        for index in keys.indices {
            for (position, path) in sortPaths.enumerated() {
                if let kept, let property = direct[position] {
                    values.append(codec.decodeField(kept[index].field(property.slot), of: property.schema))
                } else if let kept {
                    values.append(try paths.value(at: path, from: kept[index], in: binding))
                } else {
                    values.append(try paths.value(at: path, of: keys[index], in: binding))
                }
            }
        }
        let sorts = spec.sorts
        var order = Array(keys.indices)
        // Ties in table-key order, whichever path found them: live results place changed
        // objects by the same order (`QueryOrder`).
        if width == 1, let numbers = Self.plainNumbers(values) {
            let ascending = sorts[0].ascending
            order.sort { left, right in
                let a = numbers[left]
                let b = numbers[right]
                if a != b { return ascending ? a < b : a > b }
                return keys[left].lexicographicallyPrecedes(keys[right])
            }
        } else {
            order.sort { left, right in
                for (index, sort) in sorts.enumerated() {
                    let order = QueryOrdering.compare(
                        values[left * width + index], values[right * width + index], sort.options)
                    if order != 0 { return sort.ascending ? order < 0 : order > 0 }
                }
                return keys[left].lexicographicallyPrecedes(keys[right])
            }
        }
        return order.map { keys[$0] }
    }

    /// `values` as `Double`s when each is a `Double` other than NaN, or each an integer that a
    /// `Double` holds exactly: compared as `QueryOrdering` compares them.
    private static func plainNumbers(_ values: [StoredValue]) -> [Double]? {
        var numbers: [Double] = []
        numbers.reserveCapacity(values.count)
        for value in values {
            switch value {
            case .double(let number) where !number.isNaN: numbers.append(number)
            case .int(let number) where number.magnitude <= 1 << 53: numbers.append(Double(number))
            default: return nil
            }
        }
        return numbers
    }

    private func distinct(_ keys: [[UInt8]], _ reader: QueryReader) throws -> [[UInt8]] {
        try distinct(keys, at: distinctPaths, reader)
    }

    /// The first key of each distinct combination of the values at `distinctPaths`, in order.
    private func distinct(_ keys: [[UInt8]], at distinctPaths: [[String]], _ reader: QueryReader) throws
        -> [[UInt8]]
    {
        let paths = QueryPaths(reader: reader)
        var seen = Set<[StoredValue]>()
        return try keys.filter { key in
            seen.insert(try distinctPaths.map { try paths.value(at: $0, of: key, in: binding) }).inserted
        }
    }

    /// `keys` sorted by `sorts` (read at `sortPaths`), equal objects kept in the order given, as
    /// Realm's sort after a `DISTINCT` or `LIMIT` keeps them.
    private func stableSort(_ keys: [[UInt8]], by sorts: [SortKey], at sortPaths: [[String]], _ reader: QueryReader)
        throws -> [[UInt8]]
    {
        let paths = QueryPaths(reader: reader)
        let rows = try keys.map { key in (key, try sortPaths.map { try paths.value(at: $0, of: key, in: binding) }) }
        return rows.enumerated().sorted { left, right in
            for (index, sort) in sorts.enumerated() {
                let order = QueryOrdering.compare(left.element.1[index], right.element.1[index], sort.options)
                if order != 0 { return sort.ascending ? order < 0 : order > 0 }
            }
            return left.offset < right.offset
        }.map(\.element.0)
    }
}

/// The keys a scan of several lookups has met.
private final class SeenKeys {
    private var keys = Set<[UInt8]>()

    /// Whether `key` is new; it is met from now on.
    func insert(_ key: UnsafeRawBufferPointer) -> Bool { keys.insert(Array(key)).inserted }
}

/// What a scan hands its matches to.
protocol MatchVisitor {
    /// Whether the visitor takes more matches.
    var wantsMore: Bool { get }
    /// Takes one match; returns `false` once it has enough.
    mutating func take(key: UnsafeRawBufferPointer, record: RecordReader) -> Bool
    /// Takes one match whose record was not read (an index decided it); returns `false` once it has enough.
    mutating func take(key: UnsafeRawBufferPointer) -> Bool
    /// Told, before the first match, that at most `count` matches come, each with a key about
    /// as long as `keyLength`: room for them all at once, not by doubling.
    mutating func expect(_ count: Int, keyLength: Int)
}

extension MatchVisitor {
    mutating func expect(_ count: Int, keyLength: Int) {}
}

/// Counts matches, up to a limit.
struct MatchCounter: MatchVisitor {
    let limit: Int?
    private(set) var count = 0

    init(limit: Int?) { self.limit = limit }

    var wantsMore: Bool { limit.map { count < $0 } ?? true }

    @inline(__always)
    mutating func take(key: UnsafeRawBufferPointer, record: RecordReader) -> Bool {
        count += 1
        return wantsMore
    }

    mutating func take(key: UnsafeRawBufferPointer) -> Bool {
        count += 1
        return wantsMore
    }
}

/// Keeps matches' keys, end to end in one buffer, and their records, up to a limit.
struct FlatMatchCollector: MatchVisitor {
    let limit: Int?
    private(set) var keys = FlatKeys()
    private(set) var records: [RecordReader] = []

    init(limit: Int?) { self.limit = limit }

    var wantsMore: Bool { limit.map { keys.count < $0 } ?? true }

    @inline(__always)
    mutating func take(key: UnsafeRawBufferPointer, record: RecordReader) -> Bool {
        keys.append(key)
        records.append(record)
        return wantsMore
    }

    mutating func take(key: UnsafeRawBufferPointer) -> Bool {
        keys.append(key)
        hasEveryRecord = false
        return wantsMore
    }

    /// The matches' records, unless some match came without one.
    var keptRecords: [RecordReader]? { hasEveryRecord ? records : nil }
    private var hasEveryRecord = true

    mutating func expect(_ count: Int, keyLength: Int) {
        let count = limit.map { Swift.min($0, count) } ?? count
        guard keys.isEmpty, count > 1 else { return }
        keys.reserve(count, keyLength: keyLength)
        records.reserveCapacity(count)
    }
}

/// Keeps matches' keys and records, up to a limit.
struct MatchCollector: MatchVisitor {
    let limit: Int?
    private(set) var keys: [[UInt8]] = []
    private(set) var records: [RecordReader] = []

    init(limit: Int?) { self.limit = limit }

    var wantsMore: Bool { limit.map { keys.count < $0 } ?? true }

    @inline(__always)
    mutating func take(key: UnsafeRawBufferPointer, record: RecordReader) -> Bool {
        keys.append(Array(key))
        records.append(record)
        return wantsMore
    }

    mutating func take(key: UnsafeRawBufferPointer) -> Bool {
        keys.append(Array(key))
        hasEveryRecord = false
        return wantsMore
    }

    /// The matches' records, unless some match came without one.
    var keptRecords: [RecordReader]? { hasEveryRecord ? records : nil }
    private var hasEveryRecord = true
}

/// A query's whole filter, compiled when it is made or at its first use; shared by the queries
/// ``PreparedQuery/limited(to:)`` derives.
final class LazyFilter: Sendable {
    private enum State {
        case compiled(FilterProgram?)
        case pending(QueryExpression, FilterCompiler)
    }
    private let state: Lock<State>

    init(_ program: FilterProgram?) {
        state = Lock(.compiled(program))
    }

    init(compiling expression: QueryExpression, with compiler: FilterCompiler) {
        state = Lock(.pending(expression, compiler))
    }

    func program() throws -> FilterProgram? {
        try state.withLock { state in
            switch state {
            case .compiled(let program): return program
            case .pending(let expression, let compiler):
                let program = try compiler.compile(expression)
                state = .compiled(program)
                return program
            }
        }
    }
}
