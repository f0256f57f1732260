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
/// A `Results` reads the snapshot of the view it came from; the query runs once per
/// snapshot, when an element or the count is first read.
///
/// ## Topics
///
/// ### Filtering
/// - ``filter(_:_:)``
/// - ``where(_:)``
/// - ``filter(_:)``
/// - ``explain()``
///
/// ### Ordering and cutting
/// - ``sorted(byKeyPath:ascending:)``
/// - ``sorted(by:)``
/// - ``distinct(by:)``
/// - ``limit(_:)``
///
/// ### Aggregates
/// - ``min(ofProperty:)``
/// - ``max(ofProperty:)``
/// - ``sum(ofProperty:)``
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
/// - ``startIndex``
/// - ``endIndex``
/// - ``subscript(_:)``
/// - ``makeIterator()``
/// - ``Iterator``
public struct Results<Element: Object>: RandomAccessCollection {
    let snapshot: Snapshot
    let binding: TypeBinding
    let spec: QuerySpec
    let keyList: KeyList
    private var keys: KeyList { keyList }

    init(snapshot: Snapshot, binding: TypeBinding, spec: QuerySpec = QuerySpec()) {
        self.snapshot = snapshot
        self.binding = binding
        self.spec = spec
        self.keyList = KeyList(snapshot: snapshot, binding: binding, spec: spec)
    }

    /// The position of the first object.
    public var startIndex: Int { 0 }
    /// The position after the last object.
    public var endIndex: Int { keys.count }

    /// The object at `position`.
    public subscript(position: Int) -> Element {
        let key = keys.key(at: position)
        guard
            let objectKey = key.withUnsafeBytes({
                ObjectKeyCodec.decode($0, primaryKeyType: binding.primaryKey?.schema.type)
            })
        else {
            preconditionFailure("A \(binding.schema.name) key in \(snapshot.catalog.path) is damaged.")
        }
        let object = snapshot.makeObject(Element.self, binding: binding, keyBytes: key, key: objectKey)
        if let record = keys.record(at: position) { object.accessor?.prime(with: record) }
        return object
    }

    /// Iterates the objects as they were when iteration began, even if the loop
    /// changes them (as Realm's `for … in` does).
    public func makeIterator() -> Iterator {
        let keys = self.keys.current()
        return Iterator(results: self, keys: keys, generation: snapshot.generation)
    }

    /// Walks a snapshot of the keys of a ``Results``.
    public struct Iterator: IteratorProtocol {
        let results: Results
        let keys: KeyChunks
        /// The context's generation when the keys were read: while it holds, every key exists.
        let generation: UInt64
        var position = 0
        /// Where the walk is in the key chunks: the chunk and the next index in it.
        private var chunk = 0
        private var offset = 0
        private var current: [[UInt8]] = []

        init(results: Results, keys: KeyChunks, generation: UInt64) {
            self.results = results
            self.keys = keys
            self.generation = generation
            if keys.chunkCount > 0 { current = keys.chunk(0) }
        }

        /// The next object that still exists, or `nil` at the end.
        public mutating func next() -> Element? {
            while position < keys.count {
                while offset == current.count {
                    chunk += 1
                    current = keys.chunk(chunk)
                    offset = 0
                }
                let key = current[offset]
                offset += 1
                position += 1
                let binding = results.binding
                guard
                    let objectKey = key.withUnsafeBytes({
                        ObjectKeyCodec.decode($0, primaryKeyType: binding.primaryKey?.schema.type)
                    })
                else { continue }
                let snapshot = results.snapshot
                if snapshot.generation == generation {
                    let object = snapshot.makeObject(Element.self, binding: binding, keyBytes: key, key: objectKey)
                    if let record = results.keys.record(at: position - 1) { object.accessor?.prime(with: record) }
                    return object
                }
                // The loop wrote: skip objects it deleted.
                guard let reader = try? snapshot.record(in: binding, key: key) else { continue }
                let object = snapshot.makeObject(Element.self, binding: binding, keyBytes: key, key: objectKey)
                object.accessor?.prime(with: reader)
                return object
            }
            return nil
        }
    }
}

/// The table keys of a ``Results``, read once per snapshot on first use.
final class KeyList {
    private let snapshot: Snapshot
    private let binding: TypeBinding
    private let spec: QuerySpec
    private var keys = KeyChunks()
    /// The matching records from the same scan, when kept: an object made from one needs no lookup.
    private var records: [RecordReader]?
    private var generation: UInt64 = .max

    init(snapshot: Snapshot, binding: TypeBinding, spec: QuerySpec) {
        self.snapshot = snapshot
        self.binding = binding
        self.spec = spec
    }

    var count: Int {
        if generation == snapshot.generation { return keys.count }
        guard spec.isEverything else {
            do {
                return try QueryExecution(source: snapshot.source(), binding: binding, spec: spec).count()
            } catch {
                preconditionFailure("Counting \(binding.schema.name) failed: \(error)")
            }
        }
        guard let table = binding.table else { return 0 }
        do {
            return try snapshot.readTransaction().statistics(of: table).entries
        } catch {
            preconditionFailure("Counting \(binding.schema.name) failed: \(error)")
        }
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

    /// The keys as of the context's current snapshot.
    func current() -> KeyChunks {
        if generation != snapshot.generation {
            do {
                if spec.isEverything {
                    keys = KeyChunks(try snapshot.source().allKeys(in: binding))
                    records = nil
                } else {
                    let (matched, matchedRecords) = try QueryExecution(
                        source: snapshot.source(), binding: binding, spec: spec
                    )
                    .matches()
                    keys = KeyChunks(matched)
                    records = matchedRecords
                }
            } catch {
                preconditionFailure("Reading \(binding.schema.name) failed: \(error)")
            }
            generation = snapshot.generation
        }
        return keys
    }
}
