import CSQLite
import Foundation

/// SQLite from Debian, as its users tune it: WAL, prepared statements, an index on
/// `userId`, a cache that holds the data, `synchronous=FULL` when durable and `OFF` when not.
final class SQLiteEngine: TweetEngine {
    let name = "sqlite"
    let supportsConcurrentWriters = true
    private var db: OpaquePointer?
    private var path = ""
    private var durable = true

    func open(directory: String, durable: Bool) throws {
        path = directory + "/sqlite.db"
        self.durable = durable
        db = try connect()
        try execute(
            """
            CREATE TABLE tweets (id INTEGER PRIMARY KEY, userId INTEGER NOT NULL, createdAt REAL NOT NULL,
              retweetCount INTEGER NOT NULL, text TEXT NOT NULL, lang TEXT NOT NULL);
            CREATE INDEX tweets_userId ON tweets(userId);
            """, on: db)
    }

    private func connect() throws -> OpaquePointer? {
        var connection: OpaquePointer?
        guard
            sqlite3_open_v2(path, &connection, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
                == SQLITE_OK
        else { throw BenchmarkFailure.engine(name, "cannot open \(path)") }
        try execute(
            """
            PRAGMA journal_mode=WAL; PRAGMA synchronous=\(durable ? "FULL" : "OFF");
            PRAGMA cache_size=-1048576; PRAGMA temp_store=MEMORY; PRAGMA busy_timeout=60000;
            """, on: connection)
        return connection
    }

    func bulkInsert(_ data: TweetData) throws {
        try execute("BEGIN", on: db)
        let insert = try prepare("INSERT INTO tweets VALUES (?, ?, ?, ?, ?, ?)", on: db)
        defer { sqlite3_finalize(insert) }
        for i in 0..<data.count {
            sqlite3_bind_int64(insert, 1, data.ids[i])
            sqlite3_bind_int64(insert, 2, data.userIds[i])
            sqlite3_bind_double(insert, 3, data.createdAt[i])
            sqlite3_bind_int64(insert, 4, Int64(data.retweetCounts[i]))
            bindText(insert, 5, data.texts[i])
            bindText(insert, 6, data.langs[i])
            try step(insert, expecting: SQLITE_DONE)
            sqlite3_reset(insert)
        }
        try execute("COMMIT", on: db)
    }

    func singleInserts(_ tweets: ArraySlice<(id: Int64, userId: Int64, text: String)>) throws {
        try singleInserts(tweets, on: db)
    }

    /// One connection per writer thread, as SQLite requires.
    func singleInsertsOnOwnConnection(_ tweets: ArraySlice<(id: Int64, userId: Int64, text: String)>) throws {
        let connection = try connect()
        defer { sqlite3_close(connection) }
        try singleInserts(tweets, on: connection)
    }

    private func singleInserts(
        _ tweets: ArraySlice<(id: Int64, userId: Int64, text: String)>, on connection: OpaquePointer?
    )
        throws
    {
        let insert = try prepare("INSERT INTO tweets VALUES (?, ?, 0, 0, ?, 'en')", on: connection)
        defer { sqlite3_finalize(insert) }
        for tweet in tweets {
            sqlite3_bind_int64(insert, 1, tweet.id)
            sqlite3_bind_int64(insert, 2, tweet.userId)
            bindText(insert, 3, tweet.text)
            try step(insert, expecting: SQLITE_DONE)
            sqlite3_reset(insert)
        }
    }

    func pointReads(_ ids: [Int64]) throws -> UInt64 {
        let select = try prepare("SELECT text FROM tweets WHERE id = ?", on: db)
        defer { sqlite3_finalize(select) }
        try execute("BEGIN", on: db)
        defer { try? execute("COMMIT", on: db) }
        var checksum: UInt64 = 0
        for id in ids {
            sqlite3_bind_int64(select, 1, id)
            guard sqlite3_step(select) == SQLITE_ROW else {
                throw BenchmarkFailure.engine(name, "tweet \(id) is missing")
            }
            mix(&checksum, UInt64(sqlite3_column_bytes(select, 0)))
            sqlite3_reset(select)
        }
        return checksum
    }

    func indexedQueries(_ users: [Int64]) throws -> UInt64 {
        let select = try prepare("SELECT retweetCount FROM tweets WHERE userId = ?", on: db)
        defer { sqlite3_finalize(select) }
        try execute("BEGIN", on: db)
        defer { try? execute("COMMIT", on: db) }
        var checksum: UInt64 = 0
        for user in users {
            sqlite3_bind_int64(select, 1, user)
            while sqlite3_step(select) == SQLITE_ROW {
                mix(&checksum, UInt64(sqlite3_column_int64(select, 0)))
            }
            sqlite3_reset(select)
        }
        return checksum
    }

    func filteredScan() throws -> UInt64 {
        let select = try prepare("SELECT count(*) FROM tweets WHERE retweetCount > 50 AND lang = 'en'", on: db)
        defer { sqlite3_finalize(select) }
        guard sqlite3_step(select) == SQLITE_ROW else { throw BenchmarkFailure.engine(name, "count failed") }
        return UInt64(sqlite3_column_int64(select, 0))
    }

    func updates(_ ids: [Int64]) throws {
        try runForEach(ids, "UPDATE tweets SET retweetCount = retweetCount + 1 WHERE id = ?")
    }

    func deletes(_ ids: [Int64]) throws {
        try runForEach(ids, "DELETE FROM tweets WHERE id = ?")
    }

    /// Runs `sql` once per id, bound to its one parameter, in one transaction.
    private func runForEach(_ ids: [Int64], _ sql: String) throws {
        let statement = try prepare(sql, on: db)
        defer { sqlite3_finalize(statement) }
        try execute("BEGIN", on: db)
        for id in ids {
            sqlite3_bind_int64(statement, 1, id)
            try step(statement, expecting: SQLITE_DONE)
            sqlite3_reset(statement)
        }
        try execute("COMMIT", on: db)
    }

    func fileSize() -> Int {
        try? execute("PRAGMA wal_checkpoint(TRUNCATE)", on: db)
        return ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }

    func close() {
        sqlite3_close(db)
        db = nil
    }

    // MARK: Helpers

    private func execute(_ sql: String, on connection: OpaquePointer?) throws {
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(connection, sql, nil, nil, &message) == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? "?"
            sqlite3_free(message)
            throw BenchmarkFailure.engine(name, "\(sql.prefix(40)): \(text)")
        }
    }

    private func prepare(_ sql: String, on connection: OpaquePointer?) throws -> OpaquePointer? {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(connection, sql, -1, &statement, nil) == SQLITE_OK else {
            throw BenchmarkFailure.engine(name, "cannot prepare \(sql)")
        }
        return statement
    }

    private func step(_ statement: OpaquePointer?, expecting expected: Int32) throws {
        let code = sqlite3_step(statement)
        guard code == expected else { throw BenchmarkFailure.engine(name, "step returned \(code)") }
    }

    private func bindText(_ statement: OpaquePointer?, _ index: Int32, _ text: String) {
        // SQLITE_TRANSIENT: SQLite copies the bytes before the temporary goes away.
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        _ = text.withCString { sqlite3_bind_text(statement, index, $0, -1, transient) }
    }
}
