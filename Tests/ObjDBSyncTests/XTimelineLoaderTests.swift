import Foundation
import LoopbackServer
import ObjDB
import TestSupport
import Testing

@testable import ObjDBSync

/// The timeline loader over X API v2 against the loopback server: since_id and until_id for the
/// range, pagination tokens within a load, gaps recorded and filled as for v1.1.
@Suite("X API v2 paging", .timeLimit(.minutes(5)))
struct XTimelineLoaderTests {
    @Test func aFirstLoadAsksWithoutBoundsThenFollowsTheNextTokens() async throws {
        let fixture = try LoaderFixture(count: 500, pageSize: 50, over: .x)
        let load = try await fixture.loader.loadNewer(maxPages: 3)
        #expect(load.pages == 3 && load.statusCount == 150 && load.gapsLeft == 0)
        #expect(try fixture.entries() == Array(fixture.api.ids.prefix(150)))
        let requests = fixture.pageRequests
        #expect(requests.count == 3)
        #expect(
            requests.allSatisfy {
                $0.path == "/2/users/\(FakeTwitterAPI.authenticatedUser.id)/timelines/reverse_chronological"
            })
        #expect(requests.allSatisfy { $0.query["since_id"] == nil && $0.query["until_id"] == nil })
        #expect(requests[0].query["pagination_token"] == nil)
        #expect(requests.dropFirst().allSatisfy { $0.query["pagination_token"] != nil })
        #expect(requests.allSatisfy { $0.query["max_results"] == "50" })
    }

    @Test func everyRequestAsksForTheFieldsAndExpansionsExplicitly() async throws {
        let fixture = try LoaderFixture(count: 50, pageSize: 20, over: .x)
        try await fixture.loader.loadNewer(maxPages: 1)
        let query = try #require(fixture.pageRequests.first).query
        #expect(query["tweet.fields"] == XClient.tweetFields.joined(separator: ","))
        #expect(query["expansions"] == XClient.expansions.joined(separator: ","))
        #expect(query["user.fields"] == XClient.userFields.joined(separator: ","))
        #expect(query["media.fields"] == XClient.mediaFields.joined(separator: ","))
        for field in ["note_tweet", "edit_history_tweet_ids", "referenced_tweets", "attachments", "author_id"] {
            #expect(query["tweet.fields"]?.split(separator: ",").contains(Substring(field)) == true, "\(field)")
        }
    }

    @Test func loadNewerAsksSinceTheNewestAndPagesUntilNoNextToken() async throws {
        let fixture = try LoaderFixture(count: 1_000, pageSize: 50, over: .x)
        try await fixture.loader.loadNewer(maxPages: 1)
        let newest = try #require(try fixture.entries().first)
        fixture.api.grow(by: 120)
        let load = try await fixture.loader.loadNewer()
        #expect(load.pages == 3 && load.statusCount == 120 && load.gapsLeft == 0)
        let requests = fixture.pageRequests.dropFirst()
        #expect(requests.allSatisfy { $0.query["since_id"] == String(newest) })
        #expect(requests.map { $0.query["pagination_token"] == nil } == [true, false, false])
        #expect(try fixture.entries() == Array(fixture.api.ids.prefix(170)))
    }

    @Test func aLoadStoppedByThePageLimitRecordsTheGapAndALaterLoadFillsItWithUntilID() async throws {
        let fixture = try LoaderFixture(count: 2_000, pageSize: 100, over: .x)
        try await fixture.loader.loadNewer(maxPages: 1)
        let cachedNewest = try fixture.entries()[0]
        fixture.api.grow(by: 1_000)
        let stopped = try await fixture.loader.loadNewer(maxPages: 3)
        #expect(stopped.pages == 3 && stopped.gapsLeft == 1)
        let ids = fixture.api.ids
        let gaps = try fixture.gaps()
        #expect(gaps.count == 1 && gaps[0].0 == cachedNewest && gaps[0].1 == ids[299] - 1)
        #expect(try fixture.entries() == fixture.expectedEntries())
        let filled = try await fixture.loader.loadNewer(maxPages: 20)
        #expect(filled.gapsLeft == 0)
        #expect(try fixture.entries() == Array(ids.prefix(1_100)))
        // First what is newer than the newest (nothing), then the gap: since_id its floor, until_id above its top.
        let requests = fixture.pageRequests
        #expect(requests[4].query["since_id"] == String(ids[0]) && requests[4].query["until_id"] == nil)
        #expect(
            requests[5].query["since_id"] == String(cachedNewest) && requests[5].query["until_id"] == String(ids[299]))
        #expect(requests[5].query["pagination_token"] == nil)
        #expect(requests[6].query["until_id"] == String(ids[299]) && requests[6].query["pagination_token"] != nil)
    }

    @Test func aFailedPageMidwayLeavesTheGapRecordedAndChangesNothingItself() async throws {
        let fixture = try LoaderFixture(count: 1_000, pageSize: 100, over: .x)
        try await fixture.loader.loadNewer(maxPages: 1)
        fixture.api.grow(by: 500)
        fixture.api.failEvery(3)  // the third request from now fails, with a problem document
        let error = await #expect(throws: SyncError.self) { try await fixture.loader.loadNewer() }
        #expect(error?.code == .apiError && error?.httpStatus == 503)
        #expect(try fixture.gaps().count == 1)
        #expect(try fixture.entries() == fixture.expectedEntries())
        // A failing page alone commits nothing.
        let version = try fixture.store.version()
        fixture.api.failEvery(1)
        await #expect(throws: SyncError.self) { try await fixture.loader.loadNewer() }
        #expect(try fixture.store.version() == version)
        fixture.api.failEvery(nil)
        let load = try await fixture.loader.loadNewer()
        #expect(load.gapsLeft == 0)
        #expect(try fixture.entries() == Array(fixture.api.ids.prefix(600)))
    }

    @Test func loadOlderAsksUntilTheOldestThenByTokenAndStopsAtTheEnd() async throws {
        let fixture = try LoaderFixture(count: 260, pageSize: 100, over: .x)
        try await fixture.loader.loadNewer(maxPages: 1)
        let oldest = try fixture.entries().last!
        let load = try await fixture.loader.loadOlder(pages: 5)
        let requests = Array(fixture.pageRequests.dropFirst())
        #expect(requests[0].query["until_id"] == String(oldest) && requests[0].query["pagination_token"] == nil)
        #expect(requests[1].query["until_id"] == String(oldest) && requests[1].query["pagination_token"] != nil)
        #expect(load.pages == 2 && load.reachedEnd)
        #expect(try fixture.entries() == fixture.api.ids)
    }

    @Test func http429IsRateLimitedWithTheResetTimeAndStoresNothing() async throws {
        let fixture = try LoaderFixture(count: 300, pageSize: 100, over: .x)
        try await fixture.loader.loadNewer(maxPages: 1)
        let before = try fixture.store.snapshot()
        let reset = Int64(Date().timeIntervalSince1970) + 900
        fixture.api.script([
            .json(
                XPayloadGenerator.rateLimitBody, status: 429,
                headers: ["x-rate-limit-remaining": "0", "x-rate-limit-reset": String(reset)])
        ])
        let error = await #expect(throws: SyncError.self) { try await fixture.loader.loadOlder() }
        #expect(error?.code == .rateLimited && error?.httpStatus == 429)
        #expect(error?.rateLimitReset == Date(timeIntervalSince1970: Double(reset)))
        #expect(error?.apiMessages.first?.message == "Too Many Requests")
        #expect(try fixture.store.snapshot() == before)
    }

    @Test func aLoadOverV2ContinuesATimelineAV1LoadStarted() async throws {
        let v1 = try LoaderFixture(count: 1_000, pageSize: 100)
        try await v1.loader.loadNewer(maxPages: 1)
        v1.api.grow(by: 250)
        let client = XClient(
            credentials: .user(accessToken: Secret(FakeTwitterAPI.issuedUserAccessToken)),
            baseURL: v1.server.baseURL.appendingPathComponent("2/"))
        let x = TimelineLoader(.home, client: client, importer: v1.store.x, pageSize: 100)
        let stopped = try await x.loadNewer(maxPages: 2)
        #expect(stopped.gapsLeft == 1)
        #expect(try v1.entries() == v1.expectedEntries())
        let filled = try await v1.loader.loadNewer()  // and v1.1 fills the gap v2 left
        #expect(filled.gapsLeft == 0)
        let entries = try v1.entries()
        #expect(entries == Array(v1.api.ids.prefix(350)))
        // One object per post, whichever API brought it.
        #expect(try v1.store.counts()["Tweet"] == 350)
    }

    @Test func aPageWithPartialErrorsImportsAndReportsThem() async throws {
        let fixture = try LoaderFixture(count: 30, pageSize: 10, over: .x)
        var generator = XPayloadGenerator(seed: 3)
        let page = String(decoding: generator.timeline(ids: Array(fixture.api.ids.prefix(5))), as: UTF8.self)
        let body = page.dropLast() + ",\"errors\":[\(XPayloadGenerator.notFoundError(postID: 42))]}"
        // users/me first, then the page.
        fixture.api.script([
            .json(XPayloadGenerator.userBody(FakeTwitterAPI.authenticatedUser)), .json(Data(body.utf8)),
        ])
        let load = try await fixture.loader.loadNewer(maxPages: 1)
        #expect(load.statusCount == 5)
        #expect(load.summary.partialErrors.map(\.message) == ["Could not find tweet with id: [42]."])
        #expect(try fixture.entries() == Array(fixture.api.ids.prefix(5)))
    }
}

