import CBaselines

/// SQLite from Debian called from C (`Benchmarks/CBaselines/sqlite.c`), as its users tune it:
/// WAL, statements prepared once per store, an index on `userId`, a cache that holds the data,
/// `synchronous=FULL` when durable and `OFF` when not, the bulk load in id order. Each workload
/// is one C call.
final class SQLiteEngine: TweetEngine {
    let name = "sqlite"
    private var store: OpaquePointer?

    func open(directory: String, durable: Bool) throws {
        var error = bench_error()
        store = bench_sqlite_open(directory + "/sqlite.db", durable ? 1 : 0, &error)
        guard store != nil else { throw BenchmarkFailure.engine(name, error.text) }
    }

    func bulkInsert(_ tweets: TweetColumns) throws {
        try callBaseline(name) { error in
            withUnsafePointer(to: tweets.flat) { bench_sqlite_bulk_insert(store, $0, &error) }
        }
    }

    func singleInserts(_ tweets: TweetColumns, _ range: Range<Int>) throws {
        try callBaseline(name) { error in
            withUnsafePointer(to: tweets.flat) {
                bench_sqlite_single_inserts(store, $0, range.lowerBound, range.upperBound, &error)
            }
        }
    }

    /// The writers share the one connection, one insert at a time, as GRDB's single writer does:
    /// a connection per writer would have SQLite's busy handler sleep whenever two collide.
    func concurrentInserts(_ tweets: TweetColumns, _ range: Range<Int>) throws {
        try callBaseline(name) { error in
            withUnsafePointer(to: tweets.flat) {
                bench_sqlite_concurrent_inserts(store, $0, range.lowerBound, range.upperBound, &error)
            }
        }
    }

    func pointReads(_ ids: [Int64]) throws -> UInt64 {
        var checksum: UInt64 = 0
        try callBaseline(name) { error in
            ids.withUnsafeBufferPointer {
                bench_sqlite_point_reads(store, $0.baseAddress, $0.count, &checksum, &error)
            }
        }
        return checksum
    }

    func indexedQueries(_ users: [Int64]) throws -> UInt64 {
        var checksum: UInt64 = 0
        try callBaseline(name) { error in
            users.withUnsafeBufferPointer {
                bench_sqlite_indexed_queries(store, $0.baseAddress, $0.count, &checksum, &error)
            }
        }
        return checksum
    }

    func filteredScan() throws -> UInt64 {
        var matches: UInt64 = 0
        try callBaseline(name) { error in bench_sqlite_filtered_scan(store, &matches, &error) }
        return matches
    }

    func updates(_ ids: [Int64]) throws {
        try callBaseline(name) { error in
            ids.withUnsafeBufferPointer { bench_sqlite_updates(store, $0.baseAddress, $0.count, &error) }
        }
    }

    func deletes(_ ids: [Int64]) throws {
        try callBaseline(name) { error in
            ids.withUnsafeBufferPointer { bench_sqlite_deletes(store, $0.baseAddress, $0.count, &error) }
        }
    }

    func census() throws -> Census {
        var census = bench_census()
        try callBaseline(name) { error in bench_sqlite_census(store, &census, &error) }
        return Census(census)
    }

    func layout() throws -> [TreeShape]? { nil }

    func fileSize() -> Int {
        Int(bench_sqlite_file_size(store))
    }

    func close() {
        bench_sqlite_close(store)
        store = nil
    }
}
