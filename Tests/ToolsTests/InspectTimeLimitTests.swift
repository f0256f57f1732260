import Foundation
import TestSupport
import Testing

/// `dump --time-limit MS` stops a query that runs too long with the query's typed error, as
/// `serve`'s time limit does (#30: queries take a deadline, and the inspector uses it).
@Suite("objdb-inspect dump --time-limit")
struct InspectTimeLimitTests {
    let directory = TemporaryDirectory()

    /// Nested subqueries over the demo's 200 tweets by 8 users: seconds of work without a limit.
    static let slowQuery =
        "SUBQUERY(user.tweets, $a, SUBQUERY($a.user.tweets, $b, SUBQUERY($b.user.tweets, $c,"
        + " $c.retweetCount == -1).@count > 0).@count > 0).@count > 0"

    func demoStore() throws -> String {
        let store = directory.path + "/demo.objdb"
        let demo = try run("objdb-demo", [store])
        #expect(demo.status == 0, "\(demo.error)")
        return store
    }

    @Test func aDumpPastItsTimeLimitStopsWithTheQuerysError() throws {
        let store = try demoStore()
        let started = ContinuousClock.now
        let result = try run(
            "objdb-inspect", [store, "dump", "Tweet", "--where", Self.slowQuery, "--time-limit", "100", "--no-color"])
        #expect(result.status == 1)
        #expect(result.error.contains("ran past its time limit"), "\(result.error)")
        #expect(ContinuousClock.now - started < .seconds(20))
    }

    @Test func aDumpWithinItsTimeLimitPrintsEveryMatch() throws {
        let store = try demoStore()
        let limited = try run(
            "objdb-inspect",
            [store, "dump", "Tweet", "--where", "retweetCount > 90", "--format", "ndjson", "--time-limit", "60000"])
        let unlimited = try run(
            "objdb-inspect", [store, "dump", "Tweet", "--where", "retweetCount > 90", "--format", "ndjson"])
        #expect(limited.status == 0, "\(limited.error)")
        #expect(limited.output == unlimited.output)
        #expect(!limited.output.isEmpty)
    }

    @Test func aTimeLimitThatIsNotAPositiveNumberIsAUsageError() throws {
        let store = try demoStore()
        for value in ["0", "-5", "soon"] {
            let result = try run("objdb-inspect", [store, "dump", "Tweet", "--time-limit", value, "--no-color"])
            #expect(result.status == 2, "\(value): \(result.error)")
            #expect(result.error.contains("--time-limit"), "\(value): \(result.error)")
        }
    }
}
