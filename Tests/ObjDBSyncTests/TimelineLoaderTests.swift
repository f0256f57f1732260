import Foundation
import LoopbackServer
import ObjDB
import Observation
import Synchronization
import Testing

@testable import ObjDBSync

/// Which API a loader pages: Twitter v1.1 or X v2. The fake server serves one model timeline in both.
enum LoaderAPI: String, Sendable, CustomStringConvertible {
    case v1, x
    var description: String { rawValue }
}

/// A store, a fake API of `count` statuses on loopback, and a loader of its home timeline over
/// v1.1 or v2.
final class LoaderFixture {
    let store: SyncStore
    let api: FakeTwitterAPI
    let server: LoopbackHTTPServer
    let loader: TimelineLoader

    init(count: Int, pageSize: Int, seed: UInt64 = 1, delay: Duration = .zero, over dialect: LoaderAPI = .v1) throws {
        store = try SyncStore()
        let api = FakeTwitterAPI(seed: seed, count: count, compact: true)
        self.api = api
        server = try LoopbackHTTPServer { request in
            var response = api.respond(to: request)
            response.delay = delay
            return response
        }
        switch dialect {
        case .v1:
            let client = TwitterClient(
                credentials: .app(bearerToken: Secret("test")), baseURL: server.baseURL.appendingPathComponent("1.1/"))
            loader = TimelineLoader(.home, client: client, importer: store.twitter, pageSize: pageSize)
        case .x:
            let client = XClient(
                credentials: .user(accessToken: Secret(FakeTwitterAPI.issuedUserAccessToken)),
                baseURL: server.baseURL.appendingPathComponent("2/"))
            loader = TimelineLoader(.home, client: client, importer: store.x, pageSize: pageSize)
        }
    }

    /// The requests for timeline pages (v2 asks users/me first, once).
    var pageRequests: [LoopbackHTTPServer.Request] {
        server.requests.filter { !$0.path.hasSuffix("/users/me") }
    }

    deinit { server.stop() }

    /// The timeline's entries, newest first.
    func entries() throws -> [Int64] {
        try store.database.view().object(ofType: Timeline.self, forPrimaryKey: "home")?.entries.map(\.id) ?? []
    }

    /// The timeline's gaps as `(sinceId, maxId)`.
    func gaps() throws -> [(Int64, Int64)] {
        try store.database.view().object(ofType: Timeline.self, forPrimaryKey: "home")?.gaps.map {
            ($0.sinceId, $0.maxId)
        } ?? []
    }

    /// The server's IDs from `oldest` to `newest`, not in a gap: what the cache must hold exactly.
    func expectedEntries() throws -> [Int64] {
        let entries = try entries()
        guard let newest = entries.first, let oldest = entries.last else { return [] }
        let gaps = try gaps()
        return api.ids.filter { id in
            id >= oldest && id <= newest && !gaps.contains { id > $0.0 && id <= $0.1 }
        }
    }
}

@Suite("Timeline paging", .timeLimit(.minutes(5)))
struct TimelineLoaderTests {
    @Test func theFirstLoadFetchesTheNewestPageWithoutCursors() async throws {
        let fixture = try LoaderFixture(count: 500, pageSize: 50)
        let load = try await fixture.loader.loadNewer(maxPages: 1)
        #expect(load.pages == 1 && load.statusCount == 50 && load.gapsLeft == 0)
        #expect(try fixture.entries() == Array(fixture.api.ids.prefix(50)))
        let query = try #require(fixture.server.requests.first).query
        #expect(query["since_id"] == nil && query["max_id"] == nil && query["count"] == "50")
    }

    @Test func aFirstLoadOnAnEmptyTimelinePagesDownToItsPageLimit() async throws {
        let fixture = try LoaderFixture(count: 500, pageSize: 50)
        let load = try await fixture.loader.loadNewer(maxPages: 4)
        #expect(load.pages == 4 && load.statusCount == 200 && load.gapsLeft == 0)
        let ids = fixture.api.ids
        #expect(try fixture.entries() == Array(ids.prefix(200)))
        let requests = fixture.server.requests
        #expect(requests.allSatisfy { $0.query["since_id"] == nil })
        let expected: [String?] = [nil] + [1, 2, 3].map { (page: Int) -> String? in String(ids[page * 50 - 1] - 1) }
        #expect(requests.map { $0.query["max_id"] } == expected)
        // Nothing is missing above the oldest entry, so a later load only asks for what is newer.
        #expect(try await fixture.loader.loadNewer().statusCount == 0)
    }

    @Test func aFirstLoadStopsAtTheEndOfAShortTimeline() async throws {
        let fixture = try LoaderFixture(count: 120, pageSize: 50)
        let load = try await fixture.loader.loadNewer(maxPages: 10)
        #expect(load.pages == 3 && load.statusCount == 120)
        #expect(try fixture.entries() == fixture.api.ids)
    }

