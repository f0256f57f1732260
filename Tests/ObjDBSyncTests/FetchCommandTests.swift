import Foundation
import LoopbackServer
import ObjDB
import TestSupport
import Testing

@testable import ObjDBSync

/// `objdb-sync twitter …` and `objdb-sync nyt search …` against a loopback server.
@Suite("objdb-sync fetch", .timeLimit(.minutes(5)))
struct FetchCommandTests {
    let directory = TemporaryDirectory()
    let environment = [
        "TWITTER_CONSUMER_KEY": testCredentials.consumerKey.revealed,
        "TWITTER_CONSUMER_SECRET": testCredentials.consumerSecret.revealed,
        "TWITTER_ACCESS_TOKEN": testCredentials.token.revealed,
        "TWITTER_ACCESS_TOKEN_SECRET": testCredentials.tokenSecret.revealed, "NYT_API_KEY": "cli-nyt-key",
        "OBJDB_SYNC_CREDENTIALS": "/nonexistent",
    ]

    private func server(twitterCount: Int = 450) throws -> FakeAPIServer {
        try FakeAPIServer(
            twitter: FakeTwitterAPI(count: twitterCount, compact: true, expecting: testCredentials),
            nyt: FakeNYTAPI(hits: 25, apiKey: "cli-nyt-key"))
    }

    @Test func twitterHomeNewerThenOlderFillsTheTimeline() throws {
        let api = try server()
        defer { api.stop() }
        let store = directory.store()
        let base = ["--store", store, "--base-url", api.twitterBaseURL.absoluteString]
        let newer = try run("objdb-sync", ["twitter", "home", "--pages", "1"] + base, environment: environment)
        #expect(newer.status == 0, "\(newer.error)")
        #expect(newer.output.contains("fetched 1 page into \(store)"))
        let tweetRow = newer.output.split(separator: "\n").first { $0.hasPrefix("Tweet ") }
        #expect(tweetRow?.split(separator: " ").map(String.init) == ["Tweet", "200", "0", "0"])
        let older = try run(
            "objdb-sync", ["twitter", "home", "--older", "--pages", "3"] + base, environment: environment)
        #expect(older.status == 0, "\(older.error)")
        #expect(older.output.contains("fetched 2 pages"))
        let database = try Database(configuration: .syncStore(path: store))
        let entries = try database.view().object(ofType: Timeline.self, forPrimaryKey: "home")?.entries.map(\.id)
        #expect(entries == api.twitter.ids)
    }

