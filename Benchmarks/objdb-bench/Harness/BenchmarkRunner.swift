import Foundation
import Synchronization

/// Runs every workload on every engine in one process. Each repetition opens a fresh store per
/// engine, then runs the workloads in order, each on every engine back to back: the engines take
/// turns starting (a rotation by repetition and workload), so drift in the machine's speed falls
/// on all alike. After every workload the engines' answers are compared, and after every write
/// each store's census with what the data says it must hold: a wrong answer fails the run.
struct BenchmarkRunner {
    let engines: [any TweetEngine]
    let count: Int
    let repetitions: Int
    let durableWrites: Int
    let singleWrites: Int
    let queries: Int
    let workloads: Set<String>
    /// Whether this is `--quick` (the standalone workloads run smaller).
    var quick = false

    /// W2c's writer threads.
    static let writers = 8

    func run() throws -> Report {
        // About what a repetition's stores, LMDB's dirty pages and the page cache take, at most 8 GiB.
        MemoryWarmup.warm(bytes: min(count * 4096, 8 << 30))
        let data = TweetData(count: count, queries: queries, seed: 42)
        var report = Report(count: count, repetitions: repetitions)
        for repetition in 0..<repetitions {
            var pass = Pass(runner: self, repetition: repetition, report: report)
            try pass.runFast(data)
            try pass.runDurable(data)
            report = pass.report
        }
        let context = WorkloadContext(data: data, repetitions: repetitions, quick: quick)
        for workload in standaloneWorkloads where workloads.contains(workload.name) {
            report.sections.append(try workload.run(context))
        }
        return report
    }
}

/// One repetition: every engine's stores, the workloads in order, and the checks after each.
private struct Pass {
    let runner: BenchmarkRunner
    let repetition: Int
    var report: Report
    /// Workloads run so far in this repetition: where the engines' rotation stands.
    private var step = 0

    init(runner: BenchmarkRunner, repetition: Int, report: Report) {
        self.runner = runner
        self.repetition = repetition
        self.report = report
    }

    var engines: [any TweetEngine] { runner.engines }

    /// `OBJDB_BENCH_SABOTAGE=engine:workload` hands that engine the workload's ids without the last
    /// one, so the tests can see a wrong answer fail the run.
    private static let sabotage = ProcessInfo.processInfo.environment["OBJDB_BENCH_SABOTAGE"]

    /// `ids` as `engine` gets them for `workload`.
    private static func input(_ ids: [Int64], _ engine: any TweetEngine, _ workload: String) -> [Int64] {
        sabotage == "\(engine.name):\(workload)" ? Array(ids.dropLast()) : ids
    }

    /// The engines in the order they run the next workload: each starts one workload in turn.
    private mutating func rotation() -> [any TweetEngine] {
        defer { step += 1 }
        return engines.indices.map { engines[($0 + repetition + step) % engines.count] }
    }

    /// Runs `workload` on every engine in rotation and records each time; the values `body`
    /// returns (checksums of what was read) must be equal across engines and repetitions.
    private mutating func measure(
        _ workload: String, operations: Int, on chosen: [any TweetEngine]? = nil,
        describe: (UInt64) -> String = { String(format: "checksum %016llx", $0) },
        _ body: (any TweetEngine) throws -> UInt64?
    ) throws {
        let order = chosen ?? rotation()
        var results: [String: UInt64] = [:]
        for engine in order {
            // The pages an engine's last commit left dirty (non-durable stores do not sync) are
            // written back now, not while the next engine is timed.
            sync()
            var result: UInt64?
            let seconds = try time { result = try body(engine) }
            report.add(engine: engine.name, workload: workload, operations: operations, seconds: seconds)
            if let result { results[engine.name] = result }
        }
        guard let first = results.values.first else { return }
        if Set(results.values).count > 1 {
            throw BenchmarkFailure.disagreement(workload: workload, detail: "\(results)")
        }
        try report.agree(workload, on: describe(first))
    }

    /// Compares every engine's census (or `chosen`'s) with `expected`, after `workload`.
    private mutating func checkCensus(
        after workload: String, _ expected: Census, on chosen: [any TweetEngine]? = nil
    ) throws {
        for engine in chosen ?? engines {
            let found = try engine.census()
            guard found == expected else {
                throw BenchmarkFailure.wrongCensus(
                    workload: workload, engine: engine.name, found: found, expected: expected)
            }
        }
        try report.agree(workload, on: expected.description)
    }

