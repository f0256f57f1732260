/// What a view's objects read through: the view's current transaction (its read snapshot, or,
/// while it writes, the write transaction) and a generation that tells cached record pointers
/// whether they are still valid.
///
/// A snapshot begins its read transaction lazily, on the first read, and keeps it (one pinned
/// version) until refreshed or closed. `generation` changes whenever records may have moved: a
/// new transaction, and every put or delete of a write (LMDB may move pages on a write, so a
/// pointer from a write transaction is valid only until its next write).
///
/// A snapshot belongs to one thread or task (its ``confinement``); a frozen one reads one shared,
/// warmed transaction for good and is what ``FrozenView`` shares between threads.
final class Snapshot {
    /// The database that opened the store.
    let owner: any SnapshotOwner
    /// The store's types and databases.
    let catalog: StoreCatalog
    private(set) var transaction: Transaction?
    /// Changes whenever cached record pointers may be stale.
    private(set) var generation: UInt64 = 0
    /// Whether the snapshot was closed: its objects are invalidated.
    private(set) var isClosed = false
    /// Whether the snapshot reads one version for good: frozen views, and the notifier's snapshots.
    let isFrozen: Bool
    /// Where the view reading through this snapshot may be used.
    var confinement: Confinement = .isolation
    /// The write in progress through this snapshot, which its objects' assignments go through.
    ///
    /// Not `weak`: a weak reference gives its target a side table, and then every retain and
    /// release of the write scope takes the runtime's slow path (a fifth of an update's object
    /// work, W7 in docs/BENCHMARKS.md). Sound because a scope sets it to itself and clears it
    /// before it goes: ``endWriting()`` on commit and cancel, its deinit for the opening migration's.
    /// Debug builds check it: there the reference is `unowned` (safe), which traps on a scope gone.
    #if DEBUG
        unowned var writer: (any ObjectWriter)?
    #else
        unowned(unsafe) var writer: (any ObjectWriter)?
    #endif
    /// What reads the read transaction beyond one call, told before it ends.
    private var dependents: [WeakTransactionDependent] = []
    /// The notifications of the view reading through this snapshot, once it is observed.
    var observation: (any SnapshotObservation)?

    init(owner: any SnapshotOwner) {
        self.owner = owner
        self.catalog = owner.catalog
        self.isFrozen = false
    }

    /// A snapshot that reads `transaction`, owned by its caller (the opening migration).
    init(owner: any SnapshotOwner, adopting transaction: Transaction) {
        self.owner = owner
        self.catalog = owner.catalog
        self.transaction = transaction
        self.isFrozen = false
        watchHeldEntries(of: transaction)
    }

    /// A frozen snapshot: it reads `shared` (a shared, warmed read transaction) and nothing else, ever.
    init(owner: any SnapshotOwner, frozenAt shared: Transaction) {
        precondition(shared.isShared && shared.isReadOnly, "A frozen snapshot reads a shared read transaction.")
        self.owner = owner
        self.catalog = owner.catalog
        self.transaction = shared
        self.isFrozen = true
    }

    deinit {
        releaseTransaction()
    }

    /// Whether the snapshot holds a write transaction.
    var isWriting: Bool {
        guard let transaction else { return false }
        return !transaction.isReadOnly
    }

    /// The transaction to read through: the write transaction, or the (lazily begun) read snapshot.
    func readTransaction() throws -> Transaction {
        precondition(!isClosed, "A closed view was used.")
        if let transaction { return transaction }
        let transaction = try catalog.environment.beginRead()
        self.transaction = transaction
        return transaction
    }

    /// The records, cursors and backlinks of the current transaction.
    func source() throws -> RecordSource {
        RecordSource(transaction: try readTransaction(), catalog: catalog)
    }

    /// The committed version the snapshot reads: its transaction's, or, during a write, the one the write started from.
    func readVersion() throws -> Int {
        let transaction = try readTransaction()
        return transaction.isReadOnly ? transaction.id : transaction.id - 1
    }

    /// The read transaction, made safe to share with other threads: every database it will
    /// read is touched first, so LMDB has nothing left to write in the transaction.
    func shareTransaction() throws -> Transaction {
        let snapshot = try readTransaction()
        precondition(snapshot.isReadOnly, "A write transaction cannot be shared.")
        if !snapshot.isShared {
            try catalog.warm(snapshot)
            snapshot.isShared = true
        }
        return snapshot
    }

