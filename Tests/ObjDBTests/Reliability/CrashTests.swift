import Foundation
import TestSupport
import Testing

@testable import ObjDB

/// Kills a writer with SIGKILL at random moments and verifies the store after each kill: every
/// commit that returned is there, nothing of the transaction in flight is, and the check passes.
@Suite("Crash safety")
struct CrashTests {
    let directory = TemporaryDirectory()

    /// Kills per durability mode: 30 in CI (60 in all), × `OBJDB_STRESS` under `make stress`.
    static var kills: Int { 30 * stressScale }

    @Test(arguments: [true, false])
    func everyReturnedCommitSurvivesAKillAndNothingElseDoes(durable: Bool) throws {
        var random = SeededGenerator(seed: durable ? 3 : 4)
        var verified = 0
        var transactions = 0
        var store = ""
        var seed: UInt64 = 0
        for kill in 0..<Self.kills {
            // A fresh store every ten kills keeps each writer's catch-up short.
            if kill % 10 == 0 {
                seed = random.next()
                store = directory.store("crash-\(durable)-\(kill).objdb")
                transactions += verified
            }
            let reported = try runAndKill(
                store: store, seed: seed, durable: durable, after: .random(in: 5...60, using: &random))
            let verify = try TestSupport.run(
                "objdb-test-child", ["crash-verify", store, "\(seed)", "\(reported)", durable ? "1" : "0"])
            #expect(verify.status == 0, "kill \(kill): \(verify.output)\(verify.error)")
            guard verify.status == 0 else { return }
            verified = Int(verify.output.split(separator: " ")[1]) ?? 0
        }
        transactions += verified
        print("crash suite (durable: \(durable)): \(Self.kills) kills survived, \(transactions) transactions verified")
        #expect(transactions > Self.kills)
    }

    @Test func theVerifierNoticesAStoreThatIsNotTheModel() throws {
        let store = directory.store("crash.objdb")
        let reported = try runAndKill(store: store, seed: 5, durable: false, after: 30)
        #expect(reported > 0)
        for (seed, claimed) in [(6, reported), (5, reported + 5)] {
            let verify = try TestSupport.run("objdb-test-child", ["crash-verify", store, "\(seed)", "\(claimed)", "0"])
            #expect(verify.status == 1)
            #expect(verify.output.hasPrefix("mismatch"))
        }
    }

    /// Starts a writer on `store`, kills it `milliseconds` after it is ready, and returns the last
    /// commit it reported.
    private func runAndKill(store: String, seed: UInt64, durable: Bool, after milliseconds: Int) throws -> Int {
        let process = Process()
        process.executableURL = builtProductsDirectory().appendingPathComponent("objdb-test-child")
        process.arguments = ["crash-writer", store, "\(seed)", durable ? "1" : "0"]
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
        #expect(process.terminationReason == .uncaughtSignal)
        // Only whole lines count: a line cut by the kill was not reported.
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        let last = lines.last { $0.hasPrefix("commit ") || $0.hasPrefix("ready ") }
        return last.flatMap { Int($0.split(separator: " ")[1]) } ?? 0
    }
}
