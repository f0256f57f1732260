import CSQLite
import Foundation
import ObjDB

/// The tools benchmark's user: the demo's `TwitterUser`.
final class TwitterUser: Object {
    @Persisted(primaryKey: true) var id: Int64
    @Persisted var name = ""
    @Persisted(indexed: true) var screenName = ""
    @Persisted(originProperty: "user") var tweets: LinkingObjects<Tweet>
}

/// The tools benchmark's tweet: the demo's `Tweet`.
final class Tweet: Object {
    @Persisted(primaryKey: true) var id: Int64
    @Persisted var text = ""
    @Persisted(indexed: true) var createdAt = Date()
    @Persisted var retweetCount = 0
    @Persisted var user: TwitterUser?
    @Persisted var retweetedBy: List<TwitterUser>
}

/// N tweets by N/100 users, generated from a seed: the same rows for ObjDB and SQLite.
struct ToolRows {
    let count: Int
    var userCount: Int { max(10, count / 100) }

    private func tweet(_ index: Int, _ random: inout SplitMix64) -> (
        id: Int64, text: String, createdAt: Double, retweets: Int, user: Int, retweetedBy: [Int]
    ) {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz      #@é,\"")
        let length = Int.random(in: 80...140, using: &random)
        let text = String((0..<length).map { _ in alphabet.randomElement(using: &random)! })
        let createdAt = 1_300_000_000 + Double(index) * 0.37
        let retweets = Int.random(in: 0...100, using: &random)
        let user = Int.random(in: 1...userCount, using: &random)
        let retweeters =
            Int.random(in: 0..<4, using: &random) == 0 ? [Int.random(in: 1...userCount, using: &random)] : []
        return (Int64(index + 1), text, createdAt, retweets, user, retweeters)
    }

    /// Stores the users and tweets at `path` with the typed API, in one write transaction (W1's way);
    /// without `objects`, only creates the empty store with its schema.
    func store(in path: String, objects: Bool = true) throws {
        var configuration = Configuration(path: path, types: [Tweet.self, TwitterUser.self])
        configuration.isDurable = false
        let database = try Database(configuration: configuration)
        guard objects else { return }
        try database.write { transaction in
            var users: [TwitterUser] = []
            users.reserveCapacity(userCount)
            for id in 1...userCount {
                let user = TwitterUser()
                user.id = Int64(id)
                user.name = "User \(id)"
                user.screenName = "user\(id)"
                try transaction.add(user)
                users.append(user)
            }
            var random = SplitMix64(seed: 18)
            for index in 0..<count {
                let row = tweet(index, &random)
                let tweet = Tweet()
                tweet.id = row.id
                tweet.text = row.text
                tweet.createdAt = Date(timeIntervalSince1970: row.createdAt)
                tweet.retweetCount = row.retweets
                tweet.user = users[row.user - 1]
                for retweeter in row.retweetedBy { tweet.retweetedBy.append(users[retweeter - 1]) }
                try transaction.add(tweet)
            }
        }
    }

    /// The same rows in SQLite at `path`.
    func storeInSQLite(_ path: String) throws {
        let db = try SQLiteFile.create(path, schemaOnly: false)
        defer { sqlite3_close(db) }
        try SQLiteFile.execute("BEGIN", on: db)
        let users = try SQLiteFile.prepare("INSERT INTO users VALUES (?, ?, ?)", on: db)
        for id in 1...userCount {
            sqlite3_bind_int64(users, 1, Int64(id))
            SQLiteFile.bind(users, 2, "User \(id)")
            SQLiteFile.bind(users, 3, "user\(id)")
            guard sqlite3_step(users) == SQLITE_DONE else { throw BenchmarkFailure.engine("sqlite", "insert user") }
            sqlite3_reset(users)
        }
        sqlite3_finalize(users)
        let tweets = try SQLiteFile.prepare("INSERT INTO tweets VALUES (?, ?, ?, ?, ?, ?)", on: db)
        var random = SplitMix64(seed: 18)
        for index in 0..<count {
            let row = tweet(index, &random)
            sqlite3_bind_int64(tweets, 1, row.id)
            SQLiteFile.bind(tweets, 2, row.text)
            sqlite3_bind_double(tweets, 3, row.createdAt)
            sqlite3_bind_int64(tweets, 4, Int64(row.retweets))
            sqlite3_bind_int64(tweets, 5, Int64(row.user))
            SQLiteFile.bind(tweets, 6, "[" + row.retweetedBy.map(String.init).joined(separator: ",") + "]")
            guard sqlite3_step(tweets) == SQLITE_DONE else { throw BenchmarkFailure.engine("sqlite", "insert tweet") }
            sqlite3_reset(tweets)
        }
        sqlite3_finalize(tweets)
        try SQLiteFile.execute("COMMIT", on: db)
    }
}

/// The benchmark's SQLite file: the tables, and the helpers to fill them.
enum SQLiteFile {
    /// Creates the tables (and, unless `schemaOnly`, leaves the connection open for filling).
    @discardableResult
    static func create(_ path: String, schemaOnly: Bool) throws -> OpaquePointer? {
        var db: OpaquePointer?
        guard sqlite3_open(path, &db) == SQLITE_OK else {
            throw BenchmarkFailure.engine("sqlite", "cannot open \(path)")
        }
        try execute(
            """
            PRAGMA journal_mode=WAL; PRAGMA synchronous=OFF;
            CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL, screenName TEXT NOT NULL);
            CREATE INDEX users_screenName ON users(screenName);
            CREATE TABLE tweets (id INTEGER PRIMARY KEY, text TEXT NOT NULL, createdAt REAL NOT NULL,
              retweetCount INTEGER NOT NULL, user INTEGER, retweetedBy TEXT NOT NULL);
            CREATE INDEX tweets_createdAt ON tweets(createdAt);
            """, on: db)
        if schemaOnly {
            sqlite3_close(db)
            return nil
        }
        return db
    }

    static func execute(_ sql: String, on db: OpaquePointer?) throws {
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(db, sql, nil, nil, &message) == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? "?"
            sqlite3_free(message)
            throw BenchmarkFailure.engine("sqlite", text)
        }
    }

    static func prepare(_ sql: String, on db: OpaquePointer?) throws -> OpaquePointer? {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else {
            throw BenchmarkFailure.engine("sqlite", "cannot prepare \(sql)")
        }
        return statement
    }

    static func bind(_ statement: OpaquePointer?, _ index: Int32, _ text: String) {
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        _ = text.withCString { sqlite3_bind_text(statement, index, $0, -1, transient) }
    }
}
