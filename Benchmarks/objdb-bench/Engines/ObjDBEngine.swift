import Foundation
import ObjDB

/// The benchmark's tweet as an ObjDB model.
final class BenchTweet: Object {
    @Persisted(primaryKey: true) var id: Int64
    @Persisted(indexed: true) var userId: Int64
    @Persisted var createdAt = Date(timeIntervalSince1970: 0)
    @Persisted var retweetCount = 0
    @Persisted var text = ""
    @Persisted var lang = ""
}

/// ObjDB through its public, typed API.
final class ObjDBEngine: TweetEngine {
    let name = "objdb"
    private var database: Database?
    private var path = ""

    /// Opens with the default map, as a user would.
    func open(directory: String, durable: Bool) throws {
        path = directory + "/objdb.objdb"
        var configuration = Configuration(path: path, types: [BenchTweet.self])
        configuration.isDurable = durable
        database = try Database(configuration: configuration)
    }

    func bulkInsert(_ tweets: TweetColumns) throws {
        try database!.write { transaction in try Self.add(tweets, 0..<tweets.count, in: transaction) }
    }

    /// Adds the tweets in `range` in `transaction` (W1, W2, W3, W10's stores).
    static func add(_ tweets: TweetColumns, _ range: Range<Int>, in transaction: WriteTransaction) throws {
        for index in range {
            let tweet = BenchTweet()
            tweet.id = tweets.ids[index]
            tweet.userId = tweets.userIds[index]
            tweet.createdAt = Date(timeIntervalSince1970: tweets.createdAt[index])
            tweet.retweetCount = tweets.retweetCounts[index]
            tweet.text = tweets.texts[index]
            tweet.lang = tweets.langs[index]
            try transaction.add(tweet)
        }
    }

    func singleInserts(_ tweets: TweetColumns, _ range: Range<Int>) throws {
        for index in range {
            try database!.write { transaction in try Self.add(tweets, index..<index + 1, in: transaction) }
        }
    }

    /// The synchronous `db.write` from each of W2c's threads: every commit syncs alone.
    func concurrentInserts(_ tweets: TweetColumns, _ range: Range<Int>) throws {
        try singleInserts(tweets, range)
    }

    /// W2c's async variant: each range from its own task, one `try await db.write` per tweet,
    /// so the writes that wait together commit as one transaction with one sync (group commit).
    /// Returns once every write has committed.
    func asyncConcurrentInserts(_ tweets: TweetColumns, _ ranges: [Range<Int>]) throws {
        let database = database!
        try waitFor {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for range in ranges {
                    group.addTask {
                        for index in range {
                            try await database.write { transaction in
                                try ObjDBEngine.add(tweets, index..<index + 1, in: transaction)
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
    }

    /// The number of tweets stored (W2c's check that every async write landed).
    func storedCount() throws -> Int {
        try database!.read { $0.objects(BenchTweet.self).count }
    }

    func pointReads(_ ids: [Int64]) throws -> UInt64 {
        try database!.read { view in
            var checksum: UInt64 = 0
            for id in ids {
                guard let tweet = view.object(ofType: BenchTweet.self, forPrimaryKey: id) else {
                    throw BenchmarkFailure.engine(name, "tweet \(id) is missing")
                }
                mix(&checksum, textHash(tweet.text))
            }
            return checksum
        }
    }

    func indexedQueries(_ users: [Int64]) throws -> UInt64 {
        try database!.read { view in
            var checksum: UInt64 = 0
            let tweets = view.objects(BenchTweet.self)
            for user in users {
                for tweet in tweets.where({ $0.userId == user }) {
                    mix(&checksum, UInt64(tweet.retweetCount))
                }
            }
            return checksum
        }
    }

    func filteredScan() throws -> UInt64 {
        try database!.read { view in
            UInt64(try view.objects(BenchTweet.self).filter("retweetCount > 50 AND lang == 'en'").count)
        }
    }

    func updates(_ ids: [Int64]) throws {
        try database!.write { transaction in
            for id in ids {
                guard let tweet = transaction.object(ofType: BenchTweet.self, forPrimaryKey: id) else {
                    throw BenchmarkFailure.engine(name, "tweet \(id) is missing")
                }
                tweet.retweetCount += 1
            }
        }
    }

    func deletes(_ ids: [Int64]) throws {
        try database!.write { transaction in
            for id in ids {
                guard let tweet = transaction.object(ofType: BenchTweet.self, forPrimaryKey: id) else {
                    throw BenchmarkFailure.engine(name, "tweet \(id) is missing")
                }
                try transaction.delete(tweet)
            }
        }
    }

    /// Rows and the retweet sum through the public API; the index's entries from LMDB's statistics.
    func census() throws -> Census {
        let (rows, sum) = try database!.read { view in
            let tweets = view.objects(BenchTweet.self)
            return (tweets.count, try tweets.sum(ofProperty: "retweetCount") as Int)
        }
        let indexes = try database!.databaseStatistics().filter { $0.name.hasPrefix("idx.BenchTweet.") }
        guard indexes.count == 1 else { throw BenchmarkFailure.engine(name, "\(indexes.count) indexes on BenchTweet") }
        return Census(rows: rows, indexEntries: indexes[0].statistics.entries, retweetSum: sum)
    }

    func layout() throws -> [TreeShape]? {
        try database!.databaseStatistics().map { name, tree in
            TreeShape(
                database: name, depth: tree.depth, branchPages: tree.branchPages, leafPages: tree.leafPages,
                overflowPages: tree.overflowPages, entries: tree.entries)
        }
    }

    func fileSize() -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }

    func close() {
        database = nil
    }
}
