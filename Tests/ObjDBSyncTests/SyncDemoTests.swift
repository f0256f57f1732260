import Foundation
import ObjDB
import ObjDBSync
import TestSupport
import Testing

/// `make demo`'s program, run as CI runs it: it must finish by itself, exit 0, and leave each step's
/// objects in the store it was given, replacing whatever was at that path.
@Suite("objdb-sync-demo", .timeLimit(.minutes(5)))
struct SyncDemoTests {
    @Test func theDemoFetchesEveryStepIntoAFreshStoreAndExitsZero() throws {
        let directory = TemporaryDirectory()
        let store = directory.store("sync-demo.objdb")
        // Not a store: a demo that reused the file instead of starting afresh would fail to open it.
        try Data("left over from an earlier run".utf8).write(to: URL(fileURLWithPath: store))
        let result = try run("objdb-sync-demo", [store])
        #expect(result.status == 0, "\(result.error)")
        // Lines the demo prints only when the step's outcome holds (it prints MISMATCH or fails otherwise).
        for line in [
            "gaps left: 1", "gap recorded: ids above", "exactly the server's timeline from its newest to our oldest",
            "5 pages, 45 of 45 articles", "live Results: 0 tweets to start with",
            "still exactly the server's timeline, v1.1 and v2 pages alike",
        ] {
            #expect(result.output.contains(line), "missing: \(line)")
        }
        // Every Twitter request the demo made was authenticated (and so verified: the server refuses the rest).
        let signing = try #require(
            result.output.firstMatch(of: /(\d+) of the (\d+) Twitter ones OAuth-signed or bearer-authenticated/))
        #expect(signing.1 == signing.2 && Int(signing.2) ?? 0 > 0, "\(signing.0)")
        #expect(result.output.components(separatedBy: "live Results: ").count > 6)

        // What each step fetched is in the store: the home timeline the demo reported, with its gap
        // filled; the v2 search; the NYT search's 45 articles.
        let database = try Database(configuration: .syncStore(path: store))
        let view = try database.view()
        let home = try #require(view.object(ofType: Timeline.self, forPrimaryKey: "home"))
        let reported = try #require(result.output.firstMatch(of: /home: (\d+) entries; still exactly/))
        #expect(home.entries.count == Int(reported.1), "\(reported.0)")
        #expect(home.gaps.isEmpty)
        let search = try #require(view.object(ofType: Timeline.self, forPrimaryKey: "search:objdb"))
        #expect(!search.entries.isEmpty)
        let identifier = ArticleSearchQuery("bailout", sort: .newest).identifier
        let articles = try #require(view.object(ofType: ArticleSearch.self, forPrimaryKey: identifier))
        #expect(articles.articles.count == 45)
    }
}
