import Foundation
import TestSupport
import Testing

@testable import ObjDB

/// Kills a writer of full-text indexed objects with SIGKILL mid-write: the index and the records
/// stay consistent (the check, which compares every posting with the records, is clean).
@Suite("Full-text indexes: crash safety")
struct FullTextCrashTests {
    let directory = TemporaryDirectory()

    @Test(arguments: [true, false])
    func aKilledIndexedWriterLeavesIndexAndRecordsConsistent(durable: Bool) throws {
        let store = directory.store("fts-crash-\(durable).objdb")
        var random = SeededGenerator(seed: durable ? 21 : 22)
        var commits = 0
        for kill in 0..<(4 * stressScale) {
            commits += try runAndKill(
                store: store, seed: UInt64(kill + 1), durable: durable, after: .random(in: 10...80, using: &random))
            let db = try Database(path: store, types: [Snippet.self])
            #expect(try StoreCheck(database: db).problems() == [], "kill \(kill)")
        }
        #expect(commits > 0)
    }

    /// Starts the writer, kills it `milliseconds` after it is ready; returns the commits it reported.
    private func runAndKill(store: String, seed: UInt64, durable: Bool, after milliseconds: Int) throws -> Int {
        let process = Process()
        process.executableURL = builtProductsDirectory().appendingPathComponent("objdb-test-child")
        process.arguments = ["fts-writer", store, "\(seed)", durable ? "1" : "0"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var text = ""
        while !text.contains("\n"), process.isRunning || output.fileHandleForReading.availableData.count > 0 {
            text += String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        }
        guard text.hasPrefix("ready") else { throw TestFailure("the writer did not start: \(text)") }
        usleep(useconds_t(milliseconds * 1000))
        kill(process.processIdentifier, SIGKILL)
        text += String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text.split(separator: "\n").filter { $0.hasPrefix("commit ") || $0.hasPrefix("ready ") }.count
    }
}
