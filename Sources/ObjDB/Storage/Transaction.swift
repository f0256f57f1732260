import CLMDB
import Foundation

/// An LMDB transaction: a read snapshot, or the one writer of the store.
///
/// A read transaction sees the store as of the moment it began, whatever
/// commits after (MVCC). A write transaction sees its own changes; they become
/// visible to others, all at once, when ``commit()`` returns, and vanish on
/// ``abort()``. Pointers handed out by ``get(_:in:)`` and ``Cursor`` point into
/// LMDB's memory map and are valid until the transaction ends or, in a write
/// transaction, until the next write.
///
/// - Warning: A transaction is used by one thread at a time, and a write
///   transaction only by the thread that began it (LMDB's write lock belongs to
///   that thread). Breaking either rule stops the program.
package final class Transaction {
    /// The environment the transaction reads or writes.
    package let environment: Environment
    /// Whether the transaction can only read.
    package let isReadOnly: Bool
    /// Whether ``commit()`` or ``abort()`` ended the transaction (or its parent's end did).
    // Unchecked exclusivity: every cursor move and get reads it (`checkUsable`), and a checked
    // class property costs a runtime access check per row of a scan. It is only written by
    // `commit`/`abort`/`deinit`, which never overlap a read of it: the write transaction is
    // confined to its thread, and a shared read transaction ends in its last owner's deinit.
    @exclusivity(unchecked) package private(set) var isFinished = false
    /// Whether several contexts (on several threads) read through this read transaction: it is
    /// then ended by the last one to let go (deinit), never explicitly.
    package var isShared = false

    let pointer: OpaquePointer
    let parent: Transaction?
    weak var child: Transaction?
    /// Whether a child is open: `child` without a weak load, for the hot paths of a write.
    // Unchecked exclusivity: read by every get and put of a write; written only when a child
    // begins or ends, on the write's one thread.
    @exclusivity(unchecked) private(set) var hasOpenChild = false
    private let ownerThread: pthread_t
    private var openedDatabases: [String: DatabaseHandle] = [:]
    /// Tables being filled in key order at the next need (see ``BulkLoad``).
    // Unchecked exclusivity: every get of a point read checks it. It only changes in a write
    // transaction, on that transaction's thread; a read transaction's stays empty.
    @exclusivity(unchecked) var bulkLoads: [BulkLoad] = []
    /// Loads already put, kept until the transaction ends: values read from them stay valid
    /// as long as LMDB's own (until the next write).
    var finishedBulkLoads: [BulkLoad] = []
    /// Tables whose first insert in this transaction decided whether to hold inserts back.
    var settledTables = DatabaseSet()
    /// Cursors open on this write transaction: a table one of them may walk is not held back.
    var openCursorCount = 0
    /// Per plain table, the cursor a write's gets position, so that putting the key a get just
    /// found (an update) writes there without a second descent (see `Transaction+UpdateCursor`).
    /// LMDB closes them when the transaction ends.
    // Unchecked exclusivity: as `bulkLoads`, read by every get of a write, on its one thread.
    @exclusivity(unchecked) var updateCursors: [(dbi: MDB_dbi, cursor: OpaquePointer)] = []
    /// Why putting held inserts failed: LMDB refuses the transaction after it, so the commit reports it.
    var bulkLoadFailure: (any Error)?
    /// The bytes every load of this transaction holds or held, and the most they may, set when the
    /// first load starts; past it, everything held is put and no load starts again.
    var heldBytes = 0
    var heldBudget: Int?
    /// Called after held entries were put (by a read, too): records read before may have moved,
    /// as after any write. The snapshot reading through this transaction sets it.
    package var didPutHeldEntries: (() -> Void)?

    init(environment: Environment, readOnly: Bool, parent: Transaction? = nil) throws {
        self.environment = environment
        self.isReadOnly = readOnly
        self.parent = parent
        ownerThread = pthread_self()
        if parent == nil {
            try environment.enterTransaction(forWriting: !readOnly)
        }
        var txn: OpaquePointer?
        var code = mdb_txn_begin(
            environment.pointer, parent?.pointer, readOnly ? UInt32(MDB_RDONLY) : 0, &txn)
        if code == MDB_READERS_FULL, parent == nil, try environment.clearStaleReaders() > 0 {
            // Slots held by dead processes are free again; a live process's are not (still full).
            code = mdb_txn_begin(environment.pointer, nil, readOnly ? UInt32(MDB_RDONLY) : 0, &txn)
        }
        if code == MDB_MAP_RESIZED, parent == nil {
            environment.leaveTransaction()
            try environment.adoptResizedMap()
            try environment.enterTransaction(forWriting: !readOnly)
            code = mdb_txn_begin(environment.pointer, nil, readOnly ? UInt32(MDB_RDONLY) : 0, &txn)
        }
        guard code == MDB_SUCCESS, let txn else {
            if parent == nil { environment.leaveTransaction() }
            throw ObjDBError.lmdb(
                LMDBResultCode(rawValue: code), operation: parent == nil ? "mdb_txn_begin" : "mdb_txn_begin (nested)",
                path: environment.path)
        }
        pointer = txn
        parent?.child = self
        parent?.hasOpenChild = true
    }

    deinit {
        if !isFinished { abort() }
    }

    /// Makes the transaction's writes durable and visible, and ends it.
    ///
    /// A nested transaction's commit hands its writes to its parent; they reach
    /// the file only when the outermost transaction commits.
    package func commit() throws {
        checkUsable("commit")
        do {
            try putBulkLoads()
        } catch {
            abort()
            throw error
        }
        let code = mdb_txn_commit(pointer)
        finish()
        if code == MDB_MAP_FULL { throw environment.mapFullError() }
        try check(code, "mdb_txn_commit")
        if let parent {
            parent.openedDatabases.merge(openedDatabases) { _, new in new }
        } else if !openedDatabases.isEmpty {
            environment.register(openedDatabases)
        }
    }

    /// Discards the transaction's writes and ends it. Ending an ended transaction does nothing.
    package func abort() {
        guard !isFinished else { return }
        checkThread("abort")
        mdb_txn_abort(pointer)
        finish()
    }

    /// Begins a transaction nested in this write transaction.
    ///
    /// Until the child ends, only the child may be used. Aborting it leaves this
    /// transaction as it was before the child began.
    package func beginChild() throws -> Transaction {
        checkUsable("beginChild")
        if isReadOnly {
            throw ObjDBError.readOnly(path: environment.path, operation: "nested transaction in a read transaction")
        }
        try putBulkLoads()
        return try Transaction(environment: environment, readOnly: false, parent: self)
    }

    /// Runs `body` in a nested transaction that commits when `body` returns and aborts when it throws.
    @discardableResult
    package func nested<Result>(_ body: (Transaction) throws -> Result) throws -> Result {
        try beginChild().run(body)
    }

    /// Runs `body`, then commits; aborts when `body` throws.
    func run<Result>(_ body: (Transaction) throws -> Result) throws -> Result {
        do {
            let result = try body(self)
            try commit()
            return result
        } catch {
            abort()
            throw error
        }
    }

    private func finish() {
        isFinished = true
        parent?.hasOpenChild = false
        updateCursors = []
        bulkLoads = []
        finishedBulkLoads = []
        child?.finishFromParent()
        if parent == nil {
            environment.leaveTransaction()
        }
    }

    /// LMDB ends a child with its parent; mark it so its deinit does not end it again.
    private func finishFromParent() {
        guard !isFinished else { return }
        isFinished = true
        child?.finishFromParent()
    }
}

