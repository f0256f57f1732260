import Foundation
import TestSupport
import Testing

/// `make demo`'s program, run as CI runs it: it must finish by itself, exit 0, and show each step.
@Suite("objdb-sync-demo", .timeLimit(.minutes(1)))
struct SyncDemoTests {
    @Test func theDemoFetchesEveryStepIntoAFreshStoreAndExitsZero() throws {
        let directory = TemporaryDirectory()
        let store = directory.store("sync-demo.objdb")
        let result = try run("objdb-sync-demo", [store])
        #expect(result.status == 0, "\(result.error)")
        for line in [
            "gaps left: 1", "gap recorded: ids above", "exactly the server's timeline", "5 pages, 45 of 45 articles",
            "live Results: 0 tweets to start with", "still exactly the server's timeline, v1.1 and v2 pages alike", "(into search:objdb)",
            "The loopback server stopped.",
        ] {
            #expect(result.output.contains(line), "missing: \(line)")
        }
        // Every Twitter request the demo made was authenticated (and so verified: the server refuses the rest).
        let signing = try #require(
            result.output.firstMatch(of: /(\d+) of the (\d+) Twitter ones OAuth-signed or bearer-authenticated/))
        #expect(signing.1 == signing.2 && Int(signing.2) ?? 0 > 0, "\(signing.0)")
        #expect(result.output.components(separatedBy: "live Results: ").count > 6)
        #expect(FileManager.default.fileExists(atPath: store))
    }
}
