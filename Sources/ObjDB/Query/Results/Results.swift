/// The objects of one type that a query selects, read lazily: nothing is decoded
/// until an element is read.
///
/// ```swift
/// let tweets = view.objects(Tweet.self)
/// print(tweets.count)          // from the table's statistics, no decoding
/// let popular = try tweets.filter("retweetCount > %@ AND lang == 'en'", 10).sorted(byKeyPath: "createdAt")
/// for tweet in popular.prefix(20) { print(tweet.text) }
/// ```
///
/// A `Results` reads the snapshot of the view it came from. Its query is compiled and planned
/// once, when the `Results` is made; it runs once per snapshot for the elements and once for the
/// count (counting keeps no keys), and not again until the snapshot moves.
///
/// `count`, `first`, iteration and subscripts cannot throw, so a fault they meet (an I/O error,
/// a full reader table, a damaged record or key) is reported once to
/// ``Configuration/faultHandler`` and reads as empty: a count of 0, no objects, and a damaged
/// record as an object whose properties hold zero values (`objdb-inspect check` finds it).
/// Misuse (a position past the end) still stops the program. Callers who must know use the
/// throwing forms, as in GRDB: ``fetchCount()``, ``fetchFirst()``, ``fetchAll()`` and
/// ``fetchCursor()``.
///
/// ## Topics
///
/// ### Filtering
/// - ``filter(_:_:)``
/// - ``where(_:)``
/// - ``filter(_:)``
/// - ``explain()``
///
/// ### Bounding a query
/// - ``count(deadline:)``
/// - ``evaluated(deadline:)``
///
/// ### Ordering and cutting
/// - ``sorted(byKeyPath:ascending:)``
/// - ``sorted(by:)``
/// - ``sorted(by:ascending:)``
/// - ``distinct(by:)``
/// - ``limit(_:)``
///
/// ### Aggregates
/// - ``min(ofProperty:)->StoredValue?``
/// - ``max(ofProperty:)->StoredValue?``
/// - ``sum(ofProperty:)->Double``
/// - ``min(ofProperty:)->T?``
/// - ``max(ofProperty:)->T?``
/// - ``sum(ofProperty:)->T``
/// - ``average(ofProperty:)``
///
/// ### Observing changes
/// - ``observe(keyPaths:_:)``
/// - ``observe(on:keyPaths:_:)``
/// - ``changes``
///
/// ### Crossing threads
/// - ``freeze()``
///
/// ### Reading the objects, or the fault
/// - ``fetchCount()``
/// - ``fetchFirst()``
/// - ``fetchAll()``
/// - ``fetchCursor()``
/// - ``ObjectCursor``
///
/// ### Reading the objects
/// - ``count``
/// - ``isEmpty``
/// - ``first``
/// - ``startIndex``
/// - ``endIndex``
/// - ``subscript(_:)``
/// - ``makeIterator()``
/// - ``Iterator``
public struct Results<Element: Object>: RandomAccessCollection {
    let snapshot: Snapshot
    let binding: TypeBinding
    /// The query, compiled and planned once.
    let query: PreparedQuery
    let keyList: KeyList
    private var keys: KeyList { keyList }
    var spec: QuerySpec { query.spec }

    /// Results of a query prepared already.
    init(snapshot: Snapshot, binding: TypeBinding, query: PreparedQuery) {
        self.snapshot = snapshot
        self.binding = binding
        self.query = query
        self.keyList = KeyList(snapshot: snapshot, binding: binding, query: query)
    }

    /// Results of `spec`, prepared now.
    ///
    /// - Throws: ``ObjDBError/invalidQuery(type:reason:)`` for a query the schema cannot run.
    init(snapshot: Snapshot, binding: TypeBinding, preparing spec: QuerySpec) throws {
        self.init(
            snapshot: snapshot, binding: binding,
            query: try PreparedQuery(catalog: snapshot.catalog, binding: binding, spec: spec))
    }

