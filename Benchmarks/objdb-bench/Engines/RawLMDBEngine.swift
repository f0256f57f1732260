import CLMDB
import Foundation

/// LMDB's C API called directly, with the same keys, a record of the same fields and
/// the same secondary index: the limit of ObjDB's design.
///
/// Table: key = 0x01 + order-preserving id (as ObjDB's), value = userId (8), createdAt (8),
/// retweetCount (8), lang length (1), lang, text. Index (`MDB_DUPSORT`): big-endian
/// userId → table key.
final class RawLMDBEngine: TweetEngine {
    let name = "raw-lmdb"
    let supportsConcurrentWriters = true
    private var env: OpaquePointer?
    private var table = MDB_dbi()
    private var index = MDB_dbi()
    private var path = ""

    func open(directory: String, durable: Bool) throws {
        path = directory + "/raw.lmdb"
        try check(mdb_env_create(&env), "mdb_env_create")
        try check(mdb_env_set_mapsize(env, 1 << 30), "mdb_env_set_mapsize")
        try check(mdb_env_set_maxdbs(env, 8), "mdb_env_set_maxdbs")
        var flags = UInt32(MDB_NOSUBDIR | MDB_NOTLS | MDB_NORDAHEAD)
        if !durable { flags |= UInt32(MDB_NOSYNC) }
        try check(mdb_env_open(env, path, flags, 0o644), "mdb_env_open")
        try write { txn in
            try check(mdb_dbi_open(txn, "tweets", UInt32(MDB_CREATE), &table), "mdb_dbi_open")
            try check(mdb_dbi_open(txn, "userId", UInt32(MDB_CREATE | MDB_DUPSORT), &index), "mdb_dbi_open")
        }
    }

    func bulkInsert(_ data: TweetData) throws {
        try write { txn in
            for i in 0..<data.count {
                try put(
                    txn, id: data.ids[i], userId: data.userIds[i], createdAt: data.createdAt[i],
                    retweetCount: data.retweetCounts[i], lang: data.langs[i], text: data.texts[i])
            }
        }
    }

    func singleInserts(_ tweets: ArraySlice<(id: Int64, userId: Int64, text: String)>) throws {
        for tweet in tweets {
            try write { txn in
                try put(
                    txn, id: tweet.id, userId: tweet.userId, createdAt: 0, retweetCount: 0, lang: "en", text: tweet.text
                )
            }
        }
    }

    func pointReads(_ ids: [Int64]) throws -> UInt64 {
        try read { txn in
            var checksum: UInt64 = 0
            for id in ids {
                var key = Self.key(id)
                let found: Int? = key.withUnsafeMutableBytes { keyBytes in
                    var keyValue = MDB_val(mv_size: 9, mv_data: keyBytes.baseAddress)
                    var value = MDB_val()
                    guard mdb_get(txn, table, &keyValue, &value) == 0 else { return nil }
                    let record = UnsafeRawBufferPointer(start: value.mv_data, count: value.mv_size)
                    return record.count - 25 - Int(record[24])
                }
                guard let textLength = found else { throw BenchmarkFailure.engine(name, "tweet \(id) is missing") }
                mix(&checksum, UInt64(textLength))
            }
            return checksum
        }
    }

    func indexedQueries(_ users: [Int64]) throws -> UInt64 {
        try read { txn in
            var checksum: UInt64 = 0
            var cursor: OpaquePointer?
            try check(mdb_cursor_open(txn, index, &cursor), "mdb_cursor_open")
            defer { mdb_cursor_close(cursor) }
            for user in users {
                var userKey = UInt64(bitPattern: user).bigEndian
                var keyValue = MDB_val(mv_size: 8, mv_data: nil)
                var value = MDB_val()
                var code = withUnsafeMutableBytes(of: &userKey) { bytes -> Int32 in
                    keyValue.mv_data = bytes.baseAddress
                    return mdb_cursor_get(cursor, &keyValue, &value, MDB_SET_KEY)
                }
                while code == 0 {
                    var tableValue = MDB_val()
                    guard mdb_get(txn, table, &value, &tableValue) == 0 else {
                        throw BenchmarkFailure.engine(name, "an index entry points nowhere")
                    }
                    let record = UnsafeRawBufferPointer(start: tableValue.mv_data, count: tableValue.mv_size)
                    mix(&checksum, UInt64(record.loadUnaligned(fromByteOffset: 16, as: Int64.self)))
                    code = mdb_cursor_get(cursor, &keyValue, &value, MDB_NEXT_DUP)
                }
            }
            return checksum
        }
    }

    func filteredScan() throws -> UInt64 {
        try read { txn in
            var cursor: OpaquePointer?
            try check(mdb_cursor_open(txn, table, &cursor), "mdb_cursor_open")
            defer { mdb_cursor_close(cursor) }
            var key = MDB_val()
            var value = MDB_val()
            var count: UInt64 = 0
            var code = mdb_cursor_get(cursor, &key, &value, MDB_FIRST)
            while code == 0 {
                let record = UnsafeRawBufferPointer(start: value.mv_data, count: value.mv_size)
                if record.loadUnaligned(fromByteOffset: 16, as: Int64.self) > 50, record[24] == 2, record[25] == 0x65,
                    record[26] == 0x6E
                {
                    count += 1
                }
                code = mdb_cursor_get(cursor, &key, &value, MDB_NEXT)
            }
            return count
        }
    }