    /// Records each LMDB engine's B-trees after `workload`, in the first repetition.
    private mutating func recordLayout(after workload: String) throws {
        guard repetition == 0 else { return }
        for engine in engines {
            if let trees = try engine.layout() { report.layouts.append((workload, engine.name, trees)) }
        }
    }

    /// W1, then W3 on the fresh store, W4–W8, and W3 again, on stores whose commits do not sync.
    mutating func runFast(_ data: TweetData) throws {
        let workloads = runner.workloads
        let stores = try OpenStores(engines, durable: false)
        defer { stores.close() }
        var expected = ExpectedCensus(data.tweets)

        try measure("W1", operations: data.count) { engine in
            try engine.bulkInsert(data.tweets)
            return nil
        }
        for engine in engines { report.fileSizes[engine.name, default: []].append(engine.fileSize()) }
        try checkCensus(after: "W1", expected.census)
        try recordLayout(after: "W1")

        let singleWrites = runner.singleWrites
        let runsW3 = singleWrites > 0 && workloads.contains("W3")
        if runsW3 {
            let tweets = data.extra(singleWrites, offset: 0)
            try measure("W3-fresh", operations: singleWrites) { engine in
                try engine.singleInserts(tweets, 0..<singleWrites)
                return nil
            }
            expected.insert(tweets)
            try checkCensus(after: "W3-fresh", expected.census)
        }
        if workloads.contains("W4") {
            try measure("W4", operations: data.pointReads.count) {
                try $0.pointReads(Self.input(data.pointReads, $0, "W4"))
            }
        }
        if workloads.contains("W5") {
            try measure("W5", operations: data.userQueries.count) {
                try $0.indexedQueries(Self.input(data.userQueries, $0, "W5"))
            }
        }
        if workloads.contains("W6") {
            try measure("W6", operations: expected.census.rows, describe: { "\($0) matches" }) {
                try $0.filteredScan()
            }
        }
        if workloads.contains("W7") {
            try measure("W7", operations: data.updates.count) { engine in
                try engine.updates(Self.input(data.updates, engine, "W7"))
                return nil
            }
            expected.update(data.updates)
            try checkCensus(after: "W7", expected.census)
        }
        if workloads.contains("W8") {
            try measure("W8", operations: data.deletes.count) { engine in
                try engine.deletes(Self.input(data.deletes, engine, "W8"))
                return nil
            }
            expected.delete(data.deletes)
            try checkCensus(after: "W8", expected.census)
            try recordLayout(after: "W8")
        }
        if runsW3 {
            let tweets = data.extra(singleWrites, offset: singleWrites)
            try measure("W3", operations: singleWrites) { engine in
                try engine.singleInserts(tweets, 0..<singleWrites)
                return nil
            }
            expected.insert(tweets)
            try checkCensus(after: "W3", expected.census)
        }
    }

    /// W2 and W2c on stores whose commits sync to disk.
    mutating func runDurable(_ data: TweetData) throws {
        let workloads = runner.workloads
        guard workloads.contains("W2") || workloads.contains("W2c") else { return }
        let durableWrites = runner.durableWrites
        let stores = try OpenStores(engines, durable: true)
        defer { stores.close() }
        let tweets = data.extra(durableWrites * 3, offset: 1_000_000)
        var expected = Census(rows: 0, indexEntries: 0, retweetSum: 0)
        if workloads.contains("W2") {
            try measure("W2", operations: durableWrites) { engine in
                try engine.singleInserts(tweets, 0..<durableWrites)
                return nil
            }
            expected.rows += durableWrites
            expected.indexEntries += durableWrites
            try checkCensus(after: "W2", expected)
        }
        guard workloads.contains("W2c") else { return }
        let writers = BenchmarkRunner.writers
        let share = durableWrites / writers
        let ranges = { (first: Int) in (0..<writers).map { first + $0 * share..<first + ($0 + 1) * share } }
        let threadRanges = ranges(durableWrites)
        try measure("W2c", operations: share * writers) { engine in
            let failure = Mutex<String?>(nil)
            let box = EngineBox(engine)
            onThreads(writers) { writer in
                do {
                    try box.engine.concurrentInserts(tweets, threadRanges[writer])
                } catch {
                    failure.withLock { $0 = "\(error)" }
                }
            }
            if let message = failure.withLock({ $0 }) { throw BenchmarkFailure.engine(engine.name, message) }
            return nil
        }
        expected.rows += share * writers
        expected.indexEntries += share * writers
        try checkCensus(after: "W2c", expected)

        // ObjDB again with `try await db.write` from 8 tasks, so group commit applies.
        guard let objdb = engines.first(where: { $0 is ObjDBEngine }) as? ObjDBEngine else { return }
        try measure("W2c-async", operations: share * writers, on: [objdb]) { _ in
            try objdb.asyncConcurrentInserts(tweets, ranges(2 * durableWrites))
            return nil
        }
        expected.rows += share * writers
        expected.indexEntries += share * writers
        try checkCensus(after: "W2c-async", expected, on: [objdb])
    }
}

