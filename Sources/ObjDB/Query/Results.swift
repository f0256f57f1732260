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
/// A damaged record reads as typed getters read it: as if every property held its zero value
/// (`objdb-inspect check` reports it). The throwing API (`dynamicObjects`, the aggregates)
/// throws ``ObjDBError/corruptRecord(path:type:reason:)`` instead.
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
    public subscript(position: Int) -> Element {
        object(keys.key(at: position), record: keys.record(at: position))
    }

    private func object(_ key: [UInt8], record: RecordReader?) -> Element {
        guard
            let objectKey = key.withUnsafeBytes({
                ObjectKeyCodec.decode($0, primaryKeyType: binding.primaryKey?.schema.type)
            })
        else {
            preconditionFailure("A \(binding.schema.name) key in \(snapshot.catalog.path) is damaged.")
        }
        let object = snapshot.makeObject(Element.self, binding: binding, keyBytes: key, key: objectKey)
        if let record { object.accessor?.prime(with: record) }
        return object
    }

    /// Iterates the objects as they were when iteration began, even if the loop
    /// changes them (as Realm's `for … in` does).
    public func makeIterator() -> Iterator {
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
            snapshot: Snapshot, binding: TypeBinding, keys: KeyChunks, records: [RecordReader]?, generation: UInt64
        ) {
            walk = ObjectWalk(
                snapshot: snapshot, binding: binding, type: Element.self, keys: keys, records: records,
                generation: generation)
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
final class KeyList {
    private let snapshot: Snapshot
    private let binding: TypeBinding
    private let query: PreparedQuery
    private var keys = KeyChunks()
    /// The matching records from the same scan, when kept: an object made from one needs no lookup.
    private var records: [RecordReader]?
    /// The snapshot generation `keys` belong to.
    private var generation: UInt64 = .max
    private var knownCount: (generation: UInt64, count: Int)?
    private var knownFirst: (generation: UInt64, key: [UInt8]?, record: RecordReader?)?

    init(snapshot: Snapshot, binding: TypeBinding, query: PreparedQuery) {
        self.snapshot = snapshot
        self.binding = binding
        self.query = query
    }

    var count: Int {
        let now = snapshot.generation
        if generation == now { return keys.count }
        if let known = knownCount, known.generation == now { return known.count }
        let count = run("Counting") { reader in
            query.spec.isEverything ? try reader.source.count(of: binding) : try query.count(reader)
        }
        knownCount = (now, count)
        return count
    }

    var isEmpty: Bool {
        let now = snapshot.generation
        if generation == now { return keys.isEmpty }
        if let known = knownCount, known.generation == now { return known.count == 0 }
        return first() == nil
    }

    /// The first object's key and, when the scan read it, its record.
    func first() -> (key: [UInt8], record: RecordReader?)? {
        let now = snapshot.generation
        if generation == now { return keys.isEmpty ? nil : (keys[0], record(at: 0)) }
        if let known = knownFirst, known.generation == now { return known.key.map { ($0, known.record) } }
        if let known = knownCount, known.generation == now, known.count == 0 { return nil }
        let found = run("Reading") { reader in try query.first(reader) }
        knownFirst = (now, found?.key, found?.record)
        return found
    }

    func key(at position: Int) -> [UInt8] {
        current()[position]
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
        generation = snapshot.generation
    }

    /// The keys as of the context's current snapshot, with the records the scan read, when kept.
    func currentWithRecords() -> (KeyChunks, [RecordReader]?) {
        let keys = current()
        return (keys, records)
    }

    /// The keys as of the context's current snapshot.
    func current() -> KeyChunks {
        let now = snapshot.generation
        if generation != now {
            let (matched, matchedRecords) = run("Reading") { reader in
                query.spec.isEverything
                    ? (KeyChunks(try reader.source.allKeys(in: binding)), nil) : try query.matchedKeys(reader)
            }
            keys = matched
            records = matchedRecords
            generation = now
        }
        return keys
    }

    /// The count, worked out within `budget` unless known for the snapshot (``count``'s answer).
    func count(within budget: QueryBudget) throws -> Int {
        let now = snapshot.generation
        if generation == now { return keys.count }
        if let known = knownCount, known.generation == now { return known.count }
        var reader = QueryReader(source: try snapshot.source(), readsDamagedAsEmpty: true)
        reader.budget = budget
        let count = query.spec.isEverything ? try reader.source.count(of: binding) : try query.count(reader)
        knownCount = (now, count)
        return count
    }

    /// Reads the keys for the snapshot within `budget`, unless they are known; a throw keeps none.
    func load(within budget: QueryBudget) throws {
        let now = snapshot.generation
        guard generation != now else { return }
        var reader = QueryReader(source: try snapshot.source(), readsDamagedAsEmpty: true)
        reader.budget = budget
        let (matched, matchedRecords) =
            query.spec.isEverything
            ? (KeyChunks(try reader.source.allKeys(in: binding)), nil) : try query.matchedKeys(reader)
        keys = matched
        records = matchedRecords
        generation = now
    }

    /// Runs `body` on the snapshot's current transaction; damaged records read as empty ones.
    private func run<Answer>(_ what: String, _ body: (QueryReader) throws -> Answer) -> Answer {
        do {
            return try body(QueryReader(source: try snapshot.source(), readsDamagedAsEmpty: true))
        } catch {
            preconditionFailure("\(what) \(binding.schema.name) failed: \(error)")
        }
    }
}