// MARK: - Reading and writing

extension Transaction {
    /// The value stored under `key`, or `nil`; it points into the map (no copy).
    package func get(_ key: UnsafeRawBufferPointer, in database: DatabaseHandle) throws -> UnsafeRawBufferPointer? {
        checkUsable("get")
        try checkKey(key, "mdb_get")
        if !bulkLoads.isEmpty, let load = bulkLoad(of: database) { return load.value(forKey: key) }
        if readsThroughUpdateCursor(database) { return try positioningGet(key, in: database) }
        var keyValue = MDB_val(key)
        var value = MDB_val()
        let code = mdb_get(pointer, database.dbi, &keyValue, &value)
        if code == MDB_NOTFOUND { return nil }
        try check(code, "mdb_get")
        return value.bytes
    }

    /// Stores `value` under `key`.
    ///
    /// - Returns: `false` when ``PutOptions/noOverwrite`` or ``PutOptions/noDuplicateData``
    ///   found the key or pair already stored (nothing was written), otherwise `true`.
    @discardableResult
    package func put(
        _ value: UnsafeRawBufferPointer, forKey key: UnsafeRawBufferPointer, in database: DatabaseHandle,
        options: PutOptions = []
    ) throws -> Bool {
        try checkWritable("put")
        try checkKey(key, "mdb_put")
        if let load = try bulkLoad(forPutIn: database, options: options) {
            return try hold(in: load) {
                load.insert(key: key, valueCount: value.count, replacing: options.isEmpty) {
                    $0.copyMemory(from: value)
                }
            }
        }
        var keyValue = MDB_val(key)
        var dataValue = MDB_val(value)
        if options.isEmpty, let cursor = updateCursor(standingAt: key, in: database) {
            return try finishPut(mdb_cursor_put(cursor, &keyValue, &dataValue, UInt32(MDB_CURRENT)), "mdb_cursor_put")
        }
        return try finishPut(mdb_put(pointer, database.dbi, &keyValue, &dataValue, options.rawValue), "mdb_put")
    }

