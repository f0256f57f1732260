import CBaselines
import Foundation
import ObjDB
import ObjDBInspection

/// W12's tweets before and after their text is full-text indexed: one stored type, two declarations.
enum W12Plain {
    final class FTSTweet: Object {
        @Persisted(primaryKey: true) var id: Int64
        @Persisted var text = ""
        @Persisted var retweetCount = 0
        @Persisted var createdAt = 0.0
    }
}

enum W12Indexed {
    final class FTSTweet: Object {
        @Persisted(primaryKey: true) var id: Int64
        @Persisted(indexed: .fullText) var text = ""
        @Persisted var retweetCount = 0
        @Persisted var createdAt = 0.0
    }
}

/// The fields both declarations of W12's tweet have, so that one function writes either.
protocol W12Tweet: Object {
    init()
    var id: Int64 { get set }
    var text: String { get set }
    var retweetCount: Int { get set }
    var createdAt: Double { get set }
}

extension W12Tweet {
    /// A new tweet with these fields.
    static func make(id: Int64, text: String, retweetCount: Int, createdAt: Double) -> Self {
        let tweet = Self()
        tweet.id = id
        tweet.text = text
        tweet.retweetCount = retweetCount
        tweet.createdAt = createdAt
        return tweet
    }
}

extension W12Plain.FTSTweet: W12Tweet {}
extension W12Indexed.FTSTweet: W12Tweet {}

/// W12: ObjDB's full-text index against SQLite FTS5 in C on the same generated tweets
/// (``FullTextCorpus``): the index's build time and size, the median and p99 latency of eight
/// searches (each answer checked equal across engines; the ranked top 20 overlapping by 18 or
/// more), a single-tweet write with the index against the same write without it, and a
/// `CONTAINS[c]` scan against `LIKE '%x%'`.
struct FullTextWorkload: StandaloneWorkload {
    let name = "W12"
    let summary = [
        "full-text search on --count generated tweets: ObjDB's index vs SQLite FTS5 (C); build, size,",
        "median/p99 of 8 searches (answers checked equal), a write with vs without the index, CONTAINS[c] vs LIKE",
    ]

    func run(_ context: WorkloadContext) throws -> WorkloadSection {
        let count = context.data.count
        let corpus = FullTextCorpus(count: count, seed: 12)
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let plainPath = directory + "/plain.objdb"
        let indexedPath = directory + "/indexed.objdb"
        try load(corpus, into: plainPath)
        try FileManager.default.copyItem(atPath: plainPath, toPath: indexedPath)

        var error = bench_error()
        guard let fts = bench_fts_open(directory + "/fts.sqlite", &error) else {
            throw BenchmarkFailure.engine("fts5", error.text)
        }
        defer { bench_fts_close(fts) }
        let texts = TweetColumnsBytes(corpus.texts)
        try corpus.ids.withUnsafeBufferPointer { ids in
            try texts.withPointers { bytes, offsets in
                let retweets = corpus.retweetCounts.map(Int64.init)
                try callBaseline("fts5") {
                    bench_fts_load(fts, ids.baseAddress, bytes, offsets, retweets, corpus.createdAt, count, &$0)
                }
            }
        }

        var report = FullTextReport(count: count)
        // The builds: ObjDB's migration that adds the index, FTS5's 'rebuild'.
        report.objdbBuild = try time {
            var configuration = Configuration(path: indexedPath, types: [W12Indexed.FTSTweet.self])
            configuration.schemaVersion = 1
            configuration.isDurable = false
            _ = try Database(configuration: configuration)
        }
        report.ftsBuild = try time { try callBaseline("fts5") { bench_fts_build(fts, &$0) } }
        report.objdbSize = try Self.indexSize(indexedPath)
        report.ftsSize = Int(bench_fts_index_size(fts))

        try measureSearches(indexedPath: indexedPath, fts: fts, corpus: corpus, context: context, into: &report)
        // One tweet per write transaction, with the index and without it, interleaved.
        for durable in [false, true] {
            let (indexed, plain) = try Self.singleWrites(
                corpus, plainPath: plainPath, indexedPath: indexedPath, durable: durable,
                writes: context.quick ? 30 : 300)
            if durable {
                report.durableIndexed = indexed
                report.durablePlain = plain
            } else {
                report.fastIndexed = indexed
                report.fastPlain = plain
            }
        }
        return WorkloadSection(
            lines: report.table, results: report.resultLines, jsonKey: "full_text", json: report.json,
            targets: report.targets(workload: name))
    }

