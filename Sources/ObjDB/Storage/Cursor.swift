import CLMDB

/// A key and value a ``Cursor`` stands on, pointing into LMDB's map (no copy).
package struct CursorEntry {
    /// The key's bytes; valid until the transaction ends or, in a write transaction, the next write.
    package let key: UnsafeRawBufferPointer
    /// The value's bytes; valid as long as ``key``.
    package let value: UnsafeRawBufferPointer
}

/// A position in one database of one transaction, moved in key order.
///
/// Keys sort as LMDB compares them: bytewise, a shorter key before a longer one
/// it prefixes. Every move returns the entry it lands on, or `nil` past either end.
///
/// - Warning: Valid only while its transaction is open, and on that transaction's thread.
package final class Cursor {
    /// The database the cursor walks.
    package let database: DatabaseHandle
    private let transaction: Transaction
    private let pointer: OpaquePointer

    init(transaction: Transaction, database: DatabaseHandle) throws {
        var cursor: OpaquePointer?
        try transaction.check(mdb_cursor_open(transaction.pointer, database.dbi, &cursor), "mdb_cursor_open")
        self.transaction = transaction
        self.database = database
        self.pointer = cursor!
        if !transaction.isReadOnly { transaction.openCursorCount += 1 }
    }

    deinit {
        if !transaction.isReadOnly { transaction.openCursorCount -= 1 }
        // LMDB frees a write transaction's cursors when the transaction ends;
        // a read transaction's cursors are always ours to close.
        if transaction.isReadOnly || !transaction.isFinished {
            mdb_cursor_close(pointer)
        }
    }

    /// Moves to the smallest key.
    package func first() throws -> CursorEntry? { try move(MDB_FIRST) }
    /// Moves to the largest key.
    package func last() throws -> CursorEntry? { try move(MDB_LAST) }
    /// Moves to the next entry (the next value of a duplicate key first).
    package func next() throws -> CursorEntry? { try move(MDB_NEXT) }
    /// Moves to the previous entry.
    package func previous() throws -> CursorEntry? { try move(MDB_PREV) }
    /// Moves to the next key, skipping the current key's other values.
    package func nextKey() throws -> CursorEntry? { try move(MDB_NEXT_NODUP) }
    /// Moves to the next value of the current key, or `nil` after its last value.
    package func nextValueOfKey() throws -> CursorEntry? { try move(MDB_NEXT_DUP) }

    /// Moves to the last value of the previous key.
    package func previousKey() throws -> CursorEntry? { try move(MDB_PREV_NODUP) }
    /// Moves to the last value of the current key.
    package func lastValueOfKey() throws -> CursorEntry? { try move(MDB_LAST_DUP) }

    /// Moves to the first entry whose key is at least `key`.
    package func seek(atLeast key: UnsafeRawBufferPointer) throws -> CursorEntry? {
        try move(MDB_SET_RANGE, key: key)
    }

    /// Moves to `key` exactly, or returns `nil` and leaves the position undefined.
    package func seek(exactly key: UnsafeRawBufferPointer) throws -> CursorEntry? {
        try move(MDB_SET_KEY, key: key)
    }

    /// Moves to the previous value of the current key, or `nil` before its first value.
    package func previousValueOfKey() throws -> CursorEntry? { try move(MDB_PREV_DUP) }

    /// Moves to the first value of `key` that is at least `value` (``DatabaseOptions/duplicateSort``
    /// only), or returns `nil` when `key` has none.
    package func seek(_ key: UnsafeRawBufferPointer, valueAtLeast value: UnsafeRawBufferPointer) throws
        -> CursorEntry?
    {
        transaction.checkUsable("cursor move")
        var keyValue = MDB_val(key)
        var dataValue = MDB_val(value)
        let code = mdb_cursor_get(pointer, &keyValue, &dataValue, MDB_GET_BOTH_RANGE)
        if code == MDB_NOTFOUND { return nil }
        try transaction.check(code, "mdb_cursor_get")
        return CursorEntry(key: keyValue.bytes, value: dataValue.bytes)
    }

    /// The entry the cursor stands on.
    package func current() throws -> CursorEntry? { try move(MDB_GET_CURRENT) }

    /// The number of values of the current key (``DatabaseOptions/duplicateSort`` only).
    package func valueCount() throws -> Int {
        var count = 0
        try transaction.check(mdb_cursor_count(pointer, &count), "mdb_cursor_count")
        return count
    }

    /// Deletes the entry the cursor stands on; the cursor then stands on the next one.
    package func deleteCurrent() throws {
        if transaction.isReadOnly {
            throw ObjDBError.notInWriteTransaction(operation: "delete through a cursor")
        }
        try transaction.check(mdb_cursor_del(pointer, 0), "mdb_cursor_del")
    }

    /// Stores `value` under `key` through the cursor, which then stands on it.
    package func put(
        _ value: UnsafeRawBufferPointer, forKey key: UnsafeRawBufferPointer, options: PutOptions = []
    ) throws {
        if transaction.isReadOnly {
            throw ObjDBError.notInWriteTransaction(operation: "put through a cursor")
        }
        try transaction.checkKey(key, "mdb_cursor_put")
        var keyValue = MDB_val(key)
        var dataValue = MDB_val(value)
        try transaction.check(mdb_cursor_put(pointer, &keyValue, &dataValue, options.rawValue), "mdb_cursor_put")
    }

    /// Compares two keys as this database orders them.
    package func compare(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Int32 {
        var left = MDB_val(lhs)
        var right = MDB_val(rhs)
        return mdb_cmp(transaction.pointer, database.dbi, &left, &right)
    }

    @inline(__always)
    private func move(_ operation: MDB_cursor_op, key: UnsafeRawBufferPointer? = nil) throws -> CursorEntry? {
        transaction.checkUsable("cursor move")
        var keyValue = key.map(MDB_val.init) ?? MDB_val()
        var dataValue = MDB_val()
        let code = mdb_cursor_get(pointer, &keyValue, &dataValue, operation)
        if code == MDB_NOTFOUND { return nil }
        try transaction.check(code, "mdb_cursor_get")
        return CursorEntry(key: keyValue.bytes, value: dataValue.bytes)
    }
}
