import CLMDB

/// Every LMDB call funnels its result code through here, so each error names the
/// operation and the store (LMDB's `E(expr)` in mtest.c, with context).
@inline(__always)
func lmdbCheck(_ code: Int32, _ operation: @autoclosure () -> String, path: @autoclosure () -> String)
    throws(ObjDBError)
{
    if code != MDB_SUCCESS {
        throw ObjDBError.lmdb(LMDBResultCode(rawValue: code), operation: operation(), path: path())
    }
}

extension MDB_val {
    /// A view of `buffer` for LMDB; LMDB never writes through key or data inputs.
    @inline(__always)
    init(_ buffer: UnsafeRawBufferPointer) {
        self.init(mv_size: buffer.count, mv_data: UnsafeMutableRawPointer(mutating: buffer.baseAddress))
    }

    /// The bytes LMDB pointed at; valid until the transaction ends or the next write.
    @inline(__always)
    var bytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: mv_data, count: mv_size)
    }
}