/// The v2 client's authentication and lookups.
@Suite("X API v2 client", .timeLimit(.minutes(5)))
struct XClientTests {
    private func server(expecting credentials: OAuth1Credentials? = testCredentials) throws -> (
        FakeTwitterAPI, LoopbackHTTPServer
    ) {
        let api = FakeTwitterAPI(count: 300, compact: true, expecting: credentials)
        return (api, try LoopbackHTTPServer { api.respond(to: $0) })
    }

    @Test func anAppOnlyTokenReadsSearchButHomeIsRefusedBeforeAnyRequest() async throws {
        let (_, server) = try server()
        defer { server.stop() }
        let client = XClient(
            credentials: .app(bearerToken: Secret(FakeTwitterAPI.issuedBearerToken)),
            baseURL: server.baseURL.appendingPathComponent("2/"))
        let error = await #expect(throws: SyncError.self) { try await client.fetchPage(.home) }
        #expect(error?.code == .credentials)
        #expect(server.requests.isEmpty)
        let body = try await client.fetchPage(.search("objdb lmdb"), maxResults: 5)
        #expect(try XPayload(try JSONDocument(body).root).data.count == 10)  // search takes at least 10
        let request = try #require(server.requests.last)
        #expect(request.path == "/2/tweets/search/recent" && request.query["query"] == "objdb lmdb")
        #expect(request.headers["authorization"] == "Bearer " + FakeTwitterAPI.issuedBearerToken)
    }