    /// The searches and the scan, each answer checked against FTS5's.
    private func measureSearches(
        indexedPath: String, fts: OpaquePointer, corpus: FullTextCorpus, context: WorkloadContext,
        into report: inout FullTextReport
    ) throws {
        var configuration = Configuration(path: indexedPath, types: [W12Indexed.FTSTweet.self])
        configuration.schemaVersion = 1
        configuration.isDurable = false
        let database = try Database(configuration: configuration)
        let all = try database.view().objects(W12Indexed.FTSTweet.self)
        let samples = context.quick ? 9 : 101
        var idBuffer = [Int64](repeating: 0, count: corpus.count)
        for query in FullTextQuery.all(corpus) {
            var measurement = QueryMeasurement(query: query)
            let mine = try query.objdb(all)
            let theirs = try Self.fts(fts, query, &idBuffer)
            measurement.matches = mine.count
            try query.check(mine, theirs)
            for _ in 0..<samples {
                measurement.objdb.append(try time { _ = try query.objdb(all) })
                measurement.fts.append(try time { _ = try Self.fts(fts, query, &idBuffer) })
            }
            report.queries.append(measurement)
        }

        // CONTAINS[c] (a scan of every record) against LIKE '%x%'.
        let needle = FullTextCorpus.commonWord
        let scanned = try all.filter("text CONTAINS[c] %@", needle).count
        var liked = 0
        try callBaseline("fts5") { bench_fts_query(fts, BENCH_FTS_LIKE, needle, nil, 0, &liked, &$0) }
        guard scanned == liked else {
            throw BenchmarkFailure.disagreement(workload: name, detail: "CONTAINS[c] found \(scanned), LIKE \(liked)")
        }
        for _ in 0..<(context.quick ? 3 : 7) {
            report.contains.append(try time { _ = try all.filter("text CONTAINS[c] %@", needle).count })
            report.like.append(
                try time {
                    try callBaseline("fts5") { bench_fts_query(fts, BENCH_FTS_LIKE, needle, nil, 0, &liked, &$0) }
                })
        }
        report.containsMatches = scanned
    }

    /// Every tweet in one write transaction, without the index.
    private func load(_ corpus: FullTextCorpus, into path: String) throws {
        var configuration = Configuration(path: path, types: [W12Plain.FTSTweet.self])
        configuration.isDurable = false
        let database = try Database(configuration: configuration)
        try database.write { transaction in
            for index in 0..<corpus.count {
                try transaction.add(
                    W12Plain.FTSTweet.make(
                        id: corpus.ids[index], text: corpus.texts[index],
                        retweetCount: corpus.retweetCounts[index], createdAt: corpus.createdAt[index]))
            }
        }
    }

    /// The bytes of the store's full-text index database (its B-tree's pages).
    static func indexSize(_ path: String) throws -> Int {
        let info = try StoreInfo.read(path: path)
        return info.databases.filter { $0.name.hasPrefix("fts.") }.reduce(0) { total, entry in
            let statistics = entry.statistics
            return total + (statistics.branchPages + statistics.leafPages + statistics.overflowPages)
                * statistics.pageSize
        }
    }

    /// Runs one query on FTS5; the ids it found, in its order.
    static func fts(_ store: OpaquePointer, _ query: FullTextQuery, _ buffer: inout [Int64]) throws -> [Int64] {
        var found = 0
        let capacity = buffer.count
        try buffer.withUnsafeMutableBufferPointer { ids in
            try callBaseline("fts5") {
                bench_fts_query(store, query.kind, query.match, ids.baseAddress, capacity, &found, &$0)
            }
        }
        return Array(buffer.prefix(Swift.min(found, capacity)))
    }

    /// `writes` single-tweet transactions on each store, alternating: the seconds of each, indexed then plain.
    static func singleWrites(
        _ corpus: FullTextCorpus, plainPath: String, indexedPath: String, durable: Bool, writes: Int
    ) throws -> (indexed: [Double], plain: [Double]) {
        var indexedConfiguration = Configuration(path: indexedPath, types: [W12Indexed.FTSTweet.self])
        indexedConfiguration.schemaVersion = 1
        indexedConfiguration.isDurable = durable
        var plainConfiguration = Configuration(path: plainPath, types: [W12Plain.FTSTweet.self])
        plainConfiguration.isDurable = durable
        let indexed = try Database(configuration: indexedConfiguration)
        let plain = try Database(configuration: plainConfiguration)
        var indexedTimes: [Double] = []
        var plainTimes: [Double] = []
        let base = (corpus.ids.last ?? 0) + 1_000_000 + (durable ? 1_000_000 : 0)
        func add<Tweet: W12Tweet>(_ type: Tweet.Type, to database: Database, _ id: Int64, _ text: String, retweets: Int)
            throws
        {
            try database.write { transaction in
                try transaction.add(Tweet.make(id: id, text: text, retweetCount: retweets, createdAt: Double(id)))
            }
        }
        func addIndexed(_ id: Int64, _ text: String, retweets: Int) throws {
            try add(W12Indexed.FTSTweet.self, to: indexed, id, text, retweets: retweets)
        }
        func addPlain(_ id: Int64, _ text: String, retweets: Int) throws {
            try add(W12Plain.FTSTweet.self, to: plain, id, text, retweets: retweets)
        }
        // One untimed write each first: the first durable commit also syncs every page the
        // build and the writes before it left unsynced (a 0.5 s outlier in one run's mean).
        try addIndexed(base - 1, corpus.texts[0], retweets: 0)
        try addPlain(base - 1, corpus.texts[0], retweets: 0)
        for write in 0..<writes {
            let text = corpus.texts[(write * 7919) % corpus.count]
            let id = base + Int64(write)
            indexedTimes.append(try time { try addIndexed(id, text, retweets: write % 100) })
            plainTimes.append(try time { try addPlain(id, text, retweets: write % 100) })
        }
        return (indexedTimes, plainTimes)
    }
}