    /// Reserves `count` bytes under `key` and lets `fill` write them in place, in
    /// the map (`MDB_RESERVE`) or among a ``BulkLoad``'s held entries: the record is
    /// encoded once.
    @discardableResult
    package func put(
        reserving count: Int, forKey key: UnsafeRawBufferPointer, in database: DatabaseHandle,
        options: PutOptions = [], fill: (UnsafeMutableRawBufferPointer) throws -> Void
    ) throws -> Bool {
        try checkWritable("put")
        try checkKey(key, "mdb_put")
        if let load = try bulkLoad(forPutIn: database, options: options) {
            return try hold(in: load) {
                try load.insert(key: key, valueCount: count, replacing: options.isEmpty, fill: fill)
            }
        }
        var keyValue = MDB_val(key)
        var dataValue = MDB_val(mv_size: count, mv_data: nil)
        let code: Int32
        if options.isEmpty, let cursor = updateCursor(standingAt: key, in: database) {
            code = mdb_cursor_put(cursor, &keyValue, &dataValue, UInt32(MDB_CURRENT | MDB_RESERVE))
        } else {
            code = mdb_put(pointer, database.dbi, &keyValue, &dataValue, options.rawValue | UInt32(MDB_RESERVE))
        }
        let stored = try finishPut(code, "mdb_put")
        if stored {
            try fill(UnsafeMutableRawBufferPointer(start: dataValue.mv_data, count: count))
        }
        return stored
    }

    /// Deletes `key`, or in a ``DatabaseOptions/duplicateSort`` database one
    /// `value` of it (all values when `value` is `nil`).
    ///
    /// - Returns: whether anything was deleted.
    @discardableResult
    package func delete(
        _ key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer? = nil, in database: DatabaseHandle
    ) throws -> Bool {
        try checkWritable("delete")
        try checkKey(key, "mdb_del")
        try putBulkLoad(of: database)
        var keyValue = MDB_val(key)
        let code: Int32
        if let value {
            var dataValue = MDB_val(value)
            code = mdb_del(pointer, database.dbi, &keyValue, &dataValue)
        } else if let cursor = updateCursor(standingAt: key, in: database) {
            // A get of this write found the key: delete where its cursor stands, with no second descent.
            code = mdb_cursor_del(cursor, 0)
        } else {
            code = mdb_del(pointer, database.dbi, &keyValue, nil)
        }
        if code == MDB_NOTFOUND { return false }
        try check(code, "mdb_del")
        return true
    }

    /// Deletes every entry of `database`, keeping the database itself.
    package func removeAll(in database: DatabaseHandle) throws {
        try checkWritable("removeAll")
        try putBulkLoad(of: database)
        try check(mdb_drop(pointer, database.dbi, 0), "mdb_drop")
    }

    /// Opens a cursor over `database`, valid until this transaction ends.
    package func cursor(_ database: DatabaseHandle) throws -> Cursor {
        checkUsable("cursor")
        try putBulkLoad(of: database)
        return try Cursor(transaction: self, database: database)
    }

