import CLMDB

/// LMDB's C API called directly, with the same keys, values and flags: the limit of ObjDB's design.
final class RawLMDBEngine: BenchmarkEngine {
    let name = "raw-lmdb"
    private var env: OpaquePointer?
    private var dbi = MDB_dbi()

    func open(directory: String) throws {
        try check(mdb_env_create(&env), "mdb_env_create")
        try check(mdb_env_set_mapsize(env, 1 << 30), "mdb_env_set_mapsize")
        try check(mdb_env_set_maxdbs(env, 8), "mdb_env_set_maxdbs")
        let flags = UInt32(MDB_NOSUBDIR | MDB_NOTLS | MDB_NORDAHEAD | MDB_NOSYNC)
        try check(mdb_env_open(env, directory + "/raw.lmdb", flags, 0o644), "mdb_env_open")
        var txn: OpaquePointer?
        try check(mdb_txn_begin(env, nil, 0, &txn), "mdb_txn_begin")
        try check(mdb_dbi_open(txn, "records", UInt32(MDB_CREATE), &dbi), "mdb_dbi_open")
        try check(mdb_txn_commit(txn), "mdb_txn_commit")
    }

    func bulkInsert(_ records: RecordSet) throws {
        var txn: OpaquePointer?
        try check(mdb_txn_begin(env, nil, 0, &txn), "mdb_txn_begin")
        for key in records.keys {
            var bigEndian = key.bigEndian
            var dataValue = MDB_val(mv_size: records.valueSize, mv_data: nil)
            let code = withUnsafeMutableBytes(of: &bigEndian) { keyBytes in
                var keyValue = MDB_val(mv_size: 8, mv_data: keyBytes.baseAddress)
                return mdb_put(txn, dbi, &keyValue, &dataValue, UInt32(MDB_RESERVE))
            }
            guard code == 0 else {
                mdb_txn_abort(txn)
                throw BenchmarkFailure.lmdb(code, "mdb_put")
            }
            records.value(
                for: key, into: UnsafeMutableRawBufferPointer(start: dataValue.mv_data, count: records.valueSize))
        }
        try check(mdb_txn_commit(txn), "mdb_txn_commit")
    }

    func pointReads(_ keys: [UInt64]) throws -> UInt64 {
        var txn: OpaquePointer?
        try check(mdb_txn_begin(env, nil, UInt32(MDB_RDONLY), &txn), "mdb_txn_begin")
        defer { mdb_txn_abort(txn) }
        var checksum: UInt64 = 0
        for key in keys {
            var bigEndian = key.bigEndian
            var dataValue = MDB_val()
            let code = withUnsafeMutableBytes(of: &bigEndian) { keyBytes in
                var keyValue = MDB_val(mv_size: 8, mv_data: keyBytes.baseAddress)
                return mdb_get(txn, dbi, &keyValue, &dataValue)
            }
            guard code == 0 else { throw BenchmarkFailure.missingKey(key) }
            let value = UnsafeRawBufferPointer(start: dataValue.mv_data, count: dataValue.mv_size)
            checksum &+= UInt64(value[0]) &+ UInt64(value[value.count - 1]) &+ UInt64(value.count)
        }
        return checksum
    }

    func close() {
        if let env { mdb_env_close(env) }
        env = nil
    }

    private func check(_ code: Int32, _ operation: String) throws {
        guard code == 0 else { throw BenchmarkFailure.lmdb(code, operation) }
    }
}
