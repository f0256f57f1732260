import Foundation
import ObjDBInspection
import TestSupport
import Testing

@testable import ObjDB

/// Hundreds of damaged copies of one store, each opened, checked and read in a child process:
/// every one must end in an answer (sound, damaged, or an error), never in a signal.
@Suite("Damaged files")
struct DamagedFileTests {
    let directory = TemporaryDirectory()

    /// How many damaged files a run tries: 300 in CI, more with `OBJDB_STRESS=N` (× N).
    static var fileCount: Int { 300 * stressScale }

    @Test func noDamagedFileCrashesTheCheckOrTheReads() throws {
        let base = directory.store("base.objdb")
        try makeObjectStore(at: base)
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: base)))
        var random = SeededGenerator(seed: 15)
        var paths: [String] = []
        var kinds: [String] = []
        for number in 0..<Self.fileCount {
            var bytes = original
            kinds.append(damage(&bytes, kind: number % 6, random: &random))
            let path = directory.store("damaged-\(number).objdb")
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        let outcomes = try checkInChildren(paths)
        let crashes = outcomes.enumerated().filter { $0.element.hasPrefix("crash") }
        for (index, outcome) in crashes.prefix(5) {
            Issue.record("damaged file \(index) (\(kinds[index])) crashed the child: \(outcome)")
        }
        #expect(crashes.isEmpty)
        #expect(outcomes.contains { $0.hasPrefix("damaged") })
        #expect(outcomes.contains { $0 == "ok" })
        let tally = Dictionary(grouping: outcomes) { String($0.prefix { $0 != " " }) }.mapValues(\.count)
        print(
            "damaged files: \(outcomes.count) tried, \(crashes.count) crashes, outcomes \(tally.sorted { $0.key < $1.key })"
        )
    }

    @Test func theUndamagedStoreChecksClean() throws {
        let base = directory.store("base.objdb")
        try makeObjectStore(at: base)
        #expect(try checkInChildren([base]) == ["ok"])
    }

    /// Damages `bytes` one way out of six, and says how.
    private func damage(_ bytes: inout [UInt8], kind: Int, random: inout SeededGenerator) -> String {
        let pageSize = 4096
        let pages = bytes.count / pageSize
        switch kind {
        case 0:
            let length = Int.random(in: 0..<bytes.count, using: &random)
            bytes.removeLast(bytes.count - length)
            return "truncated to \(length)"
        case 1:
            let offset = Int.random(in: 0..<bytes.count, using: &random)
            let bit = UInt8(1) << UInt8.random(in: 0...7, using: &random)
            bytes[offset] ^= bit
            return "bit flipped at \(offset)"
        case 2:
            // Page headers and node pointers, where LMDB trusts the most.
            let offset = Int.random(in: 0..<pages, using: &random) * pageSize + Int.random(in: 0..<48, using: &random)
            bytes[offset] = UInt8.random(in: 0...255, using: &random)
            return "header byte at \(offset)"
        case 3:
            let offset = Int.random(in: 0..<(bytes.count - 8), using: &random)
            for index in 0..<8 { bytes[offset + index] = UInt8.random(in: 0...255, using: &random) }
            return "8 bytes at \(offset)"
        case 4:
            let page = Int.random(in: 0..<pages, using: &random)
            for index in 0..<pageSize { bytes[page * pageSize + index] = 0 }
            return "page \(page) zeroed"
        default:
            let from = Int.random(in: 2..<pages, using: &random)
            let to = Int.random(in: 0..<pages, using: &random)
            bytes.replaceSubrange(
                (to * pageSize)..<((to + 1) * pageSize), with: bytes[(from * pageSize)..<((from + 1) * pageSize)])
            return "page \(from) copied over page \(to)"
        }
    }
}

/// A store of linked, indexed objects: every kind of page ObjDB's files have.
func makeObjectStore(at path: String) throws {
    let database = try Database(path: path, types: [Tweet.self, TwitterUser.self])
    try database.write { transaction in
        for number in 0..<300 {
            let user = try transaction.create(
                TwitterUser.self, value: ["id": number % 12, "screenName": "user\(number % 12)"], update: .modified)
            let tweet = Tweet()
            tweet.id = Int64(number)
            tweet.text = String(repeating: "tweet \(number) ", count: number % 40 == 0 ? 600 : 6)
            tweet.user = user
            tweet.retweetCount = number % 17
            try transaction.add(tweet)
            if number % 3 == 0 { tweet.retweetedBy.append(user) }
        }
    }
    try database.write { transaction in
        for tweet in transaction.objects(Tweet.self).filter({ $0.id % 5 == 0 }) { try transaction.delete(tweet) }
    }
}

/// Runs `objdb-test-child check-files` over `paths`, restarting after a file that kills it.
///
/// - Returns: each file's outcome: `ok`, `damaged N`, `error …`, or `crash (signal N)`.
func checkInChildren(_ paths: [String]) throws -> [String] {
    var outcomes: [String] = []
    while outcomes.count < paths.count {
        let batch = Array(paths[outcomes.count...])
        let run = try TestSupport.run("objdb-test-child", ["check-files"] + batch)
        var finished: [String] = []
        var started = false
        for line in run.output.split(separator: "\n") {
            if line.hasPrefix("file ") {
                started = true
            } else if started {
                finished.append(String(line))
                started = false
            }
        }
        outcomes += finished
        if run.status != 0 || finished.count < batch.count {
            guard started || finished.count < batch.count else { break }
            outcomes.append("crash (exit \(run.status)): \(run.error.suffix(300))")
        }
    }
    return outcomes
}

/// The multiplier `make stress` sets (`OBJDB_STRESS`), 1 otherwise.
var stressScale: Int {
    max(1, Int(ProcessInfo.processInfo.environment["OBJDB_STRESS"] ?? "") ?? 1)
}
