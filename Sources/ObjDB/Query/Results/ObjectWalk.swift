/// The work of ``Results/Iterator``: walks the keys a query found and hands out each object
/// that still exists, recycling the one it handed out last.
///
/// Not generic, on purpose: an app's loop calls a generic iterator of this module unspecialised
/// (a metadata argument, generic `withUnsafeBytes`, a retain and release for each reference
/// captured by a closure, per row; W5 in docs/BENCHMARKS.md). Everything done per row is here,
/// compiled for `ObjectBase`, and the iterator only casts what it returns.
struct ObjectWalk {
    private let snapshot: Snapshot
    private let binding: TypeBinding
    /// The results' element type, and the class the objects are made as (the bound class).
    private let type: ObjectBase.Type
    private let madeAs: ObjectBase.Type
    /// Whether the walk may reuse the object it returned last (``Snapshot/recycles(_:)``).
    private let recycles: Bool
    private let primaryKeyType: PropertyType?
    private let keys: KeyChunks
    /// The keys as the query left them, in one buffer (until something edits the list), when
    /// `isFlat`; read where they are (an optional copied out would retain its arrays per row).
    private let flat: FlatKeys
    private let isFlat: Bool
    /// The records the scan read with the keys, when kept; valid while `generation` holds.
    private let records: [RecordReader]?
    /// The context's generation when the keys were read: while it holds, every key exists.
    private let generation: UInt64
    private var position = 0
    /// Where the walk is in the key chunks: the chunk and the next index in it.
    private var chunk = 0
    private var offset = 0
    private var current: [[UInt8]] = []
    /// The object `next()` returned last, reused for the next one once the loop lets go of it.
    private var recycled: ObjectBase?
    /// The matches read one at a time instead of `keys`, when the loop streams them.
    private let stream: ScanStream?

    init(
        snapshot: Snapshot, binding: TypeBinding, type: ObjectBase.Type, keys: KeyChunks, records: [RecordReader]?,
        generation: UInt64, stream: ScanStream? = nil
    ) {
        self.snapshot = snapshot
        self.binding = binding
        self.type = type
        madeAs = binding.swiftType ?? type
        recycles = snapshot.recycles(binding)
        primaryKeyType = binding.primaryKey?.schema.type
        self.keys = keys
        flat = keys.flat ?? FlatKeys()
        isFlat = keys.flat != nil
        self.records = records.flatMap { $0.count == keys.count ? $0 : nil }
        self.generation = generation
        self.stream = stream
        if !isFlat, keys.chunkCount > 0 { current = keys.chunk(0) }
    }

    /// The next object that still exists, or `nil` at the end.
    mutating func next() -> ObjectBase? {
        if let stream { return nextInStream(stream) }
        if isFlat { return nextInFlat() }
        while position < keys.count {
            while offset == current.count {
                chunk += 1
                current = keys.chunk(chunk)
                offset = 0
            }
            let key = current[offset]
            offset += 1
            position += 1
            let primaryKeyType = self.primaryKeyType
            let objectKey =
                key.withUnsafeBytes({ ObjectKeyCodec.decode($0, primaryKeyType: primaryKeyType) })
                ?? snapshot.standInForDamagedKey(of: binding)
            if snapshot.generation == generation {
                let object = snapshot.object(
                    recycling: &recycled, type, binding: binding, keyBytes: key, key: objectKey)
                if let records { object.accessor?.prime(with: records[position - 1]) }
                return object
            }
            // The loop wrote: skip objects it deleted.
            guard let reader = key.withUnsafeBytes({ Self.record(in: snapshot, binding, key: $0) }) else { continue }
            let object = snapshot.object(recycling: &recycled, type, binding: binding, keyBytes: key, key: objectKey)
            object.accessor?.prime(with: reader)
            return object
        }
        return nil
    }

    /// `next()` over keys in one buffer: each key's bytes are read in place, and a recycled
    /// object copies them into the key array it has.
    private mutating func nextInFlat() -> ObjectBase? {
        // The per-row closure captures locals only (capturing `self` would retain what it reads),
        // and the recycled object is moved out of `self` for the loop, not copied.
        var recycled: ObjectBase? = nil
        swap(&recycled, &self.recycled)
        defer { swap(&recycled, &self.recycled) }
        let snapshot = self.snapshot
        let binding = self.binding
        let maker = Maker(type: type, madeAs: madeAs, recycles: recycles)
        let primaryKeyType = self.primaryKeyType
        let generation = self.generation
        while position < flat.count {
            let index = position
            position += 1
            let kept = records?[index]
            let found: ObjectBase? = flat.withKey(at: index) { key in
                let objectKey =
                    ObjectKeyCodec.decode(key, primaryKeyType: primaryKeyType)
                    ?? snapshot.standInForDamagedKey(of: binding)
                var record = kept
                if snapshot.generation != generation {
                    // The loop wrote: skip objects it deleted.
                    record = Self.record(in: snapshot, binding, key: key)
                    guard record != nil else { return nil }
                }
                return maker.object(
                    &recycled, in: snapshot, binding: binding, copying: key, key: objectKey, record: record)
            }
            if let found { return found }
        }
        return nil
    }

    /// `next()` over a ``ScanStream``: each match's key and record are read in place, in the
    /// version the loop began in; once the loop wrote or refreshed, each object is read as it is now.
    private mutating func nextInStream(_ stream: ScanStream) -> ObjectBase? {
        var recycled: ObjectBase? = nil
        swap(&recycled, &self.recycled)
        defer { swap(&recycled, &self.recycled) }
        let maker = Maker(type: type, madeAs: madeAs, recycles: recycles)
        while let match = stream.next() {
            let objectKey =
                ObjectKeyCodec.decode(match.key, primaryKeyType: primaryKeyType)
                ?? snapshot.standInForDamagedKey(of: binding)
            var record = match.record
            if record == nil || snapshot.generation != generation {
                // The loop wrote: skip objects it deleted.
                record = Self.record(in: snapshot, binding, key: match.key)
                guard record != nil else { continue }
            }
            return maker.object(
                &recycled, in: snapshot, binding: binding, copying: match.key, key: objectKey, record: record)
        }
        return nil
    }

    /// How the walk makes its objects.
    private struct Maker {
        let type: ObjectBase.Type
        let madeAs: ObjectBase.Type
        let recycles: Bool

        /// The object at `key` (its table key `keyBytes`, read in place): the one in `recycled`
        /// when the loop let go of it, otherwise a new one, left in `recycled` for next time.
        @inline(__always)
        func object(
            _ recycled: inout ObjectBase?, in snapshot: Snapshot, binding: TypeBinding,
            copying keyBytes: UnsafeRawBufferPointer, key: ObjectKey, record: RecordReader?
        ) -> ObjectBase {
            if recycles,
                snapshot.repoint(&recycled, as: madeAs, binding: binding, copying: keyBytes, key: key, record: record)
            {
                return recycled.unsafelyUnwrapped
            }
            let object = snapshot.makeObject(type, binding: binding, keyBytes: Array(keyBytes), key: key)
            if let record { object.accessor.unsafelyUnwrapped.prime(with: record) }
            recycled = recycles ? object : nil
            return object
        }
    }

    /// The record at `key` now, `nil` when the loop deleted it. A fault (a damaged record, a
    /// read that cannot begin) is reported, and the object reads as empty.
    private static func record(
        in snapshot: Snapshot, _ binding: TypeBinding, key: UnsafeRawBufferPointer
    ) -> RecordReader? {
        do {
            return try snapshot.record(in: binding, key: key)
        } catch {
            snapshot.report(error)
            return RecordReader.empty
        }
    }
}