    /// Tells `dependent` before the current read transaction ends (``TransactionDependent``).
    func addDependent(_ dependent: any TransactionDependent) {
        dependents.removeAll { $0.dependent == nil }
        dependents.append(WeakTransactionDependent(dependent: dependent))
    }

    /// Moves a live snapshot to `shared`, a shared transaction at a newer version (a notification's).
    func adopt(_ shared: Transaction) {
        guard !isWriting, !isFrozen, transaction !== shared else { return }
        releaseTransaction()
        transaction = shared
        generation &+= 1
    }

    /// Ends the read transaction, if any, and reads through `write` until ``endWriting()``.
    func beginWriting(_ write: Transaction) {
        precondition(!isClosed, "A closed view was used.")
        releaseTransaction()
        transaction = write
        generation &+= 1
        watchHeldEntries(of: write)
    }

    /// A write's held inserts are put when it next needs their table, on a read too: a write
    /// that may move records the snapshot's objects point at.
    ///
    /// Unowned, not weak, for the reason ``writer`` is: the snapshot stops watching before it lets
    /// go of the transaction (``stopWatchingHeldEntries()``), so the closure never outlives it.
    private func watchHeldEntries(of write: Transaction) {
        #if DEBUG
            // Checked: a safe `unowned` reference traps if the closure outlives the snapshot.
            write.didPutHeldEntries = { [unowned self] in self.didWrite() }
        #else
            write.didPutHeldEntries = { [unowned(unsafe) self] in self.didWrite() }
        #endif
    }

    /// Undoes ``watchHeldEntries(of:)`` on the transaction read through, which may outlive the
    /// snapshot (the opening commits the adopted one).
    private func stopWatchingHeldEntries() {
        transaction?.didPutHeldEntries = nil
    }

    /// Swaps the write transaction for a nested one (or back): reads and writes then go through it.
    func replaceWriteTransaction(with write: Transaction) {
        transaction = write
        generation &+= 1
    }

    /// Lets go of the write transaction its owner committed or aborted; the next read begins a new snapshot.
    func endWriting() {
        stopWatchingHeldEntries()
        transaction = nil
        writer = nil
        generation &+= 1
    }

    /// Records that a write may have moved records.
    @inline(__always)
    func didWrite() {
        generation &+= 1
    }

    /// Moves a live read snapshot to the latest committed state (a write is left alone).
    func refresh() {
        guard !isWriting, !isFrozen else { return }
        releaseTransaction()
        generation &+= 1
    }

    /// Ends the snapshot: its objects are invalidated.
    func close() {
        releaseTransaction()
        isClosed = true
        generation &+= 1
    }

    /// Lets go of an adopted transaction without ending it: its owner commits or aborts it.
    func releaseAdoptedTransaction() {
        stopWatchingHeldEntries()
        transaction = nil
        isClosed = true
        generation &+= 1
    }

    /// Ends the transaction, or only lets go of it when others share it (a snapshot handed to
    /// frozen views or by the notifier): the last holder's release ends it.
    private func releaseTransaction() {
        guard let transaction else { return }
        let ending = dependents
        dependents.removeAll()
        for entry in ending { entry.dependent?.transactionWillEnd() }
        stopWatchingHeldEntries()
        self.transaction = nil
        if !transaction.isShared { transaction.abort() }
    }
}

// MARK: - Records and objects

extension Snapshot {
    /// The record of the object with table key `key`, or `nil` when there is none.
    func record(in binding: TypeBinding, key: [UInt8]) throws -> RecordReader? {
        try key.withUnsafeBytes { try record(in: binding, key: $0) }
    }

    /// The record of the object whose table key is `key`'s bytes (a pointer into the map will do).
    func record(in binding: TypeBinding, key: UnsafeRawBufferPointer) throws -> RecordReader? {
        try RecordSource(transaction: try readTransaction(), catalog: catalog).record(in: binding, key: key)
    }

