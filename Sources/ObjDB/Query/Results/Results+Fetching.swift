extension Results {
    /// The number of objects, or the fault that kept it from being read.
    ///
    /// ```swift
    /// let count = try tweets.fetchCount()
    /// ```
    ///
    /// ``count`` reads the same number, once per snapshot, but cannot throw: it reports a fault
    /// to ``Configuration/faultHandler`` and reads 0.
    ///
    /// - Throws: an ``ObjDBError`` when the snapshot cannot be read (``ObjDBError/Code/lmdb``
    ///   with a full reader table or an I/O error, say), or
    ///   ``ObjDBError/corruptRecord(path:type:reason:)`` when the query reads a damaged record.
    public func fetchCount() throws -> Int {
        try keyList.fetchCount()
    }

    /// The first object, `nil` when there is none, or the fault that kept it from being read.
    ///
    /// - Throws: as ``fetchCount()`` does, and ``ObjDBError/corruptRecord(path:type:reason:)``
    ///   when the first object's key or record is damaged.
    public func fetchFirst() throws -> Element? {
        guard let (key, record) = try keyList.fetchFirst() else { return nil }
        return try fetchedObject(key, record: record)
    }

    /// The objects in an array, each checked as ``fetchCursor()`` checks it.
    ///
    /// - Throws: the first fault ``ObjectCursor/next()`` meets.
    public func fetchAll() throws -> [Element] {
        var cursor = try fetchCursor()
        var objects: [Element] = []
        while let object = try cursor.next() { objects.append(object) }
        return objects
    }

    /// A cursor over the objects whose `next()` throws what iterating reports, as GRDB's cursors do.
    ///
    /// ```swift
    /// var cursor = try tweets.fetchCursor()
    /// while let tweet = try cursor.next() { print(tweet.text) }
    /// ```
    ///
    /// - Throws: as ``fetchCount()`` does, when the keys cannot be read.
    public func fetchCursor() throws -> ObjectCursor<Element> {
        let (keys, records) = try keyList.fetchCurrentWithRecords()
        return ObjectCursor(results: self, keys: keys, records: records, generation: snapshot.generation)
    }

    /// The object at `key`, its record read (or checked) now: a damaged key or record throws.
    func fetchedObject(_ key: [UInt8], record: RecordReader?) throws -> Element? {
        guard let objectKey = binding.objectKey(fromTableKey: key) else { throw snapshot.damagedKey(of: binding) }
        guard let record = try record ?? snapshot.record(in: binding, key: key) else { return nil }
        let object = snapshot.makeObject(Element.self, binding: binding, keyBytes: key, key: objectKey)
        object.accessor?.prime(with: record)
        return object
    }
}

/// The objects of a ``Results`` one at a time, with the faults thrown: what
/// ``Results/fetchCursor()`` returns.
///
/// Each object's record is read (or was read by the query) and checked before the object is
/// returned, so its properties then read without a fault. Like its `Results`, a cursor belongs to
/// its view's thread. It walks the objects as they were when it was made; an object the loop
/// deletes is skipped.
public struct ObjectCursor<Element: Object> {
    private let results: Results<Element>
    private let keys: KeyChunks
    /// The records the query read with the keys, when kept; valid while `generation` holds.
    private let records: [RecordReader]?
    private let generation: UInt64
    private var position = 0

    init(results: Results<Element>, keys: KeyChunks, records: [RecordReader]?, generation: UInt64) {
        self.results = results
        self.keys = keys
        self.records = records.flatMap { $0.count == keys.count ? $0 : nil }
        self.generation = generation
    }

    /// The next object that still exists, or `nil` at the end.
    ///
    /// - Throws: ``ObjDBError/corruptRecord(path:type:reason:)`` for a damaged key or record,
    ///   or what reading the store meets (once the loop wrote, each object is looked up again).
    public mutating func next() throws -> Element? {
        while position < keys.count {
            let index = position
            position += 1
            let kept = results.snapshot.generation == generation ? records?[index] : nil
            if let object = try results.fetchedObject(keys[index], record: kept) { return object }
        }
        return nil
    }
}