    @Test func searchPagesWithNextTokenAndTimelinesWithPaginationToken() async throws {
        let (_, server) = try server()
        defer { server.stop() }
        let client = XClient(
            credentials: .user(accessToken: Secret(FakeTwitterAPI.issuedUserAccessToken)),
            baseURL: server.baseURL.appendingPathComponent("2/"))
        let first = try XPayload(try JSONDocument(try await client.fetchPage(.search("q"), maxResults: 10)).root)
        let token = try #require(first.nextToken)
        _ = try await client.fetchPage(.search("q"), paginationToken: token)
        #expect(server.requests.last?.query["next_token"] == token)
        _ = try await client.fetchPage(.user("author3"), paginationToken: token)
        #expect(server.requests.last?.query["pagination_token"] == token)
        #expect(server.requests.last?.path.hasSuffix("/tweets") == true)
    }

    @Test func oauth1KeysSignV2RequestsAndTheUserIDIsAskedOnce() async throws {
        let (_, server) = try server()
        defer { server.stop() }
        let client = XClient(
            credentials: .oauth1(testCredentials), baseURL: server.baseURL.appendingPathComponent("2/"))
        _ = try await client.fetchPage(.mentions, maxResults: 5)
        _ = try await client.fetchPage(.mentions, maxResults: 5)
        #expect(server.requests.map(\.path).filter { $0 == "/2/users/me" }.count == 1)
        #expect(server.requests.last?.path == "/2/users/\(FakeTwitterAPI.authenticatedUser.id)/mentions")
        #expect(server.requests.last?.headers["authorization"]?.hasPrefix("OAuth ") == true)
    }