    func updates(_ ids: [Int64]) throws {
        try write { txn in
            try forEachStored(ids, txn) { keyValue, _, value in
                var record = [UInt8](UnsafeRawBufferPointer(start: value.mv_data, count: value.mv_size))
                let count = record.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 16, as: Int64.self) }
                withUnsafeBytes(of: count + 1) { record.replaceSubrange(16..<24, with: $0) }
                try record.withUnsafeMutableBytes { recordBytes in
                    var newValue = MDB_val(mv_size: recordBytes.count, mv_data: recordBytes.baseAddress)
                    try check(mdb_put(txn, table, &keyValue, &newValue, 0), "mdb_put")
                }
            }
        }
    }

    func deletes(_ ids: [Int64]) throws {
        try write { txn in
            try forEachStored(ids, txn) { keyValue, keyBytes, value in
                var userKey = UInt64(bitPattern: value.mv_data.loadUnaligned(as: Int64.self)).bigEndian
                try withUnsafeMutableBytes(of: &userKey) { userBytes in
                    var indexKey = MDB_val(mv_size: 8, mv_data: userBytes.baseAddress)
                    var indexValue = MDB_val(mv_size: 9, mv_data: keyBytes)
                    try check(mdb_del(txn, index, &indexKey, &indexValue), "mdb_del")
                }
                try check(mdb_del(txn, table, &keyValue, nil), "mdb_del")
            }
        }
    }

    /// Calls `body` with the table key and stored value of each id that is stored.
    private func forEachStored(
        _ ids: [Int64], _ txn: OpaquePointer?,
        _ body: (inout MDB_val, UnsafeMutableRawPointer?, MDB_val) throws -> Void
    ) throws {
        for id in ids {
            var key = Self.key(id)
            try key.withUnsafeMutableBytes { keyBytes in
                var keyValue = MDB_val(mv_size: 9, mv_data: keyBytes.baseAddress)
                var value = MDB_val()
                guard mdb_get(txn, table, &keyValue, &value) == 0 else { return }
                try body(&keyValue, keyBytes.baseAddress, value)
            }
        }
    }

    func fileSize() -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }

    func close() {
        if let env { mdb_env_close(env) }
        env = nil
    }

    // MARK: Helpers

    private func put(
        _ txn: OpaquePointer?, id: Int64, userId: Int64, createdAt: Double, retweetCount: Int, lang: String,
        text: String
    ) throws {
        var key = Self.key(id)
        var record: [UInt8] = []
        record.reserveCapacity(25 + lang.utf8.count + text.utf8.count)
        withUnsafeBytes(of: userId) { record.append(contentsOf: $0) }
        withUnsafeBytes(of: createdAt) { record.append(contentsOf: $0) }
        withUnsafeBytes(of: Int64(retweetCount)) { record.append(contentsOf: $0) }
        record.append(UInt8(lang.utf8.count))
        record.append(contentsOf: lang.utf8)
        record.append(contentsOf: text.utf8)
        var userKey = UInt64(bitPattern: userId).bigEndian
        try key.withUnsafeMutableBytes { keyBytes in
            var keyValue = MDB_val(mv_size: 9, mv_data: keyBytes.baseAddress)
            try record.withUnsafeMutableBytes { recordBytes in
                var value = MDB_val(mv_size: recordBytes.count, mv_data: recordBytes.baseAddress)
                try check(mdb_put(txn, table, &keyValue, &value, 0), "mdb_put")
            }
            try withUnsafeMutableBytes(of: &userKey) { userBytes in
                var indexKey = MDB_val(mv_size: 8, mv_data: userBytes.baseAddress)
                var indexValue = MDB_val(mv_size: 9, mv_data: keyBytes.baseAddress)
                try check(mdb_put(txn, index, &indexKey, &indexValue, 0), "mdb_put")
            }
        }
    }

    private static func key(_ id: Int64) -> [UInt8] {
        var key: [UInt8] = [1]
        withUnsafeBytes(of: (UInt64(bitPattern: id) ^ (1 << 63)).bigEndian) { key.append(contentsOf: $0) }
        return key
    }

    private func write(_ body: (OpaquePointer?) throws -> Void) throws {
        var txn: OpaquePointer?
        try check(mdb_txn_begin(env, nil, 0, &txn), "mdb_txn_begin")
        do {
            try body(txn)
        } catch {
            mdb_txn_abort(txn)
            throw error
        }
        try check(mdb_txn_commit(txn), "mdb_txn_commit")
    }

    private func read<Result>(_ body: (OpaquePointer?) throws -> Result) throws -> Result {
        var txn: OpaquePointer?
        try check(mdb_txn_begin(env, nil, UInt32(MDB_RDONLY), &txn), "mdb_txn_begin")
        defer { mdb_txn_abort(txn) }
        return try body(txn)
    }

    private func check(_ code: Int32, _ operation: String) throws {
        guard code == 0 else { throw BenchmarkFailure.engine(name, "\(operation) returned \(code)") }
    }
}
