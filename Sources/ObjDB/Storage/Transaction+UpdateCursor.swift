import CLMDB
import Foundation

/// A write reads a plain table (one value per key, bytewise keys) through one cursor per
/// table, left where the last get found its key. An update reads a record, then puts the same
/// key: the put then goes through that cursor with `MDB_CURRENT`, and LMDB writes at the
/// position it holds instead of descending the B-tree a second time (W7 in BENCHMARKS.md).
///
/// LMDB keeps a write's cursors in step with every put and delete of the transaction, and
/// the put checks that the cursor still stands at its key: anything in between (a delete, an
/// insert that moved it, a get of another key) sends the put the ordinary way.
extension Transaction {
    /// Whether a get in `database` goes through its update cursor: a plain table of a write with
    /// no child open. While a child is open, LMDB has moved this transaction's cursors to it, and
    /// `mdb_get` refuses the parent (MDB_BAD_TXN) where a moved cursor would read the child.
    @inline(__always)
    func readsThroughUpdateCursor(_ database: DatabaseHandle) -> Bool {
        !isReadOnly && database.options.isEmpty && !hasOpenChild
    }

    /// The value under `key` in a plain table of this write, found with the table's update cursor.
    func positioningGet(_ key: UnsafeRawBufferPointer, in database: DatabaseHandle) throws
        -> UnsafeRawBufferPointer?
    {
        let cursor = try updateCursor(of: database)
        var keyValue = MDB_val(key)
        var value = MDB_val()
        let code = mdb_cursor_get(cursor, &keyValue, &value, MDB_SET)
        if code == MDB_NOTFOUND { return nil }
        try check(code, "mdb_cursor_get")
        return value.bytes
    }

    /// The update cursor of `database` when it stands at `key`, for a put of that key to replace
    /// in place; `nil` otherwise (no get positioned one there, or a write since moved it).
    @inline(__always)
    func updateCursor(standingAt key: UnsafeRawBufferPointer, in database: DatabaseHandle) -> OpaquePointer? {
        guard !updateCursors.isEmpty, !hasOpenChild else { return nil }
        for entry in updateCursors where entry.dbi == database.dbi {
            var current = MDB_val()
            var value = MDB_val()
            guard mdb_cursor_get(entry.cursor, &current, &value, MDB_GET_CURRENT) == MDB_SUCCESS,
                current.mv_size == key.count, let start = key.baseAddress,
                memcmp(current.mv_data, start, key.count) == 0
            else { return nil }
            return entry.cursor
        }
        return nil
    }

    private func updateCursor(of database: DatabaseHandle) throws -> OpaquePointer {
        for entry in updateCursors where entry.dbi == database.dbi { return entry.cursor }
        var cursor: OpaquePointer?
        try check(mdb_cursor_open(pointer, database.dbi, &cursor), "mdb_cursor_open")
        // LMDB sets the cursor whenever it returns success.
        let opened = cursor.unsafelyUnwrapped
        updateCursors.append((database.dbi, opened))
        return opened
    }
}
