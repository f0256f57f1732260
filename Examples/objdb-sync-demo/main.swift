import Dispatch
import Foundation
import LoopbackServer
import ObjDB
import ObjDBSync
import Synchronization

// `make demo`: a loopback server serves payloads the project generates (a home timeline that
// grows between loads, with retweets and quotes, in Twitter API v1.1's and X API v2's dialects,
// and NYT search pages); ObjDBSync fetches them into a fresh store while a live Results prints
// its change sets; then the server stops.

/// Made-up keys: the loopback server checks each request's OAuth 1.0a signature with them.
let demoKeys = OAuth1Credentials(
    consumerKey: Secret("demo-consumer-key"), consumerSecret: Secret("demo-consumer-secret"),
    token: Secret("demo-user-token"), tokenSecret: Secret("demo-token-secret"))

func section(_ title: String) { print("\n== \(title)") }

func describe(_ load: TimelineLoad) -> String {
    "\(load.pages) page\(load.pages == 1 ? "" : "s"), \(load.statusCount) statuses, gaps left: \(load.gapsLeft)"
        + (load.reachedEnd ? ", reached the oldest" : "")
}

func run(storePath: String) async throws {
    try? FileManager.default.removeItem(atPath: storePath)
    try? FileManager.default.removeItem(atPath: storePath + "-lock")
    let api = try FakeAPIServer(
        twitter: FakeTwitterAPI(seed: 2026, count: 400, expecting: demoKeys),
        nyt: FakeNYTAPI(seed: 7, hits: 45, apiKey: "demo-nyt-key"))
    defer {
        api.stop()
        print("\nThe loopback server stopped.")
    }
    print("Serving generated Twitter and NYT payloads on \(api.server.baseURL) (loopback only).")

    let database = try Database(configuration: .syncStore(path: storePath))
    let importer = TwitterImporter(database: database)
    let client = TwitterClient(credentials: .user(demoKeys), baseURL: api.twitterBaseURL)
    let home = TimelineLoader(.home, client: client, importer: importer, pageSize: 50)

    // A live Results of the newest tweets, on a queue of its own: it prints every change set.
    let queue = DispatchQueue(label: "objdb-sync-demo.observer")
    let delivered = Mutex(-1)  // the tweet count of the last change set printed
    let token = try queue.sync {
        try database.view(queue: queue).objects(Tweet.self).sorted(by: \.id, ascending: false).observe {
            change in
            switch change {
            case .initial(let tweets):
                print("   live Results: \(tweets.count) tweets to start with")
            case .update(let tweets, let deletions, let insertions, let modifications):
                let newest = tweets.first.map { "; newest \($0.id) by @\($0.user?.screenName ?? "?")" } ?? ""
                let at = insertions.isEmpty ? "" : " at \(insertions.min()!)...\(insertions.max()!)"
                print(
                    "   live Results: \(insertions.count) inserted\(at), \(modifications.count) modified, "
                        + "\(deletions.count) deleted -> \(tweets.count) tweets\(newest)")
            case .error(let error):
                print("   live Results stopped: \(error)")
            }
            if case .initial(let tweets) = change { delivered.withLock { $0 = tweets.count } }
            if case .update(let tweets, _, _, _) = change { delivered.withLock { $0 = tweets.count } }
        }
    }
    defer { token.invalidate() }
    /// Waits (at most 3 s) until the observer has printed the change set of the last commit.
    func settle() async throws {
        let deadline = ContinuousClock.now + .seconds(3)
        let stored = try database.view().objects(Tweet.self).count
        while delivered.withLock({ $0 }) != stored && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
    }
    try await settle()

    section("loadNewer(maxPages: 1): the first page of the home timeline")
    print("   \(describe(try await home.loadNewer(maxPages: 1)))")
    try await settle()

    section("loadOlder: two pages below the oldest entry (max_id = oldest - 1)")
    print("   \(describe(try await home.loadOlder(pages: 2)))")
    try await settle()

    api.twitter.grow(by: 180)
    section("180 new tweets posted; loadNewer with a limit of 2 pages")
    let stopped = try await home.loadNewer(maxPages: 2)
    try await settle()
    print("   \(describe(stopped))")
    let gaps = try database.view().object(ofType: Timeline.self, forPrimaryKey: "home").map { Array($0.gaps) } ?? []
    for gap in gaps {
        print("   gap recorded: ids above \(gap.sinceId) up to \(gap.maxId) not fetched yet")
    }

    section("loadNewer again: it catches up, then fills the gap")
    print("   \(describe(try await home.loadNewer()))")

    try await settle()
    let timeline = try database.view().object(ofType: Timeline.self, forPrimaryKey: "home")
    let entries = timeline?.entries.map(\.id) ?? []
    let served = api.twitter.ids.filter { id in entries.last.map { id >= $0 } ?? false }
    print(
        "   home: \(entries.count) entries, \(timeline?.gaps.count ?? 0) gaps; "
            + (entries == served ? "exactly the server's timeline from its newest to our oldest" : "MISMATCH"))
    guard entries == served else { throw DemoFailure("the cached timeline differs from the server's") }

    api.twitter.grow(by: 60)
    section("60 more posts; loadNewer over X API v2 (an OAuth 2.0 user token) continues the same timeline")
    let x = XClient(
        credentials: .user(accessToken: Secret(FakeTwitterAPI.issuedUserAccessToken)), baseURL: api.xBaseURL)
    let xHome = TimelineLoader(.home, client: x, importer: XImporter(database: database), pageSize: 25)
    let tweetsBefore = try database.view().objects(Tweet.self).count
    print("   \(describe(try await xHome.loadNewer()))  (since_id, then pagination_token)")
    try await settle()
    let xEntries = try database.view().object(ofType: Timeline.self, forPrimaryKey: "home")?.entries.map(\.id) ?? []
    let xServed = api.twitter.ids.filter { id in xEntries.last.map { id >= $0 } ?? false }
    print(
        "   home: \(xEntries.count) entries; "
            + (xEntries == xServed ? "still exactly the server's timeline, v1.1 and v2 pages alike" : "MISMATCH"))
    guard xEntries == xServed else { throw DemoFailure("the v2 load left the timeline unlike the server's") }
    let tweetsAfter = try database.view().objects(Tweet.self).count
    print("   \(tweetsAfter - tweetsBefore) new Tweet objects for 60 new posts and the posts they reference")

    section("X API v2 recent search with an app-only bearer token: 2 pages of 'objdb'")
    let app = XClient(credentials: .app(bearerToken: Secret(FakeTwitterAPI.issuedBearerToken)), baseURL: api.xBaseURL)
    let search = TimelineLoader(.search("objdb"), client: app, importer: XImporter(database: database), pageSize: 20)
    print("   \(describe(try await search.loadNewer(maxPages: 2)))  (into search:objdb)")
    try await settle()

    section("NYT Article Search: 'bailout', 10 docs a page (a 0.2 s delay here; NYT's limit needs 12 s)")
    let nyt = NYTClient(apiKey: Secret("demo-nyt-key"), baseURL: api.nytBaseURL, minimumDelay: .milliseconds(200))
    let articles = try await nyt.load(
        ArticleSearchQuery("bailout", sort: .newest), pages: 10, into: NYTImporter(database: database))
    print("   \(articles.pages) pages, \(articles.articleCount) of \(articles.hits ?? 0) articles")

    section("The newest tweets and their users")
    let view = try database.view()
    for tweet in view.objects(Tweet.self).sorted(by: \.id, ascending: false).prefix(5) {
        let user = tweet.user.map { "@\($0.screenName) (\($0.name), \($0.followersCount) followers)" } ?? "?"
        var kind = ""
        if let original = tweet.retweetedStatus { kind = "  [retweet of \(original.id)]" }
        if let quoted = tweet.quotedStatus { kind = "  [quotes \(quoted.id)]" }
        print("   \(tweet.id)  \(user)\(kind)\n      \(tweet.text.prefix(90))")
    }
    // The server answers 401 to a Twitter request whose OAuth signature or bearer token does not verify,
    // so every authenticated one that got here was verified; count what was sent rather than say it.
    let requests = api.server.requests
    let twitter = requests.filter { $0.path.hasPrefix("/1.1/") || $0.path.hasPrefix("/2/") }
    let authenticated = twitter.filter {
        let authorization = $0.headers["authorization"] ?? ""
        return authorization.hasPrefix("OAuth ") || authorization.hasPrefix("Bearer ")
    }
    print(
        "\n\(requests.count) requests served; \(authenticated.count) of the \(twitter.count) Twitter ones "
            + "OAuth-signed or bearer-authenticated, each verified by the server.")
}

struct DemoFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

let storePath = CommandLine.arguments.dropFirst().first ?? ".build/sync-demo.objdb"
do {
    try await run(storePath: storePath)
} catch {
    FileHandle.standardError.write(Data("objdb-sync-demo: \(error)\n".utf8))
    exit(1)
}