    /// Every stored value of a record, parallel to the type's properties.
    func values(of reader: RecordReader, in binding: TypeBinding) -> [StoredValue] {
        RecordSource.values(of: reader, in: binding, schema: catalog.schemaIndex)
    }

    /// A managed object of class `type` for the stored object `key`, or `nil` when it does not exist.
    func object<T: ObjectBase>(_ type: T.Type, key: ObjectKey) throws -> T? {
        var recycled: T?
        return try object(type, key: key, recycling: &recycled)
    }

    /// A managed object of class `type` for the stored object `key`, made by
    /// ``object(recycling:_:binding:keyBytes:key:)``, or `nil` when it does not exist.
    func object<T: ObjectBase>(_ type: T.Type, key: ObjectKey, recycling recycled: inout T?) throws -> T? {
        let binding = try catalog.binding(for: type)
        if let object = reusable(&recycled, binding: binding, as: type) {
            // The table key is encoded into the recycled accessor's own array: no allocation. The
            // accessor is borrowed from `object`, which keeps it alive: no retain (W4 in BENCHMARKS.md).
            let source = RecordSource(transaction: try readTransaction(), catalog: catalog)
            let found = try Unmanaged.passUnretained(object.accessor.unsafelyUnwrapped)._withUnsafeGuaranteedRef {
                accessor in
                accessor.repoint(to: key)
                guard accessor.key.count <= source.catalog.maxKeySize,
                    let reader = try accessor.key.withUnsafeBytes({ try source.record(in: binding, key: $0) })
                else { return false }
                accessor.prime(with: reader)
                return true
            }
            return found ? object : nil
        }
        let keyBytes = ObjectKeyCodec.encode(key)
        // A key too long to be stored cannot be found.
        guard keyBytes.count <= catalog.maxKeySize else { return nil }
        guard let reader = try record(in: binding, key: keyBytes) else { return nil }
        let object = object(recycling: &recycled, type, binding: binding, keyBytes: keyBytes, key: key)
        object.accessor?.prime(with: reader)
        return object
    }

    /// A managed object for a key known to exist.
    func makeObject<T: ObjectBase>(_ type: T.Type, binding: TypeBinding, keyBytes: [UInt8], key: ObjectKey) -> T {
        PropertyOrdinal.reset()
        // The bound class is usually `T` itself: then no cast is needed.
        let object: T
        if let bound = binding.swiftType, bound != type {
            object = (bound as! T.Type).init()
        } else {
            object = type.init()
        }
        object.accessor = ObjectAccessor(snapshot: self, binding: binding, key: keyBytes, objectKey: key)
        return object
    }

    /// The objects of `Origin` whose `property` (a linking-objects property of `accessor`'s type) links here.
    func linkingObjects<Origin: Object>(
        of accessor: ObjectAccessor, through property: BoundProperty, as type: Origin.Type
    ) throws -> [Origin] {
        guard let originName = property.schema.objectType, let originBinding = catalog.bindings[originName],
            let originProperty = property.schema.originProperty.flatMap({ originBinding[$0] })
        else { return [] }
        let source = try source()
        return try source.incomingLinks(to: accessor.key, in: accessor.binding)
            .filter { $0.typeName == originName && $0.propertyID == originProperty.schema.id }
            .compactMap { link in
                guard try source.record(in: originBinding, key: link.key) != nil,
                    let key = originBinding.objectKey(fromTableKey: link.key)
                else { return nil }
                return makeObject(type, binding: originBinding, keyBytes: link.key, key: key)
            }
    }
}

/// The database a snapshot belongs to, as the layers below it know it: the store's catalog.
protocol SnapshotOwner: AnyObject, Sendable {
    var catalog: StoreCatalog { get }
}

/// What a live view's notifications need of the snapshot it reads through, implemented by the
/// notification layer: the write path and `refresh()` call it without knowing what it is.
protocol SnapshotObservation: AnyObject {
    /// Runs the notification rounds that arrived before a write of this view begins.
    func deliverPending()
    /// After this view's write committed: schedules the rounds held during the write.
    func resumeAfterWrite()
    /// Brings the observed view up to date for `refresh()`, running its observers' blocks on the
    /// way; `true` when the notifier moved the view, so `refresh` has nothing left to do.
    func catchUp() -> Bool
}