    /// The B-tree statistics of `database` as this transaction sees it.
    package func statistics(of database: DatabaseHandle) throws -> DatabaseStatistics {
        checkUsable("statistics")
        try putBulkLoad(of: database)
        var stat = MDB_stat()
        try check(mdb_stat(pointer, database.dbi, &stat), "mdb_stat")
        return DatabaseStatistics(stat)
    }

    /// The number of the last committed transaction this one sees (a write adds one).
    package var id: Int {
        mdb_txn_id(pointer)
    }
}

// MARK: - Named databases

extension Transaction {
    /// LMDB's unnamed main database, whose keys are the names of the named ones.
    package func mainDatabase() throws -> DatabaseHandle {
        try openDatabase(named: nil, options: [])
    }

    /// Opens the database `name`, creating it with `options` when asked and allowed.
    ///
    /// - Returns: `nil` when the database does not exist and ``DatabaseOptions/create`` was not given.
    package func openDatabaseIfPresent(named name: String?, options: DatabaseOptions = []) throws -> DatabaseHandle? {
        checkUsable("openDatabase")
        let cacheKey = name ?? ""
        if let handle = environment.cachedDatabase(cacheKey) ?? openedDatabases[cacheKey] { return handle }
        if options.contains(.create) { try checkWritable("create database \(name ?? "(main)")") }
        var dbi = MDB_dbi()
        let code = environment.databases.withLock { _ in mdb_dbi_open(pointer, name, options.rawValue, &dbi) }
        if code == MDB_NOTFOUND { return nil }
        if code == MDB_INCOMPATIBLE {
            throw ObjDBError.notAnObjDBStore(
                path: environment.path, reason: "database \(name ?? "(main)") has unexpected LMDB flags")
        }
        try check(code, "mdb_dbi_open(\(name ?? "(main)"))")
        var flags: UInt32 = 0
        try check(mdb_dbi_flags(pointer, dbi, &flags), "mdb_dbi_flags")
        let handle = DatabaseHandle(dbi: dbi, name: name, options: DatabaseOptions(rawValue: flags))
        openedDatabases[cacheKey] = handle
        return handle
    }

    /// Opens the database `name`; throws ``LMDBResultCode/notFound`` when it is missing and may not be created.
    package func openDatabase(named name: String?, options: DatabaseOptions = []) throws -> DatabaseHandle {
        guard let handle = try openDatabaseIfPresent(named: name, options: options) else {
            throw ObjDBError.lmdb(.notFound, operation: "mdb_dbi_open(\(name ?? "(main)"))", path: environment.path)
        }
        return handle
    }
}

// MARK: - Checks

extension Transaction {
    @inline(__always)
    func check(_ code: Int32, _ operation: @autoclosure () -> String) throws(ObjDBError) {
        if code == MDB_SUCCESS { return }
        if code == MDB_MAP_FULL { throw environment.mapFullError() }
        throw ObjDBError.lmdb(LMDBResultCode(rawValue: code), operation: operation(), path: environment.path)
    }

    @inline(__always)
    private func finishPut(_ code: Int32, _ operation: String) throws(ObjDBError) -> Bool {
        if code == MDB_KEYEXIST { return false }
        try check(code, operation)
        return true
    }

    @inline(__always)
    func checkKey(_ key: UnsafeRawBufferPointer, _ operation: String) throws(ObjDBError) {
        if key.count == 0 { throw .emptyKey(operation: operation) }
        if key.count > environment.maxKeySize {
            throw .keyTooLarge(size: key.count, maximum: environment.maxKeySize, operation: operation)
        }
    }

    @inline(__always)
    func checkUsable(_ operation: StaticString) {
        precondition(!isFinished, "Transaction used after it ended (\(operation)).")
        checkThread(operation)
    }

    @inline(__always)
    private func checkThread(_ operation: StaticString) {
        if !isReadOnly {
            precondition(
                pthread_equal(ownerThread, pthread_self()) != 0,
                "Write transaction used off the thread that began it (\(operation)).")
        }
    }

    @inline(__always)
    private func checkWritable(_ operation: @autoclosure () -> String) throws(ObjDBError) {
        checkUsable("write")
        if isReadOnly {
            if environment.options.readOnly { throw .readOnly(path: environment.path, operation: operation()) }
            throw .notInWriteTransaction(operation: operation())
        }
    }
}
