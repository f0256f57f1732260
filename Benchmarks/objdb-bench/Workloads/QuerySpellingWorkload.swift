import Foundation
import ObjDB

/// W11 on ObjDB alone: the query language's shorthands against the longhand they stand for, on
/// one store in one run (#17: a new operator takes no slower path than what it desugars into,
/// and a `SORT`/`LIMIT` in the string costs what the methods do).
///
/// Each pair runs interleaved (shorthand, longhand, shorthand, …), every sample parsing,
/// planning and running its query, and must find the same objects. The table shows each side's
/// plan (from `explain()`) and the ratio of the medians; the target is a ratio of at most 1.25
/// (the run's noise) with the same plan on both sides.
struct QuerySpellingWorkload: StandaloneWorkload {
    let name = "W11"
    let summary = [
        "ObjDB alone: each query shorthand (IN, BETWEEN, a constant on the left, …) ÷ the longhand it",
        "stands for, and SORT/LIMIT in the string ÷ the methods; same plan, target ratio ≤ 1.25×",
    ]
    static let maximumRatio = 1.25

    func run(_ context: WorkloadContext) throws -> WorkloadSection {
        let size = context.quick ? min(context.data.count, 5_000) : min(context.data.count, 200_000)
        let samples = context.quick ? 7 : 25
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let database = try Database(path: directory + "/w11.objdb", types: [BenchTweet.self])
        let tweets = context.data.tweets
        try database.write { transaction in
            for index in 0..<size {
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
        let users = Array(Set(tweets.userIds.prefix(size))).sorted().prefix(3).map { $0 }
        let all = try database.view().objects(BenchTweet.self)
        var measurements: [SpellingMeasurement] = []
        for pair in Self.pairs(users: users) {
            var measurement = SpellingMeasurement(pair: pair)
            let shorthand = try pair.shorthand.results(all)
            let longhand = try pair.longhand.results(all)
            measurement.shorthandPlan = try Self.plan(shorthand)
            measurement.longhandPlan = try Self.plan(longhand)
            measurement.matches = try pair.shorthand.matches(shorthand)
            guard try pair.shorthand.outcome(shorthand) == pair.longhand.outcome(longhand) else {
                throw SpellingFailure("\(pair.shorthand.text) and \(pair.longhand.text) found different tweets")
            }
            // A trailer and its methods must plan alike, to the sort and the limit.
            if pair.shorthand.readsIDs, try shorthand.explain() != longhand.explain() {
                throw SpellingFailure("\(pair.shorthand.text) and \(pair.longhand.text) plan differently")
            }
            for _ in 0..<context.repetitions {
                var short: [Double] = []
                var long: [Double] = []
                for _ in 0..<samples {
                    short.append(try time { _ = try pair.shorthand.outcome(try pair.shorthand.results(all)) })
                    long.append(try time { _ = try pair.longhand.outcome(try pair.longhand.results(all)) })
                }
                measurement.shorthand.append(median(short))
                measurement.longhand.append(median(long))
            }
            measurements.append(measurement)
        }
        return WorkloadSection(
            lines: Self.table(measurements, size: size), results: measurements.map(\.resultLine),
            jsonKey: "query_spellings", json: measurements.map(\.json),
            targets: measurements.map { measurement in
                TargetCheck(
                    workload: name, measure: "\(measurement.pair.shorthand.text) ÷ longhand",
                    measured: measurement.samePlan ? measurement.ratio : .infinity, bound: Self.maximumRatio,
                    higherIsBetter: false)
            })
    }

    /// The shorthands measured, each beside what it stands for.
    static func pairs(users: [Int64]) -> [SpellingPair] {
        let (a, b, c) = (users[0], users[count: 1] ?? users[0], users[count: 2] ?? users[0])
        return [
            SpellingPair(
                .filter("retweetCount IN {1, 2, 3}"),
                .filter("retweetCount == 1 OR retweetCount == 2 OR retweetCount == 3")),
            SpellingPair(
                .filter("userId IN {\(a), \(b), \(c)}"), .filter("userId == \(a) OR userId == \(b) OR userId == \(c)")),
            SpellingPair(.filter("5 < retweetCount"), .filter("retweetCount > 5")),
            SpellingPair(.filter("\(a) == userId"), .filter("userId == \(a)")),
            SpellingPair(.filter("retweetCount BETWEEN {2, 5}"), .filter("retweetCount >= 2 AND retweetCount <= 5")),
            SpellingPair(.filter("userId BETWEEN {\(a), \(a + 2)}"), .filter("userId >= \(a) AND userId <= \(a + 2)")),
            SpellingPair(.filter("userId == $0", a), .filter("userId == %@", a)),
            SpellingPair(.filter("NOT (userId != \(a))"), .filter("userId == \(a)")),
            SpellingPair(.filter("retweetCount == ANY {1, 2, 3}"), .filter("retweetCount IN {1, 2, 3}")),
            SpellingPair(.filter("ANY {1, 2, 3} == retweetCount"), .filter("retweetCount IN {1, 2, 3}")),
            SpellingPair(
                .filter("userId == ANY {\(a), \(b), \(c)}"), .filter("userId IN {\(a), \(b), \(c)}")),
            SpellingPair(.filter("{\(a), \(b)} == userId"), .filter("userId IN {\(a), \(b)}")),
            SpellingPair(.filter("userId == NONE {\(a), \(b)}"), .filter("NOT userId IN {\(a), \(b)}")),
            SpellingPair(
                .ordered("retweetCount > 5 SORT(createdAt DESC) LIMIT(20)"),
                .methods("retweetCount > 5", "… .sorted(byKeyPath: \"createdAt\", ascending: false).limit(20)") {
                    try $0.sorted(byKeyPath: "createdAt", ascending: false).limit(20)
                }),
            SpellingPair(
                .ordered("userId == \(a) SORT(retweetCount DESC, id ASC) LIMIT(5)"),
                .methods(
                    "userId == \(a)", "… .sorted(by: [retweetCount DESC, id ASC]).limit(5)"
                ) { try $0.sorted(by: [SortKey("retweetCount", ascending: false), SortKey("id")]).limit(5) }),
        ]
    }

    /// The access path `explain()` names, without the filter text (which differs by spelling).
    static func plan(_ results: Results<BenchTweet>) throws -> String {
        let text = try results.explain()
        let plan = text.split(separator: ":", maxSplits: 1).last.map(String.init) ?? text
        return plan.components(separatedBy: ", filter").first!.trimmingCharacters(in: .whitespaces)
    }

    static func table(_ measurements: [SpellingMeasurement], size: Int) -> [String] {
        let lines = [
            "W11 query spellings on \(size) tweets (objdb only): each sample parses, plans and runs the query;",
            "medians in µs, then shorthand ÷ longhand (lower is better; ≤ \(maximumRatio)× with the same plan meets it)",
            "",
        ]
        var rows = [["shorthand", "longhand", "matches", "shorthand µs", "longhand µs", "ratio", "plan"]]
        for measurement in measurements {
            rows.append([
                measurement.pair.shorthand.text, measurement.pair.longhand.text, String(measurement.matches),
                String(format: "%.1f", median(measurement.shorthand) * 1e6),
                String(format: "%.1f", median(measurement.longhand) * 1e6), String(format: "%.2f×", measurement.ratio),
                measurement.samePlan
                    ? measurement.shorthandPlan
                    : "DIFFERS: \(measurement.shorthandPlan) vs \(measurement.longhandPlan)",
            ])
        }
        return lines + aligned(rows, leftColumns: 2)
    }
}

/// One way of asking: what the table calls it, how it makes its `Results`, and what it reads
/// of them (a count, or the ids in order when the order is the point).
struct QuerySide {
    let text: String
    let results: (Results<BenchTweet>) throws -> Results<BenchTweet>
    let readsIDs: Bool

    static func filter(_ predicate: String, _ arguments: Any...) -> QuerySide {
        QuerySide(
            text: predicate,
            results: { all in
                switch arguments.count {
                case 0: return try all.filter(predicate)
                default: return try all.filter(predicate, arguments[0])
                }
            }, readsIDs: false)
    }

    /// A predicate ending in `SORT`/`DISTINCT`/`LIMIT`: the order of the ids is the point.
    static func ordered(_ predicate: String) -> QuerySide {
        QuerySide(text: predicate, results: { try $0.filter(predicate) }, readsIDs: true)
    }

    /// A predicate, then the methods that sort and cut it.
    static func methods(
        _ predicate: String, _ text: String, _ then: @escaping (Results<BenchTweet>) throws -> Results<BenchTweet>
    ) -> QuerySide {
        QuerySide(text: text, results: { try then(try $0.filter(predicate)) }, readsIDs: true)
    }

    func matches(_ results: Results<BenchTweet>) throws -> Int {
        readsIDs ? results.count : Int(try outcome(results)[0])
    }

    func outcome(_ results: Results<BenchTweet>) throws -> [Int64] {
        readsIDs ? results.map(\.id) : [Int64(results.count)]
    }
}

struct SpellingPair {
    let shorthand: QuerySide
    let longhand: QuerySide
    init(_ shorthand: QuerySide, _ longhand: QuerySide) {
        self.shorthand = shorthand
        self.longhand = longhand
    }
}

/// One pair's medians per repetition, in seconds.
struct SpellingMeasurement {
    let pair: SpellingPair
    var shorthand: [Double] = []
    var longhand: [Double] = []
    var shorthandPlan = ""
    var longhandPlan = ""
    var matches = 0

    var ratio: Double { median(shorthand) / median(longhand) }
    var samePlan: Bool { shorthandPlan == longhandPlan }

    var resultLine: String {
        "RESULT objdb W11 shorthand=\"\(pair.shorthand.text)\" ratio=\(String(format: "%.3f", ratio))"
            + " same_plan=\(samePlan)"
    }

    var json: [String: Any] {
        [
            "workload": "W11", "shorthand": pair.shorthand.text, "longhand": pair.longhand.text,
            "matches": matches, "shorthand_seconds": shorthand, "longhand_seconds": longhand, "ratio": ratio,
            "shorthand_plan": shorthandPlan, "longhand_plan": longhandPlan,
        ]
    }
}

struct SpellingFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension Array {
    fileprivate subscript(count index: Int) -> Element? { index < count ? self[index] : nil }
}