    @Test func anUnknownUsernameIsATypedErrorAndABadOneIsRefused() async throws {
        let (_, server) = try server()
        defer { server.stop() }
        let client = XClient(
            credentials: .app(bearerToken: Secret(FakeTwitterAPI.issuedBearerToken)),
            baseURL: server.baseURL.appendingPathComponent("2/"))
        let missing = await #expect(throws: SyncError.self) { try await client.fetchPage(.user("nobody_here")) }
        #expect(missing?.code == .apiError)
        #expect(missing?.apiMessages.first?.code == "https://api.twitter.com/2/problems/resource-not-found")
        let bad = await #expect(throws: SyncError.self) { try await client.fetchPage(.user("../users/me")) }
        #expect(bad?.code == .invalidArgument)
    }

    @Test func aWrongTokenIsATypedErrorThatNeverShowsTheToken() async throws {
        let (_, server) = try server()
        defer { server.stop() }
        let client = XClient(
            credentials: .user(accessToken: Secret("wrong-user-token-value")),
            baseURL: server.baseURL.appendingPathComponent("2/"))
        let error = await #expect(throws: SyncError.self) { try await client.fetchPage(.home) }
        #expect(error?.code == .apiError && error?.httpStatus == 401)
        var dumped = ""
        dump(client, to: &dumped)
        for text in [
            error.map { "\($0)" } ?? "", dumped, "\(XCredentials.user(accessToken: Secret("wrong-user-token-value")))",
        ] {
            #expect(!text.contains("wrong-user-token-value"))
        }
    }

    @Test func credentialsForV2ComeFromTheEnvironmentInOrderOfPreference() throws {
        let home = ["HOME": "/nonexistent"]
        let user = try SyncCredentials.load(
            environment: home.merging(["X_USER_ACCESS_TOKEN": "u", "X_BEARER_TOKEN": "b"]) { a, _ in a })
        #expect(user.x == .user(accessToken: Secret("u")))
        let app = try SyncCredentials.load(environment: home.merging(["TWITTER_BEARER_TOKEN": "t"]) { a, _ in a })
        #expect(app.x == .app(bearerToken: Secret("t")))
        let directory = TemporaryDirectory()
        let path = directory.path + "/credentials"
        try "X_USER_ACCESS_TOKEN=from-file\n".write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o600)
        let file = try SyncCredentials.load(environment: ["OBJDB_SYNC_CREDENTIALS": path])
        #expect(file.x == .user(accessToken: Secret("from-file")))
        let none = try SyncCredentials.load(environment: home)
        let error = #expect(throws: SyncError.self) { try none.requireX() }
        #expect(error?.message.contains("X_USER_ACCESS_TOKEN") == true)
    }
}
