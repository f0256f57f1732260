import CBaselines

/// One engine's implementation of every workload. Each run opens a fresh store.
protocol TweetEngine: AnyObject {
    /// The name printed in the table and the JSON report.
    var name: String { get }
    /// Opens an empty store in `directory`; `durable` commits sync to disk.
    func open(directory: String, durable: Bool) throws
    /// W1: every tweet in one transaction, in the order given (random id order).
    func bulkInsert(_ tweets: TweetColumns) throws
    /// W2/W3: the tweets in `range`, one transaction each.
    func singleInserts(_ tweets: TweetColumns, _ range: Range<Int>) throws
    /// One of W2c's writers, on a thread of its own while the others write theirs: the tweets
    /// in `range`, one transaction each.
    func concurrentInserts(_ tweets: TweetColumns, _ range: Range<Int>) throws
    /// W4: reads `text` of each id; returns a checksum of the hashes of its bytes (``textHash(_:)``).
    func pointReads(_ ids: [Int64]) throws -> UInt64
    /// W5: for each user, the tweets with that `userId`; returns a checksum of their retweet counts.
    func indexedQueries(_ users: [Int64]) throws -> UInt64
    /// W6: the number of tweets with `retweetCount > 50 AND lang == "en"`.
    func filteredScan() throws -> UInt64
    /// W7: adds one to `retweetCount` of each id, in one transaction; throws when one is missing.
    func updates(_ ids: [Int64]) throws
    /// W8: deletes each id, in one transaction; throws when one is missing.
    func deletes(_ ids: [Int64]) throws
    /// What the store holds (not timed): compared with what the workloads so far must leave.
    func census() throws -> Census
    /// The shape of each of the store's B-trees (not timed); `nil` for an engine not on LMDB.
    func layout() throws -> [TreeShape]?
    /// The store's size on disk, in bytes.
    func fileSize() -> Int
    /// Closes the store.
    func close()
}

/// What a store holds: its tweets, the entries of its `userId` index, and the sum of `retweetCount`.
struct Census: Equatable, CustomStringConvertible {
    var rows: Int
    var indexEntries: Int
    var retweetSum: Int

    var description: String { "\(rows) tweets, \(indexEntries) index entries, retweetCount sum \(retweetSum)" }
}

/// One LMDB B-tree's shape (`mdb_stat`).
struct TreeShape {
    let database: String
    let depth: Int
    let branchPages: Int
    let leafPages: Int
    let overflowPages: Int
    let entries: Int
}

enum BenchmarkFailure: Error, CustomStringConvertible {
    case engine(String, String)
    case disagreement(workload: String, detail: String)
    case wrongCensus(workload: String, engine: String, found: Census, expected: Census)

    var description: String {
        switch self {
        case .engine(let engine, let detail): return "\(engine): \(detail)"
        case .disagreement(let workload, let detail): return "engines disagree on \(workload): \(detail)"
        case .wrongCensus(let workload, let engine, let found, let expected):
            return "\(engine) after \(workload) holds \(found); expected \(expected)"
        }
    }
}

/// W4's hash of a text's UTF-8 bytes: the C baselines' `bench_hash_bytes`, so every engine reads them all.
func textHash(_ text: String) -> UInt64 {
    var text = text
    return text.withUTF8 { bench_hash_bytes($0.baseAddress, $0.count) }
}

/// Folds a value into a checksum that does not depend on the order of the values
/// (the C baselines' `bench_mix` is the same function).
@inline(__always)
func mix(_ checksum: inout UInt64, _ value: UInt64) {
    checksum &+= (value &* 0x9E37_79B9_7F4A_7C15) ^ (value >> 7)
}
