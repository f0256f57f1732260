import CBaselines
import ObjDB

/// LMDB's C API called from C (`Benchmarks/CBaselines/raw_lmdb.c`), with ObjDB's key bytes, a
/// record of the same fields and the same secondary index, and every technique ObjDB's storage
/// layer uses: the limit of ObjDB's design. Each workload is one C call; the C side allocates
/// nothing per operation.
///
/// Table: key = the id's `OrderedVarInt` (as `ObjectKeyCodec`'s), value = userId (8),
/// createdAt (8), retweetCount (8), lang length (1), lang, text. Index (`MDB_DUPSORT`):
/// `IndexKeyCodec`'s key of the userId → the table key. W1 puts the records in key order through
/// one cursor with `MDB_APPEND`. The map is as large as ObjDB's default.
final class RawLMDBEngine: TweetEngine {
    let name = "raw-lmdb"
    private var store: OpaquePointer?

    func open(directory: String, durable: Bool) throws {
        var error = bench_error()
        let mapSize = Configuration(path: "").initialMapSize
        store = bench_lmdb_open(directory + "/raw.lmdb", durable ? 1 : 0, mapSize, &error)
        guard store != nil else { throw BenchmarkFailure.engine(name, error.text) }
    }

    func bulkInsert(_ tweets: TweetColumns) throws {
        try callBaseline(name) { error in
            withUnsafePointer(to: tweets.flat) { bench_lmdb_bulk_insert(store, $0, &error) }
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

    func census() throws -> Census {
        var census = bench_census()
        try callBaseline(name) { error in bench_lmdb_census(store, &census, &error) }
        return Census(census)
    }

    func layout() throws -> [TreeShape]? {
        var trees = (bench_lmdb_tree(), bench_lmdb_tree(), bench_lmdb_tree())
        try callBaseline(name) { error in
            withUnsafeMutableBytes(of: &trees) {
                bench_lmdb_layout(store, $0.baseAddress!.assumingMemoryBound(to: bench_lmdb_tree.self), &error)
            }
        }
        return [trees.0, trees.1, trees.2].map { tree in
            TreeShape(
                database: withUnsafeBytes(of: tree.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) },
                depth: Int(tree.depth), branchPages: tree.branch_pages, leafPages: tree.leaf_pages,
                overflowPages: tree.overflow_pages, entries: tree.entries)
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
