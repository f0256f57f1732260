/// One write transaction in progress: what it has done so far, and everything it must commit
/// together or not at all.
///
/// The scope writes through its snapshot's transaction, so the objects of the view that writes
/// (or of the write's own snapshot) read what the write did. The record, its indexes, its
/// backlinks and the change log change together, in the one LMDB write transaction
/// (`WriteScope+Adding`, `+Indexes`, `+Backlinks`, `+Deleting`).
package final class WriteScope: ObjectWriter {
    let database: Database
    /// What the write reads and writes through; its objects become writable for the write.
    let snapshot: Snapshot
    /// Internal-ID counters read or advanced by this write, flushed on commit.
    package var sequences: [String: UInt64] = [:]
    /// Objects a delete rule deleted in this write: deleting one of them again is no error.
    var deletedByRules: Set<DeletedObject> = []
    /// Unmanaged objects being added now, so links between them (cycles too) resolve.
    var objectsBeingAdded: [ObjectIdentifier: (TypeBinding, ObjectKey)] = [:]
    /// An error from a property assignment, which cannot throw, or from a write that failed
    /// halfway: the commit throws it instead.
    var deferredError: (any Error)?
    /// Counts writes, so a failed operation knows whether it left anything behind.
    private(set) var writeCount = 0
    /// What this write did to objects, for the change log.
    var changes = ChangeRecorder()
    /// The commit observers must not tell these observer IDs about this write
    /// (``Database/write(withoutNotifying:_:)``).
    var silencedObserverIDs: Set<Int> = []
    /// During a migration: records keep the fields of removed properties, so old objects can still read them.
    var preservesRemovedProperties = false
    /// Reused for every index key this write builds: no allocation per key.
    var indexKeyBuffer: [UInt8] = []
    /// Reused for every record a property assignment rewrites (``recordScratch(_:)``).
    private var scratch = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    /// Reused for the values of each object added (taken while in use: adding one may add others).
    var addedValuesBuffer: [StoredValue] = []
    /// The version the commit made, once it did.
    private(set) var committedVersion: Int?
    /// Whether the scope owns its transaction (a migration's belongs to the opening).
    private let ownsTransaction: Bool
    /// Whether the write is in progress: neither committed nor cancelled.
    private(set) var isOpen = true

    var catalog: StoreCatalog { snapshot.catalog }

    /// Begins a write on `snapshot`: its read transaction ends, and it reads the latest state
    /// through the write transaction until the write ends.
    init(database: Database, snapshot: Snapshot) throws {
        precondition(!snapshot.isFrozen, "A frozen view cannot write: frozen views, objects and results never change.")
        let environment = database.catalog.environment
        // LMDB's write lock is not reentrant: waiting for it here would wait forever.
        precondition(
            !snapshot.isWriting && !WritingThread.isWriting(environment),
            "A write to \(database.configuration.path) began inside another write on the same thread; "
                + "do the work in the first one (check Database.isInWriteTransaction).")
        self.database = database
        self.snapshot = snapshot
        self.ownsTransaction = true
        // The read snapshot ends first: map growth waits for this process's readers.
        snapshot.refresh()
        let transaction = try environment.beginWrite()
        snapshot.beginWriting(transaction)
        snapshot.writer = self
        WritingThread.enter(environment)
        // Asked under the write lock: a watcher that appears later waits for this write to end.
        changes.isEnabled = environment.changeWatch.isWatched
        do {
            try checkSchemaIsCurrent(transaction)
        } catch {
            cancel()
            throw error
        }
    }

    /// A scope for the opening migration, writing through `snapshot`'s adopted transaction,
    /// which the opening commits or aborts.
    init(migratingWith database: Database, snapshot: Snapshot) {
        self.database = database
        self.snapshot = snapshot
        self.ownsTransaction = false
        self.preservesRemovedProperties = true
        snapshot.writer = self
    }

    deinit {
        scratch.deallocate()
        if isOpen, ownsTransaction { cancel() }
        // The snapshot holds this scope unowned: a scope that owns its transaction cleared it on
        // commit or cancel; the migration's clears it here.
        if !ownsTransaction { snapshot.writer = nil }
    }

    /// The write transaction; a precondition of every write. `operation` names the write for the
    /// error, and is only made then (it is a string built per object on hot paths).
    func writeTransaction(_ operation: @autoclosure () -> String) throws -> Transaction {
        guard isOpen, let transaction = snapshot.transaction, !transaction.isReadOnly else {
            throw ObjDBError.notInWriteTransaction(operation: operation())
        }
        return transaction
    }

    /// Records that a write may have moved records.
    @inline(__always)
    func didWrite() {
        snapshot.didWrite()
        writeCount &+= 1
    }

    /// `count` bytes of memory this write reuses, valid until the next call: grown as needed, never
    /// shrunk, freed with the scope.
    func recordScratch(_ count: Int) -> UnsafeMutableRawBufferPointer {
        if scratch.count < count {
            scratch.deallocate()
            scratch = .allocate(byteCount: max(count, 2 * scratch.count, 256), alignment: 8)
        }
        return UnsafeMutableRawBufferPointer(rebasing: scratch[0..<count])
    }

    /// Commits the write; the snapshot then reads the state it committed.
    func commit() throws {
        let transaction = try writeTransaction("commit")
        if let deferredError {
            cancel()
            throw deferredError
        }
        let observers = database.attachments.commitObservers
        do {
            try flushSequences(in: transaction)
            if let log = catalog.changeLog, let meta = catalog.meta {
                try ChangeLog.write(changes, in: transaction, log: log, meta: meta)
            }
            let version = transaction.id
            for observer in observers { observer.willCommit(version: version, silencing: silencedObserverIDs) }
            do {
                try transaction.commit()
            } catch {
                // The next write gets this version number: nothing may stay attached to it.
                for observer in observers { observer.didFailToCommit(version: version) }
                throw error
            }
            committedVersion = version
        } catch {
            cancel()
            throw error
        }
        isOpen = false
        WritingThread.leave(catalog.environment)
        snapshot.endWriting()
        reset()
        for observer in observers { observer.didCommit(version: committedVersion!) }
        snapshot.observation?.resumeAfterWrite()
    }

    /// Discards the write.
    func cancel() {
        guard isOpen else { return }
        isOpen = false
        if ownsTransaction {
            WritingThread.leave(catalog.environment)
            snapshot.transaction?.abort()
            snapshot.endWriting()
        }
        reset()
    }

    private func reset() {
        sequences = [:]
        changes.removeAll()
        objectsBeingAdded = [:]
        deletedByRules = []
        deferredError = nil
    }

    func deferError(_ error: any Error) {
        if deferredError == nil { deferredError = error }
    }

    /// Runs `body` in a nested transaction of this write (a batch of group commit): its changes
    /// are kept when it returns and rolled back, alone, when it throws or cancels.
    func nestedWrite(_ body: (WriteTransaction) throws -> Void) throws {
        let parent = try writeTransaction("nested write")
        let child = try parent.beginChild()
        let checkpoint = changes.checkpoint
        snapshot.replaceWriteTransaction(with: child)
        defer { snapshot.replaceWriteTransaction(with: parent) }
        do {
            let transaction = WriteTransaction(scope: self, isGrouped: true)
            try body(transaction)
            if let deferredError { throw deferredError }
            if transaction.wasCancelled {
                child.abort()
                changes.rollBack(to: checkpoint)
                return
            }
            try child.commit()
        } catch {
            child.abort()
            changes.rollBack(to: checkpoint)
            deferredError = nil
            objectsBeingAdded = [:]
            throw error
        }
    }

    /// Fails a write when another opener migrated the store since this database opened:
    /// its records would lose the new properties.
    private func checkSchemaIsCurrent(_ transaction: Transaction) throws {
        guard let meta = catalog.meta else { return }
        let stored = try MetaKeys.schemaVersion.withUnsafeBytes { try transaction.get($0, in: meta) }
        guard let stored, let version = MetaKeys.decode(stored) else { return }
        if version != catalog.schema.version {
            throw ObjDBError.schemaMismatch(
                path: catalog.path,
                differences: [
                    "the store was migrated to schema version \(version) after this database opened "
                        + "with version \(catalog.schema.version); open it again"
                ])
        }
    }

    /// Stores the internal-ID counters this write advanced.
    func flushSequences(in transaction: Transaction) throws {
        guard let meta = catalog.meta else { return }
        for (type, next) in sequences {
            let key = MetaKeys.sequence(type)
            let value = MetaKeys.encode(next)
            try key.withUnsafeBytes { key in
                try value.withUnsafeBytes { _ = try transaction.put($0, forKey: key, in: meta) }
            }
        }
    }

    /// The next internal ID of a type without a primary key; IDs only grow, and are never reused.
    package func nextInternalID(for binding: TypeBinding) throws -> UInt64 {
        let name = binding.schema.name
        if let next = sequences[name] {
            sequences[name] = next + 1
            return next
        }
        let transaction = try writeTransaction("insert")
        var next: UInt64 = 1
        if let meta = catalog.meta {
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

    /// The record of the object with table key `key`, or `nil` when there is none.
    package func record(in binding: TypeBinding, key: [UInt8]) throws -> RecordReader? {
        try snapshot.record(in: binding, key: key)
    }

    /// Every stored value of a record, parallel to the type's properties.
    package func values(of reader: RecordReader, in binding: TypeBinding) -> [StoredValue] {
        snapshot.values(of: reader, in: binding)
    }

    /// Every table key of a type, in key order.
    func allKeys(in binding: TypeBinding) throws -> [[UInt8]] {
        try snapshot.source().allKeys(in: binding)
    }
}
