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
public struct Results<Element: Object>: RandomAccessCollection {
    let context: StoreContext
    let binding: TypeBinding
    let spec: QuerySpec
    let keyList: KeyList
    private var keys: KeyList { keyList }

    init(context: StoreContext, binding: TypeBinding, spec: QuerySpec = QuerySpec()) {
        self.context = context
        self.binding = binding
        self.spec = spec
        self.keyList = KeyList(context: context, binding: binding, spec: spec)
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
            preconditionFailure("A \(binding.schema.name) key in \(context.database.configuration.path) is damaged.")
        }
        let object = context.makeObject(Element.self, binding: binding, keyBytes: key, key: objectKey)
        if let record = keys.record(at: position) { object.accessor?.prime(with: record) }
        return object
    }

    /// Iterates the objects as they were when iteration began, even if the loop
    /// changes them (as Realm's `for … in` does).
    public func makeIterator() -> Iterator {
        let snapshot = keys.snapshot()
        return Iterator(results: self, keys: snapshot, generation: context.generation)
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
                let context = results.context
                if context.generation == generation {
                    let object = context.makeObject(Element.self, binding: binding, keyBytes: key, key: objectKey)
                    if let record = results.keys.record(at: position - 1) { object.accessor?.prime(with: record) }
                    return object
                }
                // The loop wrote: skip objects it deleted.
                guard let reader = try? context.record(in: binding, key: key) else { continue }
                let object = context.makeObject(Element.self, binding: binding, keyBytes: key, key: objectKey)
                object.accessor?.prime(with: reader)
                return object
            }
            return nil
        }
    }
}

/// The table keys of a ``Results``, read once per snapshot on first use.
final class KeyList {
    private let context: StoreContext
    private let binding: TypeBinding
    private let spec: QuerySpec
    private var keys = KeyChunks()
    /// The matching records from the same scan, when kept: an object made from one needs no lookup.
    private var records: [RecordReader]?
    private var generation: UInt64 = .max

    init(context: StoreContext, binding: TypeBinding, spec: QuerySpec) {
        self.context = context
        self.binding = binding
        self.spec = spec
    }

    var count: Int {
        if generation == context.generation { return keys.count }
        guard spec.isEverything else {
            do {
                return try QueryExecution(context: context, binding: binding, spec: spec).count()
            } catch {
                preconditionFailure("Counting \(binding.schema.name) failed: \(error)")
            }
        }
        guard let table = binding.table else { return 0 }
        do {
            return try context.readTransaction().statistics(of: table).entries
        } catch {
            preconditionFailure("Counting \(binding.schema.name) failed: \(error)")
        }
    }

    func key(at position: Int) -> [UInt8] {
        snapshot()[position]
    }

    /// The record at `position` read by the query's scan, if kept and still valid.
    func record(at position: Int) -> RecordReader? {
        guard generation == context.generation, let records, position < records.count else { return nil }
        return records[position]
    }

    /// Sets the keys for the context's current snapshot, worked out elsewhere (by the notifier).
    func install(_ newKeys: KeyChunks) {
        keys = newKeys
        records = nil
        generation = context.generation
    }

    /// The keys as of the context's current snapshot.
    func snapshot() -> KeyChunks {
        if generation != context.generation {
            do {
                if spec.isEverything {
                    keys = KeyChunks(try context.allKeys(in: binding))
                    records = nil
                } else {
                    let (matched, matchedRecords) = try QueryExecution(context: context, binding: binding, spec: spec)
                        .matches()
                    keys = KeyChunks(matched)
                    records = matchedRecords
                }
            } catch {
                preconditionFailure("Reading \(binding.schema.name) failed: \(error)")
            }
            generation = context.generation
        }
        return keys
    }
}
