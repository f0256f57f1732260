import Foundation
import Synchronization

/// Runs every workload on every engine in one process: for each repetition, every
/// engine back to back in rotating order, so drift in the machine's speed falls on all alike.
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
        let data = TweetData(count: count, queries: queries, seed: 42)
        var report = Report(count: count, repetitions: repetitions)
        for repetition in 0..<repetitions {
            var checksums: [String: [String: UInt64]] = [:]
            for offset in engines.indices {
                let engine = engines[(offset + repetition) % engines.count]
                try runFast(engine, data, into: &report, checksums: &checksums)
                try runDurable(engine, data, into: &report)
            }
            for (workload, byEngine) in checksums where Set(byEngine.values).count > 1 {
                throw BenchmarkFailure.disagreement(workload: workload, detail: "\(byEngine)")
            }
        }
        let context = WorkloadContext(data: data, repetitions: repetitions, quick: quick)
        for workload in standaloneWorkloads where workloads.contains(workload.name) {
            report.sections.append(try workload.run(context))
        }
        return report
    }

    /// W1, W4–W8 and W3 on a store whose commits do not sync.
    private func runFast(
        _ engine: any TweetEngine, _ data: TweetData, into report: inout Report,
        checksums: inout [String: [String: UInt64]]
    ) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try engine.open(directory: directory, durable: false)
        defer { engine.close() }

        func measure(_ workload: String, operations: Int, _ body: () throws -> UInt64?) throws {
            guard workloads.contains(workload) || workload == "W1" else { return }
            var result: UInt64?
            let seconds = try time { result = try body() }
            report.add(engine: engine.name, workload: workload, operations: operations, seconds: seconds)
            if let result { checksums[workload, default: [:]][engine.name] = result }
        }

        try measure("W1", operations: data.count) {
            try engine.bulkInsert(data.tweets)
            return nil
        }
        report.fileSizes[engine.name, default: []].append(engine.fileSize())
        try measure("W4", operations: data.pointReads.count) { try engine.pointReads(data.pointReads) }
        try measure("W5", operations: data.userQueries.count) { try engine.indexedQueries(data.userQueries) }
        try measure("W6", operations: data.count) { try engine.filteredScan() }
        try measure("W7", operations: data.updates.count) {
            try engine.updates(data.updates)
            return nil
        }
        try measure("W8", operations: data.deletes.count) {
            try engine.deletes(data.deletes)
            return nil
        }
        guard singleWrites > 0, workloads.contains("W3") else { return }
        let tweets = data.extra(singleWrites, offset: 0)
        try measure("W3", operations: singleWrites) {
            try engine.singleInserts(tweets, 0..<singleWrites)
            return nil
        }
    }

    /// W2 and W2c on a store whose commits sync to disk.
    private func runDurable(_ engine: any TweetEngine, _ data: TweetData, into report: inout Report) throws {
        guard workloads.contains("W2") || workloads.contains("W2c") else { return }
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try engine.open(directory: directory, durable: true)
        defer { engine.close() }
        let tweets = data.extra(durableWrites * 3, offset: 1_000_000)
        if workloads.contains("W2") {
            let seconds = try time { try engine.singleInserts(tweets, 0..<durableWrites) }
            report.add(engine: engine.name, workload: "W2", operations: durableWrites, seconds: seconds)
        }
        guard workloads.contains("W2c") else { return }
        let share = durableWrites / Self.writers
        let ranges = { (first: Int) in
            (0..<Self.writers).map { writer in first + writer * share..<first + (writer + 1) * share }
        }
        let threadRanges = ranges(durableWrites)
        let failure = Mutex<String?>(nil)
        let box = EngineBox(engine)
        let seconds = time {
            onThreads(Self.writers) { writer in
                do {
                    try box.engine.concurrentInserts(tweets, threadRanges[writer])
                } catch {
                    failure.withLock { $0 = "\(error)" }
                }
            }
        }
        if let message = failure.withLock({ $0 }) { throw BenchmarkFailure.engine(engine.name, message) }
        report.add(engine: engine.name, workload: "W2c", operations: share * Self.writers, seconds: seconds)

        // ObjDB again with `try await db.write` from 8 tasks, so group commit applies.
        guard let objdb = engine as? ObjDBEngine else { return }
        let before = try objdb.storedCount()
        let asyncSeconds = try time { try objdb.asyncConcurrentInserts(tweets, ranges(2 * durableWrites)) }
        let stored = try objdb.storedCount() - before
        guard stored == share * Self.writers else {
            throw BenchmarkFailure.engine(engine.name, "\(share * Self.writers) async writes stored \(stored) tweets")
        }
        report.add(engine: engine.name, workload: "W2c-async", operations: share * Self.writers, seconds: asyncSeconds)
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
