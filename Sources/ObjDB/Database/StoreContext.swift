/// The transaction a view or write transaction reads through, and what its
/// managed objects need to find their records.
///
/// A context starts a read transaction lazily, on its first read, and keeps it
/// (one pinned snapshot) until refreshed or closed. During a write it holds the
/// write transaction instead. `generation` changes whenever records may have
/// moved (a new snapshot, or any write), so cached record pointers are re-fetched.
final class StoreContext {
    let database: Database
    private var transaction: Transaction?
    /// Changes whenever cached record pointers may be stale.
    private(set) var generation: UInt64 = 0
    /// Whether the context was closed: its objects are invalidated.
    private(set) var isClosed = false
    /// Internal-ID counters read or advanced by this write, flushed on commit.
    var sequences: [String: UInt64] = [:]
    /// Unmanaged objects being added now, so links between them (cycles too) resolve.
    var objectsBeingAdded: [ObjectIdentifier: (TypeBinding, ObjectKey)] = [:]
    /// An error from a property assignment, which cannot throw, or from a write that
    /// failed halfway: the commit throws it instead.
    var deferredError: (any Error)?
    /// Counts writes, so a failed operation knows whether it left anything behind.
    private(set) var writeCount = 0
    /// What this write did to objects, for the change log.
    var changes = ChangeRecorder()
    /// Whether the context reads one snapshot for good: frozen views, and the notifier's snapshots.
    let isFrozen: Bool
    /// Where notifications for this context's observers are delivered, once one observes.
    var delivery: ViewDelivery?
    /// The version the last commit through this context made.
    private(set) var committedVersion: Int?
    /// Observers this write's commit must not notify (``Database/write(withoutNotifying:_:)``).
    var silencedObservers: Set<Int> = []
    /// Where the view reading through this context may be used.
    var confinement: Confinement = .isolation
    /// During a migration: records keep the fields of removed properties, so old objects can still read them.
    var preservesRemovedProperties = false

    init(database: Database) {
        self.database = database
        self.isFrozen = false
    }

    /// A context that uses `transaction`, owned by its caller (the opening migration).
    init(database: Database, adopting transaction: Transaction) {
        self.database = database
        self.transaction = transaction
        self.isFrozen = false
    }

    /// A frozen context: it reads `snapshot` (a shared read transaction) and nothing else, ever.
    init(database: Database, frozenAt snapshot: Transaction) {
        self.database = database
        self.transaction = snapshot
        self.isFrozen = true
    }

    deinit {
        if isWriting { WritingThread.leave(database.environment) }
        releaseTransaction()
    }

    /// Ends the transaction, or only lets go of it when others share it (a snapshot handed to
    /// frozen views or by the notifier): the last holder's release ends it.
    private func releaseTransaction() {
        guard let transaction else { return }
        self.transaction = nil
        if !transaction.isShared { transaction.abort() }
    }

    /// The read snapshot, made safe to share with other threads: every database it will
    /// read is touched first, so LMDB has nothing left to write in the transaction.
    func shareSnapshot() throws -> Transaction {
        let snapshot = try readTransaction()
        precondition(snapshot.isReadOnly, "A write transaction cannot be shared.")
        if !snapshot.isShared {
            try database.warm(snapshot)
            snapshot.isShared = true
        }
        return snapshot
    }

    /// Swaps the write transaction for a nested one (or back): reads and writes then go through it.
    func replaceTransaction(with transaction: Transaction) {
        self.transaction = transaction
        generation &+= 1
    }

    /// Moves a read context to `snapshot`, a shared transaction at a newer version (a notification's).
    func adopt(_ snapshot: Transaction) {
        guard !isWriting, !isFrozen, transaction !== snapshot else { return }
        releaseTransaction()
        transaction = snapshot
        generation &+= 1
    }

    /// Whether the context holds a write transaction.
    var isWriting: Bool {
        guard let transaction else { return false }
        return !transaction.isReadOnly
    }