/// One of W12's searches, as each engine spells it.
struct FullTextQuery {
    enum Shape {
        /// `text TEXT '…'`: the matching ids, in id order.
        case match
        /// The top 20 by BM25.
        case top20
        /// `text TEXT '…' AND retweetCount > 50 SORT(createdAt DESC)`.
        case filtered
    }

    let title: String
    /// The `TEXT` search text.
    let search: String
    /// FTS5's MATCH expression for the same search.
    let match: String
    let shape: Shape

    var kind: bench_fts_query_kind {
        switch shape {
        case .match: return BENCH_FTS_MATCH
        case .top20: return BENCH_FTS_TOP20
        case .filtered: return BENCH_FTS_FILTERED
        }
    }

    static func all(_ corpus: FullTextCorpus) -> [FullTextQuery] {
        let rare = corpus.rareWord
        return [
            FullTextQuery(title: "rare word", search: rare, match: "\"\(rare)\"", shape: .match),
            FullTextQuery(title: "common word", search: "swift", match: "\"swift\"", shape: .match),
            FullTextQuery(title: "two words", search: "music app", match: "\"music\" \"app\"", shape: .match),
            FullTextQuery(title: "prefix", search: "kalo*", match: "kalo*", shape: .match),
            FullTextQuery(
                title: "phrase", search: "\"machine learning\"", match: "\"machine learning\"", shape: .match),
            FullTextQuery(title: "exclusion", search: "love -music", match: "\"love\" NOT \"music\"", shape: .match),
            FullTextQuery(title: "top 20 by rank", search: "code app", match: "\"code\" \"app\"", shape: .top20),
            FullTextQuery(
                title: "text + filter + sort", search: "love", match: "\"love\"", shape: .filtered),
        ]
    }

    /// ObjDB's answer: the ids, in the results' order.
    func objdb(_ all: Results<W12Indexed.FTSTweet>) throws -> [Int64] {
        switch shape {
        case .match: return try all.filter("text TEXT %@", search).integerPrimaryKeys()
        case .top20: return try all.search(search, in: "text", limit: 20).integerPrimaryKeys()
        case .filtered:
            return try all.filter("text TEXT %@ AND retweetCount > 50 SORT(createdAt DESC)", search)
                .integerPrimaryKeys()
        }
    }

    /// Throws unless the engines agree: the same ids in the same order, or 18 of the top 20.
    func check(_ mine: [Int64], _ theirs: [Int64]) throws {
        if shape == .top20 {
            let overlap = Set(mine).intersection(theirs).count
            guard overlap >= Swift.min(18, Swift.min(mine.count, theirs.count)), mine.count == theirs.count else {
                throw BenchmarkFailure.disagreement(
                    workload: "W12",
                    detail: "\(title): top 20 overlap \(overlap) (\(mine.prefix(5))… vs \(theirs.prefix(5))…)")
            }
            return
        }
        guard mine == theirs else {
            let extra = Set(mine).subtracting(theirs).prefix(3)
            let missing = Set(theirs).subtracting(mine).prefix(3)
            throw BenchmarkFailure.disagreement(
                workload: "W12",
                detail:
                    "\(title) '\(search)': objdb \(mine.count), fts5 \(theirs.count); only objdb \(Array(extra)), only fts5 \(Array(missing))"
            )
        }
    }
}

/// Texts as one UTF-8 buffer and offsets, for the C baseline.
struct TweetColumnsBytes {
    let bytes: [UInt8]
    let offsets: [Int]

    init(_ texts: [String]) {
        var bytes: [UInt8] = []
        var offsets = [0]
        for text in texts {
            bytes += text.utf8
            offsets.append(bytes.count)
        }
        self.bytes = bytes
        self.offsets = offsets
    }

    func withPointers<Result>(_ body: (UnsafePointer<UInt8>, UnsafePointer<Int>) throws -> Result) rethrows -> Result {
        try bytes.withUnsafeBufferPointer { bytes in
            try offsets.withUnsafeBufferPointer { try body(bytes.baseAddress!, $0.baseAddress!) }
        }
    }
}
