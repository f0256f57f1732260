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
    let supportsConcurrentWriters = true
    private var database: Database?
    private var path = ""

    func open(directory: String, durable: Bool) throws {
        path = directory + "/objdb.objdb"
        var configuration = Configuration(path: path, types: [BenchTweet.self])
        configuration.isDurable = durable
        configuration.initialMapSize = 1 << 30
        database = try Database(configuration: configuration)
    }

    func bulkInsert(_ data: TweetData) throws {
        try database!.write { transaction in try Self.add(data, count: data.count, in: transaction) }
    }

    /// Adds the first `count` tweets of `data` in `transaction` (W1, and W10's stores).
    static func add(_ data: TweetData, count: Int, in transaction: WriteTransaction) throws {
        for index in 0..<count {
            let tweet = BenchTweet()
            tweet.id = data.ids[index]
            tweet.userId = data.userIds[index]
            tweet.createdAt = Date(timeIntervalSince1970: data.createdAt[index])
            tweet.retweetCount = data.retweetCounts[index]
            tweet.text = data.texts[index]
            tweet.lang = data.langs[index]
            try transaction.add(tweet)
        }
    }

    func singleInserts(_ tweets: ArraySlice<(id: Int64, userId: Int64, text: String)>) throws {
        for item in tweets {
            try database!.write { transaction in try Self.add(item, in: transaction) }
        }
    }

    /// W2c's async variant: each slice from its own task, one `try await db.write` per tweet,
    /// so the writes that wait together commit as one transaction with one sync (group commit).
    /// Returns once every write has committed.
    func asyncConcurrentInserts(_ slices: [ArraySlice<(id: Int64, userId: Int64, text: String)>]) throws {
        let database = database!
        try waitFor {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for slice in slices {
                    group.addTask {
                        for item in slice {
                            try await database.write { transaction in try ObjDBEngine.add(item, in: transaction) }
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

    private static func add(_ item: (id: Int64, userId: Int64, text: String), in transaction: WriteTransaction) throws {
        let tweet = BenchTweet()
        tweet.id = item.id
        tweet.userId = item.userId
        tweet.text = item.text
        tweet.lang = "en"
        try transaction.add(tweet)
    }

    func pointReads(_ ids: [Int64]) throws -> UInt64 {
        try database!.read { view in
            var checksum: UInt64 = 0
            for id in ids {
                guard let tweet = view.object(ofType: BenchTweet.self, forPrimaryKey: id) else {
                    throw BenchmarkFailure.engine(name, "tweet \(id) is missing")
                }
                mix(&checksum, UInt64(tweet.text.utf8.count))
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
                transaction.object(ofType: BenchTweet.self, forPrimaryKey: id)?.retweetCount += 1
            }
        }
    }

    func deletes(_ ids: [Int64]) throws {
        try database!.write { transaction in
            for id in ids {
                if let tweet = transaction.object(ofType: BenchTweet.self, forPrimaryKey: id) {
                    try transaction.delete(tweet)
                }
            }
        }
    }

    func fileSize() -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }

    func close() {
        database = nil
    }
}
