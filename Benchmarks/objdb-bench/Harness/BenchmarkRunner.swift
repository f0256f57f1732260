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
            try engine.bulkInsert(data)
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
        guard singleWrites > 0 else { return }
        try measure("W3", operations: singleWrites) {
            try engine.singleInserts(data.extra(singleWrites, offset: 0)[...])
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
        let tweets = data.extra(durableWrites * 2, offset: 1_000_000)
        if workloads.contains("W2") {
            let seconds = try time { try engine.singleInserts(tweets[0..<durableWrites]) }
            report.add(engine: engine.name, workload: "W2", operations: durableWrites, seconds: seconds)
        }
        if workloads.contains("W2c") {
            let writers = 8
            let share = durableWrites / writers
            let failure = Mutex<String?>(nil)
            let box = EngineBox(engine)
            let first = durableWrites
            let seconds = time {
                DispatchQueue.concurrentPerform(iterations: writers) { writer in
                    let start = first + writer * share
                    let slice = tweets[start..<start + share]
                    do {
                        if let sqlite = box.engine as? SQLiteEngine {
                            try sqlite.singleInsertsOnOwnConnection(slice)
                        } else {
                            try box.engine.singleInserts(slice)
                        }
                    } catch {
                        failure.withLock { $0 = "\(error)" }
                    }
                }
            }
            if let message = failure.withLock({ $0 }) { throw BenchmarkFailure.engine(engine.name, message) }
            report.add(engine: engine.name, workload: "W2c", operations: share * writers, seconds: seconds)
        }
    }

    private func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("objdb-bench-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}

/// Lets the concurrent-writers workload hand an engine to its threads: each engine
/// takes writes from several threads by design (LMDB's writer lock, SQLite's own connections).
final class EngineBox: @unchecked Sendable {
    let engine: any TweetEngine
    init(_ engine: any TweetEngine) { self.engine = engine }
}

/// Times `body` with the monotonic clock, in seconds.
func time(_ body: () throws -> Void) rethrows -> Double {
    let elapsed = try ContinuousClock().measure(body)
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}
