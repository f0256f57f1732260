import CLMDB
import Foundation

/// When a write transaction holds a table's inserts back in a ``BulkLoad``, and when it puts them:
/// whatever would let LMDB see the table (a cursor, a delete, a nested transaction, the commit)
/// puts its held entries first, and a get reads them from the load, so no caller sees the difference.
extension Transaction {
    /// The bulk load that takes a put into `database`, starting one when this is the transaction's
    /// first insert into an empty table; otherwise puts what a load holds there, so the put below
    /// sees it.
    func bulkLoad(forPutIn database: DatabaseHandle, options: PutOptions) throws -> BulkLoad? {
        // Only inserts and replacing puts into a table of one value per key in bytewise order, in
        // the outermost transaction: a child's writes go to its parent's pages when it commits.
        guard options == .noOverwrite || options.isEmpty, parent == nil, database.options.isEmpty else {
            try putBulkLoad(of: database)
            return nil
        }
        if !bulkLoads.isEmpty, let load = bulkLoad(of: database) { return load }
        guard settledTables.insert(database.dbi), openCursorCount == 0, child == nil else { return nil }
        var stat = MDB_stat()
        try check(mdb_stat(pointer, database.dbi, &stat), "mdb_stat")
        guard stat.ms_entries == 0 else { return nil }
        if heldBudget == nil {
            // Half the map still free, so that putting what is held, a write that may come from a
            // read (a count, a query), finds room: a map too small fails the add instead.
            let free = max(environment.mapSize - (try environment.usedBytes()), 0)
            heldBudget = min(environment.options.maxBulkLoadBytes, free / 2)
        }
        guard heldBytes < heldBudget! else { return nil }
        let load = BulkLoad(dbi: database.dbi)
        bulkLoads.append(load)
        return load
    }

    /// Runs `insert` on `load`, then puts every load when they hold as much as they may.
    func hold(in load: BulkLoad, _ insert: () throws -> Bool) throws -> Bool {
        let before = load.heldBytes
        let inserted = try insert()
        heldBytes += load.heldBytes - before
        if heldBytes >= heldBudget! { try putBulkLoads() }
        return inserted
    }

    func bulkLoad(of database: DatabaseHandle) -> BulkLoad? {
        bulkLoads.first { $0.dbi == database.dbi }
    }

    /// Puts what a bulk load holds for `database`, if any, so LMDB's own reads and writes see it.
    @inline(__always)
    func putBulkLoad(of database: DatabaseHandle) throws {
        if !bulkLoads.isEmpty, let load = bulkLoad(of: database) { try putHeldEntries(of: load) }
    }

    /// Puts every bulk load (before a commit or a nested transaction).
    func putBulkLoads() throws {
        if let bulkLoadFailure { throw bulkLoadFailure }
        while let load = bulkLoads.last { try putHeldEntries(of: load) }
    }

    /// Puts a load's entries in key order, each after the last (`MDB_APPEND`: no search, full
    /// leaves), and ends the load: the table is no longer empty.
    private func putHeldEntries(of load: BulkLoad) throws {
        bulkLoads.removeAll { $0 === load }
        finishedBulkLoads.append(load)
        defer { didPutHeldEntries?() }
        var cursor: OpaquePointer?
        do {
            try check(mdb_cursor_open(pointer, load.dbi, &cursor), "mdb_cursor_open")
            defer { mdb_cursor_close(cursor) }
            try load.forEachInKeyOrder { key, value in
                var keyValue = MDB_val(key)
                var dataValue = MDB_val(value)
                try check(mdb_cursor_put(cursor, &keyValue, &dataValue, UInt32(MDB_APPEND)), "mdb_cursor_put")
            }
        } catch {
            // LMDB refuses every later use of a transaction one of whose writes failed.
            bulkLoadFailure = error
            throw error
        }
    }
}

/// A set of database handles' numbers, without allocating for the first 64.
struct DatabaseSet {
    private var low: UInt64 = 0
    private var high: Set<MDB_dbi> = []

    /// Adds `dbi`; returns whether it was new.
    mutating func insert(_ dbi: MDB_dbi) -> Bool {
        guard dbi < 64 else { return high.insert(dbi).inserted }
        let bit: UInt64 = 1 << UInt64(dbi)
        defer { low |= bit }
        return low & bit == 0
    }
}