    /// Results of a spec that ran before with this schema (every object, or one carried between threads).
    ///
    /// - Precondition: the spec's query is one the schema can run.
    init(snapshot: Snapshot, binding: TypeBinding, spec: QuerySpec = QuerySpec()) {
        do {
            try self.init(snapshot: snapshot, binding: binding, preparing: spec)
        } catch {
            preconditionFailure("The query on \(binding.schema.name) cannot run: \(error)")
        }
    }

    /// The number of objects: from the table's statistics for every object of a type, otherwise
    /// counted by the query without keeping their keys; read once per snapshot.
    public var count: Int { keys.count }

    /// Whether there are no objects; the query stops at the first match.
    public var isEmpty: Bool { keys.isEmpty }

    /// The first object, or `nil`; without a sort (or with one an index holds) the query stops at it.
    public var first: Element? {
        guard let (key, record) = keys.first() else { return nil }
        return object(key, record: record)
    }

    /// The position of the first object.
    public var startIndex: Int { 0 }
    /// The position after the last object.
    public var endIndex: Int { keys.count }

    /// The object at `position`.
    ///
    /// When a fault keeps the keys from being read (it is reported, and the count reads 0), an
    /// object whose properties read as zero values stands in.
    public subscript(position: Int) -> Element {
        guard let key = keys.key(at: position) else {
            return snapshot.placeholderObject(Element.self, binding: binding)
        }
        return object(key, record: keys.record(at: position))
    }

    private func object(_ key: [UInt8], record: RecordReader?) -> Element {
        let objectKey = snapshot.objectKey(fromTableKey: key, of: binding)
        let object = snapshot.makeObject(Element.self, binding: binding, keyBytes: key, key: objectKey)
        if let record { object.accessor?.prime(with: record) }
        return object
    }

    /// Iterates the objects as they were when iteration began, even if the loop
    /// changes them (as Realm's `for … in` does).
    /// A loop over every object of a type, or a filter's matches in table order, reads them one
    /// at a time, holding no list of keys; other results read their keys first.
    public func makeIterator() -> Iterator {
        if !keys.isRead, let stream = ScanStream(query: query, snapshot: snapshot) {
            return Iterator(
                snapshot: snapshot, binding: binding, keys: KeyChunks(), records: nil,
                generation: snapshot.generation, stream: stream)
        }
        let (keys, records) = self.keys.currentWithRecords()
        return Iterator(
            snapshot: snapshot, binding: binding, keys: keys, records: records, generation: snapshot.generation)
    }

    /// Walks a snapshot of the keys of a ``Results``.
    public struct Iterator: IteratorProtocol {
        private var walk: ObjectWalk
        /// Whether every object the walk makes is an `Element`: the bound class is `Element` or
        /// a subclass. (Otherwise each is cast, and a wrong one stops the program, as it did.)
        private let makesElements: Bool

        init(
            snapshot: Snapshot, binding: TypeBinding, keys: KeyChunks, records: [RecordReader]?, generation: UInt64,
            stream: ScanStream? = nil
        ) {
            walk = ObjectWalk(
                snapshot: snapshot, binding: binding, type: Element.self, keys: keys, records: records,
                generation: generation, stream: stream)
            makesElements = binding.swiftType.map { $0 is Element.Type } ?? true
        }

        /// The next object that still exists, or `nil` at the end.
        public mutating func next() -> Element? {
            guard let object = walk.next() else { return nil }
            guard makesElements else { return (object as! Element) }
            return unsafeDowncast(object, to: Element.self)
        }
    }
}