    @Test(arguments: ["twitter", "x"])
    func pagesOnAnEmptyTimelineLoadsThatManyPages(api name: String) throws {
        let api = try server(twitterCount: 1_000)
        defer { api.stop() }
        let store = directory.store()
        let base = name == "x" ? api.xBaseURL : api.twitterBaseURL
        let result = try run(
            "objdb-sync", [name, "home", "--pages", "3", "--store", store, "--base-url", base.absoluteString],
            environment: environment)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("fetched 3 pages"), "\(result.output)")
        let perPage = name == "x" ? 100 : 200
        let database = try Database(configuration: .syncStore(path: store))
        let entries = try database.view().object(ofType: Timeline.self, forPrimaryKey: "home")?.entries.map(\.id)
        #expect(entries == Array(api.twitter.ids.prefix(3 * perPage)))
    }

    @Test func aStoppedLoadReportsItsGapAndTheNextFillsIt() throws {
        let api = try server(twitterCount: 100)
        defer { api.stop() }
        let store = directory.store()
        let base = ["--store", store, "--base-url", api.twitterBaseURL.absoluteString]
        #expect(try run("objdb-sync", ["twitter", "home"] + base, environment: environment).status == 0)
        api.twitter.grow(by: 700)
        let stopped = try run("objdb-sync", ["twitter", "home", "--pages", "2"] + base, environment: environment)
        #expect(stopped.output.contains("1 gap left"), "\(stopped.output)")
        let filled = try run("objdb-sync", ["twitter", "home", "--newer"] + base, environment: environment)
        #expect(filled.status == 0 && !filled.output.contains("gap"), "\(filled.output)")
    }

    @Test func xHomeNewerThenOlderFillsTheSameTimelineAsTwitter() throws {
        let api = try server(twitterCount: 450)
        defer { api.stop() }
        let store = directory.store()
        let x = ["--store", store, "--base-url", api.xBaseURL.absoluteString]
        let newer = try run("objdb-sync", ["x", "home", "--pages", "2"] + x, environment: environment)
        #expect(newer.status == 0, "\(newer.error)")
        #expect(newer.output.contains("fetched 2 pages into \(store)"), "\(newer.output)")
        let tweetRow = newer.output.split(separator: "\n").first { $0.hasPrefix("Tweet ") }
        #expect(tweetRow?.split(separator: " ").map(String.init) == ["Tweet", "200", "0", "0"])
        let older = try run("objdb-sync", ["x", "home", "--older", "--pages", "5"] + x, environment: environment)
        #expect(older.status == 0 && older.output.contains("fetched 3 pages"), "\(older.output)\(older.error)")
        api.twitter.grow(by: 30)
        let twitter = try run(
            "objdb-sync", ["twitter", "home", "--store", store, "--base-url", api.twitterBaseURL.absoluteString],
            environment: environment)
        #expect(twitter.status == 0 && twitter.output.contains("fetched 1 page"), "\(twitter.output)")
        let database = try Database(configuration: .syncStore(path: store))
        let entries = try database.view().object(ofType: Timeline.self, forPrimaryKey: "home")?.entries.map(\.id)
        #expect(entries == api.twitter.ids)
        #expect(try database.view().objects(Tweet.self).count == api.twitter.ids.count)
    }

    @Test func xSearchTakesAnAppOnlyBearerTokenAndHomeSaysItNeedsAUser() throws {
        let api = try server()
        defer { api.stop() }
        let store = directory.store()
        let bearer = ["X_BEARER_TOKEN": FakeTwitterAPI.issuedBearerToken, "OBJDB_SYNC_CREDENTIALS": "/nonexistent"]
        let x = ["--store", store, "--base-url", api.xBaseURL.absoluteString]
        let search = try run("objdb-sync", ["x", "search", "#objdb", "--pages", "2"] + x, environment: bearer)
        #expect(search.status == 0, "\(search.error)")
        #expect(api.server.requests.last?.query["query"] == "#objdb")
        let database = try Database(configuration: .syncStore(path: store))
        #expect(try database.view().object(ofType: Timeline.self, forPrimaryKey: "search:#objdb")?.entries.count == 200)
        let home = try run("objdb-sync", ["x", "home"] + x, environment: bearer)
        #expect(home.status == 1 && home.error.contains("X_USER_ACCESS_TOKEN"), "\(home.error)")
        #expect(!(home.output + home.error + search.output + search.error).contains(FakeTwitterAPI.issuedBearerToken))
        let unknown = try run("objdb-sync", ["x", "user", "nobody_here"] + x, environment: bearer)
        #expect(unknown.status == 1 && unknown.error.contains("Could not find user with username"), "\(unknown.error)")
    }

    @Test func nytSearchImportsItsPages() throws {
        let api = try server()
        defer { api.stop() }
        let store = directory.store()
        let result = try run(
            "objdb-sync",
            [
                "nyt", "search", "bailout", "--store", store, "--pages", "5", "--delay", "0", "--from", "20081001",
                "--base-url", api.nytBaseURL.absoluteString,
            ], environment: environment)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("fetched 3 pages"))
        #expect(api.server.requests.first?.query["begin_date"] == "20081001")
        let articleRow = result.output.split(separator: "\n").first { $0.hasPrefix("Article ") }
        #expect(articleRow?.split(separator: " ").map(String.init) == ["Article", "25", "0", "0"])
    }

    @Test func anAPIErrorExitsOneWithoutSecrets() throws {
        let api = try server()
        defer { api.stop() }
        var wrong = environment
        wrong["TWITTER_ACCESS_TOKEN_SECRET"] = "wrong-secret-value"
        let result = try run(
            "objdb-sync",
            ["twitter", "user", "ada", "--store", directory.store(), "--base-url", api.twitterBaseURL.absoluteString],
            environment: wrong)
        #expect(result.status == 1)
        #expect(result.error.contains("Could not authenticate you"))
        #expect(!(result.output + result.error).contains("wrong-secret-value"))
        #expect(!(result.output + result.error).contains(testCredentials.consumerSecret.revealed))
    }

    @Test func missingCredentialsExitOneNamingTheVariables() throws {
        let result = try run(
            "objdb-sync", ["nyt", "search", "x", "--store", directory.store(), "--base-url", "http://127.0.0.1:9/"],
            environment: ["OBJDB_SYNC_CREDENTIALS": "/nonexistent", "NYT_API_KEY": ""])
        #expect(result.status == 1)
        #expect(result.error.contains("NYT_API_KEY"))
    }

    @Test(arguments: [
        ["twitter", "home", "--store", "s", "--newer", "--older"], ["twitter", "timeline", "--store", "s"],
        ["twitter", "user", "--store", "s"], ["nyt", "search", "q", "--store", "s", "--from", "2008-10-01"],
        ["twitter", "home"], ["twitter", "home", "--store", "s", "--pages", "0"],
        ["twitter", "home", "--store", "s", "--base-url", "ftp://x"],
        ["twitter", "home", "--store", "s", "--token", "secret"], ["x", "home", "--store", "s", "--token", "secret"],
        ["x", "search", "--store", "s"], ["x", "home", "--store", "s", "--pages", "-1"],
    ])
    func badCommandLinesExitTwo(arguments: [String]) throws {
        let result = try run("objdb-sync", arguments, environment: environment)
        #expect(result.status == 2, "\(arguments): \(result.error)")
    }
}
