import CBaselines
import ObjDB

/// LMDB's C API called from C (`Benchmarks/CBaselines/raw_lmdb.c`), with ObjDB's keys, a record
/// of the same fields and the same secondary index: the limit of ObjDB's design. Each workload is
/// one C call; the C side allocates nothing per operation.
///
/// Table: key = 0x01 + order-preserving id (as ObjDB's), value = userId (8), createdAt (8),
/// retweetCount (8), lang length (1), lang, text. Index (`MDB_DUPSORT`): big-endian
/// userId → table key. The map is as large as ObjDB's default.
final class RawLMDBEngine: TweetEngine {
    let name = "raw-lmdb"
    /// Whether W1 puts the records in key order with `MDB_APPEND` (`--raw-sorted-load`).
    let sortedLoad: Bool
    private var store: OpaquePointer?

    init(sortedLoad: Bool = false) {
        self.sortedLoad = sortedLoad
    }

    func open(directory: String, durable: Bool) throws {
        var error = bench_error()
        let mapSize = Configuration(path: "").initialMapSize
        store = bench_lmdb_open(directory + "/raw.lmdb", durable ? 1 : 0, mapSize, &error)
        guard store != nil else { throw BenchmarkFailure.engine(name, error.text) }
    }

    func bulkInsert(_ tweets: TweetColumns) throws {
        try callBaseline(name) { error in
            withUnsafePointer(to: tweets.flat) { tweets in
                if sortedLoad { return bench_lmdb_bulk_insert_sorted(store, tweets, &error) }
                return bench_lmdb_bulk_insert(store, tweets, &error)
            }
        }
    }

    func singleInserts(_ tweets: TweetColumns, _ range: Range<Int>) throws {
        try callBaseline(name) { error in
            withUnsafePointer(to: tweets.flat) {
                bench_lmdb_single_inserts(store, $0, range.lowerBound, range.upperBound, &error)
            }
        }
    }

    /// LMDB serializes writers itself, so W2c's threads share the environment.
    func concurrentInserts(_ tweets: TweetColumns, _ range: Range<Int>) throws {
        try singleInserts(tweets, range)
    }

    func pointReads(_ ids: [Int64]) throws -> UInt64 {
        var checksum: UInt64 = 0
        try callBaseline(name) { error in
            ids.withUnsafeBufferPointer {
                bench_lmdb_point_reads(store, $0.baseAddress, $0.count, &checksum, &error)
            }
        }
        return checksum
    }

    func indexedQueries(_ users: [Int64]) throws -> UInt64 {
        var checksum: UInt64 = 0
        try callBaseline(name) { error in
            users.withUnsafeBufferPointer {
                bench_lmdb_indexed_queries(store, $0.baseAddress, $0.count, &checksum, &error)
            }
        }
        return checksum
    }

    func filteredScan() throws -> UInt64 {
        var matches: UInt64 = 0
        try callBaseline(name) { error in bench_lmdb_filtered_scan(store, &matches, &error) }
        return matches
    }

    func updates(_ ids: [Int64]) throws {
        try callBaseline(name) { error in
            ids.withUnsafeBufferPointer { bench_lmdb_updates(store, $0.baseAddress, $0.count, &error) }
        }
    }

    func deletes(_ ids: [Int64]) throws {
        try callBaseline(name) { error in
            ids.withUnsafeBufferPointer { bench_lmdb_deletes(store, $0.baseAddress, $0.count, &error) }
        }
    }

    func fileSize() -> Int {
        Int(bench_lmdb_file_size(store))
    }

    func close() {
        bench_lmdb_close(store)
        store = nil
    }
}