/// The table keys of a ``Results``, read once per snapshot on first use, and its count and first
/// object, each also read once per snapshot when asked for before the keys.
///
/// Each answer has a form that cannot throw, which reports a fault and reads as empty (the rule in
/// docs/ARCHITECTURE.md), and a throwing one (`fetch…`). A damaged record reads as an empty one in
/// the first; the answer remembers it, and the second throws it.
final class KeyList {
    private let snapshot: Snapshot
    private let binding: TypeBinding
    private let query: PreparedQuery
    private var keys = KeyChunks()
    /// The matching records from the same scan, when kept: an object made from one needs no lookup.
    private var records: [RecordReader]?
    /// The snapshot generation `keys` belong to.
    private var generation: UInt64 = .max
    /// The damaged record the scan for `keys` read as empty, if it met one.
    private var keysDamage: ObjDBError?
    private var knownCount: (generation: UInt64, count: Int, damage: ObjDBError?)?
    private var knownFirst: (generation: UInt64, key: [UInt8]?, record: RecordReader?, damage: ObjDBError?)?

    init(snapshot: Snapshot, binding: TypeBinding, query: PreparedQuery) {
        self.snapshot = snapshot
        self.binding = binding
        self.query = query
    }

    /// Whether the keys were read for the snapshot's current version.
    var isRead: Bool { generation == snapshot.generation }

    /// The count, 0 when the snapshot cannot be read.
    var count: Int { reportingFaults(orElse: 0) { try count(throwing: false) } }

    /// The count, or the fault that kept it from being read.
    func fetchCount() throws -> Int { try count(throwing: true) }

    private func count(throwing: Bool) throws -> Int {
        let now = snapshot.generation
        if generation == now { return try answer(keys.count, damage: keysDamage, throwing) }
        if let known = knownCount, known.generation == now {
            return try answer(known.count, damage: known.damage, throwing)
        }
        let (count, damage) = try run(throwing) { reader in
            query.spec.isEverything ? try reader.source.count(of: binding) : try query.count(reader)
        }
        knownCount = (now, count, damage)
        return count
    }

    var isEmpty: Bool {
        let now = snapshot.generation
        if generation == now { return keys.isEmpty }
        if let known = knownCount, known.generation == now { return known.count == 0 }
        return first() == nil
    }

    /// The first object's key and, when the scan read it, its record; `nil` when the snapshot cannot be read.
    func first() -> (key: [UInt8], record: RecordReader?)? {
        reportingFaults(orElse: nil) { try first(throwing: false) }
    }

    /// The first object's key and record, or the fault that kept it from being read.
    func fetchFirst() throws -> (key: [UInt8], record: RecordReader?)? { try first(throwing: true) }

    private func first(throwing: Bool) throws -> (key: [UInt8], record: RecordReader?)? {
        let now = snapshot.generation
        if generation == now {
            return try answer(keys.isEmpty ? nil : (keys[0], record(at: 0)), damage: keysDamage, throwing)
        }
        if let known = knownFirst, known.generation == now {
            return try answer(known.key.map { ($0, known.record) }, damage: known.damage, throwing)
        }
        if let known = knownCount, known.generation == now, known.count == 0 {
            return try answer(nil, damage: known.damage, throwing)
        }
        let (found, damage) = try run(throwing) { reader in try query.first(reader) }
        knownFirst = (now, found?.key, found?.record, damage)
        return found
    }

    /// The key at `position`, or `nil` when the keys cannot be read (the fault is reported).
    ///
    /// - Precondition: `position` is below the count, when the keys were read.
    func key(at position: Int) -> [UInt8]? {
        let keys = current()
        guard generation == snapshot.generation || position < keys.count else { return nil }
        return keys[position]
    }

    /// The record at `position` read by the query's scan, if kept and still valid.
    func record(at position: Int) -> RecordReader? {
        guard generation == snapshot.generation, let records, position < records.count else { return nil }
        return records[position]
    }

    /// Sets the keys for the snapshot's current transaction, worked out elsewhere (by the notifier).
    func install(_ newKeys: KeyChunks) {
        keys = newKeys
        records = nil
        keysDamage = nil
        generation = snapshot.generation
    }