/// A fresh store per engine, each in a directory of its own, open until ``close()``.
private struct OpenStores {
    let engines: [any TweetEngine]
    let directories: [String]

    init(_ engines: [any TweetEngine], durable: Bool) throws {
        var directories: [String] = []
        var opened: [any TweetEngine] = []
        do {
            for engine in engines {
                let directory = try temporaryDirectory()
                directories.append(directory)
                try engine.open(directory: directory, durable: durable)
                opened.append(engine)
            }
        } catch {
            for engine in opened { engine.close() }
            for directory in directories { try? FileManager.default.removeItem(atPath: directory) }
            throw error
        }
        self.engines = engines
        self.directories = directories
    }

    func close() {
        for engine in engines { engine.close() }
        for directory in directories { try? FileManager.default.removeItem(atPath: directory) }
    }
}

/// What every store must hold after each workload, from the data alone: W3 adds its tweets, W7
/// adds one to the retweet count of each id it updates, W8 removes its tweets.
private struct ExpectedCensus {
    private(set) var census: Census
    /// Each bulk tweet's retweet count, by its ordinal ((id − 1) ÷ 7), as the workloads leave it.
    private var retweets: [Int]

    init(_ tweets: TweetColumns) {
        retweets = Array(repeating: 0, count: tweets.count)
        for (id, count) in zip(tweets.ids, tweets.retweetCounts) { retweets[Self.ordinal(id)] = count }
        census = Census(rows: tweets.count, indexEntries: tweets.count, retweetSum: retweets.reduce(0, +))
    }

    private static func ordinal(_ id: Int64) -> Int { Int((id - 1) / 7) }

    mutating func insert(_ tweets: TweetColumns) {
        census.rows += tweets.count
        census.indexEntries += tweets.count
        census.retweetSum += tweets.retweetCounts.reduce(0, +)
    }

    mutating func update(_ ids: [Int64]) {
        for id in ids { retweets[Self.ordinal(id)] += 1 }
        census.retweetSum += ids.count
    }

    mutating func delete(_ ids: [Int64]) {
        for id in ids { census.retweetSum -= retweets[Self.ordinal(id)] }
        census.rows -= ids.count
        census.indexEntries -= ids.count
    }
}

/// A fresh directory for one store, under the system's temporary directory.
func temporaryDirectory() throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("objdb-bench-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// Runs `body(0)` … `body(count - 1)` each on a thread of its own, all at once, and returns when
/// every one has ended. (`DispatchQueue.concurrentPerform` would run only as many at a time as
/// there are cores.)
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    let threads = (0..<count).map { index in
        group.enter()
        return Thread {
            body(index)
            group.leave()
        }
    }
    for thread in threads { thread.start() }
    group.wait()
}

/// Lets the concurrent-writers workload hand an engine to its threads: each engine
/// takes writes from several threads by design (LMDB's writer lock, SQLite's own connections).
final class EngineBox: @unchecked Sendable {
    let engine: any TweetEngine
    init(_ engine: any TweetEngine) { self.engine = engine }
}

/// Runs `operation` in a task and blocks the calling thread until it ends: the runner is
/// synchronous, and the async workloads start their tasks from it.
func waitFor<Value: Sendable>(_ operation: @escaping @Sendable () async throws -> Value) throws -> Value {
    let outcome = Outcome<Value>()
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        do {
            outcome.result = .success(try await operation())
        } catch {
            outcome.result = .failure(error)
        }
        done.signal()
    }
    done.wait()
    return try outcome.result!.get()
}

/// A task's result, handed to the thread that waits for it.
private final class Outcome<Value>: @unchecked Sendable {
    // @unchecked: written by the task before it signals, read by the waiter after.
    var result: Result<Value, any Error>?
}

/// The median of `values` (the mean of the middle two for an even count).
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// Times `body` with the monotonic clock, in seconds.
func time(_ body: () throws -> Void) rethrows -> Double {
    seconds(try ContinuousClock().measure(body))
}

/// `duration` in seconds.
func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}