    @Test func loadNewerAsksSinceTheNewestAndPagesBackUntilItMeetsTheCache() async throws {
        let fixture = try LoaderFixture(count: 3_000, pageSize: 100)
        try await fixture.loader.loadNewer(maxPages: 1)
        let newest = try #require(try fixture.entries().first)
        fixture.api.grow(by: 450)
        let load = try await fixture.loader.loadNewer()
        #expect(load.pages == 5 && load.statusCount == 450 && load.gapsLeft == 0)
        let requests = fixture.server.requests.dropFirst()
        #expect(requests.allSatisfy { $0.query["since_id"] == String(newest) })
        #expect(requests.first?.query["max_id"] == nil)
        // Each next page asks below the lowest ID seen.
        let ids = fixture.api.ids
        #expect(
            Array(requests.dropFirst()).map { $0.query["max_id"] }
                == [1, 2, 3, 4].map { String(ids[$0 * 100 - 1] - 1) })
        #expect(try fixture.entries() == Array(ids.prefix(550)))
    }

    @Test func aLoadStoppedByThePageLimitRecordsTheGapAndALaterLoadFillsIt() async throws {
        let fixture = try LoaderFixture(count: 2_000, pageSize: 100)
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
        // First what is newer than the newest (nothing), then inside the gap: since_id its floor, max_id its top.
        #expect(fixture.server.requests[4].query["since_id"] == String(ids[0]))
        let fill = fixture.server.requests[5]
        #expect(fill.query["since_id"] == String(cachedNewest) && fill.query["max_id"] == String(ids[299] - 1))
    }

    @Test func aFailedFetchMidwayLeavesTheGapRecordedAndTheCacheConsistent() async throws {
        let fixture = try LoaderFixture(count: 1_000, pageSize: 100)
        try await fixture.loader.loadNewer(maxPages: 1)
        fixture.api.grow(by: 500)
        fixture.api.script([])
        fixture.api.failEvery(3)  // the third request from now fails
        await #expect(throws: SyncError.self) { try await fixture.loader.loadNewer() }
        #expect(try fixture.gaps().count == 1)
        #expect(try fixture.entries() == fixture.expectedEntries())
        fixture.api.failEvery(nil)
        let load = try await fixture.loader.loadNewer()
        #expect(load.gapsLeft == 0)
        #expect(try fixture.entries() == Array(fixture.api.ids.prefix(600)))
    }

    @Test func loadOlderAsksBelowTheOldestAndStopsAtTheEnd() async throws {
        let fixture = try LoaderFixture(count: 250, pageSize: 100)
        try await fixture.loader.loadNewer(maxPages: 1)
        let oldest = try fixture.entries().last!
        let load = try await fixture.loader.loadOlder(pages: 5)
        #expect(fixture.server.requests[1].query["max_id"] == String(oldest - 1))
        #expect(load.pages == 2 && load.reachedEnd)
        #expect(try fixture.entries() == fixture.api.ids)
    }

    @Test func aFailedFetchLeavesTheStoreAsItWas() async throws {
        let fixture = try LoaderFixture(count: 300, pageSize: 100)
        try await fixture.loader.loadNewer(maxPages: 1)
        let before = try fixture.store.snapshot()
        fixture.api.script([.json(TwitterPayloadGenerator.rateLimitBody, status: 429)])
        let error = await #expect(throws: SyncError.self) { try await fixture.loader.loadOlder() }
        #expect(error?.code == .rateLimited)
        #expect(try fixture.store.snapshot() == before)
    }

    @Test func aSecondLoadWhileOneIsInFlightIsRefusedAndIsLoadingIsObservable() async throws {
        let fixture = try LoaderFixture(count: 100, pageSize: 20, delay: .milliseconds(300))
        let loader = fixture.loader
        let changes = Mutex(0)
        withObservationTracking {
            _ = loader.isLoading
        } onChange: {
            changes.withLock { $0 += 1 }
        }
        #expect(!loader.isLoading)
        let first = Task { try await loader.loadNewer(maxPages: 1) }
        let deadline = ContinuousClock.now + .seconds(5)
        while !loader.isLoading && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(2)) }
        #expect(loader.isLoading)
        #expect(changes.withLock { $0 } == 1)
        let error = await #expect(throws: SyncError.self) { try await loader.loadOlder() }
        #expect(error?.code == .loadInProgress)
        _ = try await first.value
        #expect(!loader.isLoading)
        #expect(fixture.server.requests.count == 1)
    }

    @Test func cancellingALoadKeepsWhatLandedAndTheGap() async throws {
        let fixture = try LoaderFixture(count: 400, pageSize: 50, delay: .milliseconds(100))
        try await fixture.loader.loadNewer(maxPages: 1)
        fixture.api.grow(by: 400)
        let loader = fixture.loader
        let task = Task { try await loader.loadNewer() }
        let deadline = ContinuousClock.now + .seconds(10)
        while fixture.server.requests.count < 3 && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        task.cancel()
        let result = await task.result
        #expect((result.error as? SyncError)?.code == .cancelled)
        #expect(!loader.isLoading)
        #expect(try fixture.gaps().count == 1)
        #expect(try fixture.entries() == fixture.expectedEntries())
    }
}