    /// The keys as of the context's current snapshot, with the records the scan read, when kept.
    func currentWithRecords() -> (KeyChunks, [RecordReader]?) {
        let keys = current()
        return (keys, generation == snapshot.generation ? records : nil)
    }

    /// The keys and records as ``currentWithRecords()`` reads them, or the fault.
    func fetchCurrentWithRecords() throws -> (KeyChunks, [RecordReader]?) {
        (try current(throwing: true), records)
    }

    /// The keys as of the context's current snapshot; none when the snapshot cannot be read.
    func current() -> KeyChunks {
        reportingFaults(orElse: KeyChunks()) { try current(throwing: false) }
    }

    /// The keys as of the context's current snapshot, or the fault that kept them from being read.
    func fetchCurrent() throws -> KeyChunks { try current(throwing: true) }

    private func current(throwing: Bool) throws -> KeyChunks {
        let now = snapshot.generation
        if generation == now { return try answer(keys, damage: keysDamage, throwing) }
        let ((matched, matchedRecords), damage) = try run(throwing) { reader in
            query.spec.isEverything
                ? (KeyChunks(try reader.source.allKeys(in: binding)), nil) : try query.matchedKeys(reader)
        }
        keys = matched
        records = matchedRecords
        keysDamage = damage
        generation = now
        return keys
    }

    /// The count, worked out within `budget` unless known for the snapshot (``count``'s answer).
    /// Damaged records read as empty ones (each reported once); a fault, an expired deadline or a
    /// cancellation throws and keeps nothing.
    func count(within budget: QueryBudget) throws -> Int {
        let now = snapshot.generation
        if generation == now { return keys.count }
        if let known = knownCount, known.generation == now { return known.count }
        let (count, damage) = try run(false, budget: budget) { reader in
            query.spec.isEverything ? try reader.source.count(of: binding) : try query.count(reader)
        }
        knownCount = (now, count, damage)
        return count
    }

    /// Reads the keys for the snapshot within `budget`, unless they are known; a throw keeps none.
    func load(within budget: QueryBudget) throws {
        let now = snapshot.generation
        guard generation != now else { return }
        let ((matched, matchedRecords), damage) = try run(false, budget: budget) { reader in
            query.spec.isEverything
                ? (KeyChunks(try reader.source.allKeys(in: binding)), nil) : try query.matchedKeys(reader)
        }
        keys = matched
        records = matchedRecords
        keysDamage = damage
        generation = now
    }

    /// Runs `body` on the snapshot's current transaction, within `budget` when given. A damaged
    /// record throws; unless `throwing`, `body` then runs again reading damaged records as empty
    /// ones (each reported once), and the damage comes back with the answer.
    private func run<Answer>(
        _ throwing: Bool, budget: QueryBudget? = nil, _ body: (QueryReader) throws -> Answer
    ) throws -> (Answer, ObjDBError?) {
        let source = try snapshot.source()
        var reader = QueryReader(source: source, readsDamagedAsEmpty: false)
        reader.budget = budget
        do {
            return (try body(reader), nil)
        } catch let damage as ObjDBError where damage.code == .corruptRecord && !throwing {
            var reading = QueryReader(source: source, readsDamagedAsEmpty: true)
            reading.budget = budget
            return (try body(reading), damage)
        }
    }

    /// A known answer; a throwing read throws the damage it was read past instead.
    private func answer<Answer>(_ answer: Answer, damage: ObjDBError?, _ throwing: Bool) throws -> Answer {
        if throwing, let damage { throw damage }
        return answer
    }

    /// `body`'s answer, or `empty` when a fault keeps it from being read: the fault is reported
    /// once and nothing is kept, so the next read tries again.
    private func reportingFaults<Answer>(orElse empty: Answer, _ body: () throws -> Answer) -> Answer {
        do {
            return try body()
        } catch {
            snapshot.report(error)
            return empty
        }
    }
}