    /// The transaction to read through: the write transaction, or the (lazily begun) read snapshot.
    func readTransaction() throws -> Transaction {
        precondition(!isClosed, "A closed view was used.")
        if let transaction { return transaction }
        let transaction = try database.environment.beginRead()
        self.transaction = transaction
        return transaction
    }

    /// The committed version the context reads: its snapshot's, or, during a write, the one the write started from.
    func readVersion() throws -> Int {
        let transaction = try readTransaction()
        return transaction.isReadOnly ? transaction.id : transaction.id - 1
    }

    /// The write transaction; a precondition of every write.
    func writeTransaction(_ operation: String) throws -> Transaction {
        guard let transaction, !transaction.isReadOnly else {
            throw ObjDBError.notInWriteTransaction(operation: operation)
        }
        return transaction
    }

    /// Ends the read snapshot (if any) and begins the write transaction, at the latest state.
    func beginWrite() throws {
        precondition(!isClosed, "A closed view was used.")
        precondition(!isFrozen, "A frozen view cannot write: frozen views, objects and results never change.")
        // LMDB's write lock is not reentrant: waiting for it here would wait forever.
        precondition(
            !isWriting && !WritingThread.isWriting(database.environment),
            "A write to \(database.configuration.path) began inside another write on the same thread; "
                + "do the work in the first one (check Database.isInWriteTransaction).")
        releaseTransaction()
        generation &+= 1
        transaction = try database.environment.beginWrite()
        WritingThread.enter(database.environment)
        // Asked under the write lock: a watcher that appears later waits for this write to end.
        changes.isEnabled = database.environment.changeWatch.isWatched
        try checkSchemaIsCurrent()
    }

    /// Fails a write when another opener migrated the store since this database opened:
    /// its records would lose the new properties.
    private func checkSchemaIsCurrent() throws {
        guard let meta = database.meta, let transaction else { return }
        let stored = try StoredSchema.versionKey.withUnsafeBytes { try transaction.get($0, in: meta) }
        guard let stored, stored.count == 8 else { return }
        let version = UInt64(bigEndian: stored.loadUnaligned(as: UInt64.self))
        if version != database.schema.version {
            cancelWrite()
            throw ObjDBError.schemaMismatch(
                path: database.configuration.path,
                differences: [
                    "the store was migrated to schema version \(version) after this database opened "
                        + "with version \(database.schema.version); open it again"
                ])
        }
    }

    /// Commits the write; the context then reads the state it committed.
    func commitWrite() throws {
        let transaction = try writeTransaction("commit")
        if let deferredError {
            cancelWrite()
            throw deferredError
        }
        do {
            try flushSequences(in: transaction)
            if let log = database.changeLog, let meta = database.meta {
                try ChangeLog.write(changes, in: transaction, log: log, meta: meta)
            }
            let version = transaction.id
            database.notifier.silence(version: version, observerIDs: silencedObservers)
            do {
                try transaction.commit()
            } catch {
                // The next write gets this version number: it must not be silenced.
                database.notifier.silence(version: version, observerIDs: [], replacing: true)
                throw error
            }
            committedVersion = version
        } catch {
            cancelWrite()
            throw error
        }
        WritingThread.leave(database.environment)
        self.transaction = nil
        sequences = [:]
        changes.removeAll()
        generation &+= 1
        database.notifier.commitLanded()
        if let delivery, delivery.hasPending { delivery.queue.async { delivery.drain() } }
    }

    /// Discards the write.
    func cancelWrite() {
        if isWriting { WritingThread.leave(database.environment) }
        releaseTransaction()
        sequences = [:]
        changes.removeAll()
        objectsBeingAdded = [:]
        deferredError = nil
        generation &+= 1
    }

    /// Moves a read snapshot to the latest committed state (a write is left alone).
    func refresh() {
        guard !isWriting, !isFrozen else { return }
        releaseTransaction()
        generation &+= 1
    }

    /// Ends the context: its objects are invalidated.
    func close() {
        releaseTransaction()
        isClosed = true
        generation &+= 1
    }

    /// Lets go of an adopted transaction without ending it: its owner commits or aborts it.
    func releaseAdoptedTransaction() {
        transaction = nil
        isClosed = true
        generation &+= 1
    }

    /// Records that a write may have moved records.
    @inline(__always)
    func didWrite() {
        generation &+= 1
        writeCount &+= 1
    }

    /// The record of the object with table key `key`, or `nil` when there is none.
    func record(in binding: TypeBinding, key: [UInt8]) throws -> RecordReader? {
        try key.withUnsafeBytes { try record(in: binding, key: $0) }
    }

    /// The record of the object whose table key is `key`'s bytes (a pointer into the map will do).
    func record(in binding: TypeBinding, key: UnsafeRawBufferPointer) throws -> RecordReader? {
        guard let table = binding.table else { return nil }
        let transaction = try readTransaction()
        guard let bytes = try transaction.get(key, in: table) else { return nil }
        guard let reader = RecordReader(header: bytes) else {
            throw ObjDBError.corruptRecord(
                path: database.configuration.path, type: binding.schema.name, reason: "its slot table is inconsistent")
        }
        return reader
    }

    /// Every stored value of a record, parallel to the type's properties.
    func values(of reader: RecordReader, in binding: TypeBinding) -> [StoredValue] {
        let codec = ValueCodec(schema: database.schemaIndex)
        return binding.properties.map { property in
            property.schema.isStored ? codec.decodeField(reader.field(property.slot), of: property.schema) : .null
        }
    }

    /// A managed object of class `type` for the stored object `key`, or `nil` when it does not exist.
    func object<T: ObjectBase>(_ type: T.Type, key: ObjectKey) throws -> T? {
        let binding = try database.binding(for: type)
        let keyBytes = ObjectKeyCodec.encode(key)
        // A key too long to be stored cannot be found.
        guard keyBytes.count <= database.environment.maxKeySize else { return nil }
        guard let reader = try record(in: binding, key: keyBytes) else { return nil }
        let object = makeObject(type, binding: binding, keyBytes: keyBytes, key: key)
        object.accessor?.prime(with: reader)
        return object
    }

    /// A dynamic object for a table key read from this context, or `nil` for a damaged key.
    func dynamicObject(_ binding: TypeBinding, tableKey key: [UInt8]) -> DynamicObject? {
        binding.objectKey(fromTableKey: key).map {
            DynamicObject(accessor: ObjectAccessor(context: self, binding: binding, key: key, objectKey: $0))
        }
    }

    /// A managed object for a key known to exist.
    func makeObject<T: ObjectBase>(_ type: T.Type, binding: TypeBinding, keyBytes: [UInt8], key: ObjectKey) -> T {
        PropertyOrdinal.reset()
        let object = binding.swiftType.map { ($0 as! T.Type).init() } ?? type.init()
        object.accessor = ObjectAccessor(context: self, binding: binding, key: keyBytes, objectKey: key)
        return object
    }

    /// Stores the internal-ID counters this write advanced.
    func flushSequences(in transaction: Transaction) throws {
        guard let meta = database.meta else { return }
        for (type, next) in sequences {
            let key = MetaKeys.sequence(type)
            let value = MetaKeys.encode(next)
            try key.withUnsafeBytes { key in
                try value.withUnsafeBytes { _ = try transaction.put($0, forKey: key, in: meta) }
            }
        }
    }

    /// The next internal ID of a type without a primary key; IDs only grow, and are never reused.
    func nextInternalID(for binding: TypeBinding) throws -> UInt64 {
        let name = binding.schema.name
        if let next = sequences[name] {
            sequences[name] = next + 1
            return next
        }
        let transaction = try writeTransaction("insert")
        var next: UInt64 = 1
        if let meta = database.meta {
            let key = MetaKeys.sequence(name)
            if let stored = try key.withUnsafeBytes({ try transaction.get($0, in: meta) }),
                let value = MetaKeys.decode(stored)
            {
                next = value
            }
        }
        sequences[name] = next + 1
        return next
    }
}
