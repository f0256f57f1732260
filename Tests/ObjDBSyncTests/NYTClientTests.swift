import Foundation
import LoopbackServer
import ObjDB
import Testing

@testable import ObjDBSync

@Suite("NYT client", .timeLimit(.minutes(5)))
struct NYTClientTests {
    private func client(_ api: FakeNYTAPI, delay: Duration = .zero, key: String = "nyt-key") throws -> (
        LoopbackHTTPServer, NYTClient
    ) {
        let server = try LoopbackHTTPServer { api.respond(to: $0) }
        let client = NYTClient(
            apiKey: Secret(key), baseURL: server.baseURL.appendingPathComponent("svc/search/v2/"), minimumDelay: delay)
        return (server, client)
    }

    @Test func theParametersAreTheAPIs() async throws {
        let api = FakeNYTAPI(hits: 35, apiKey: "nyt-key")
        let (server, client) = try client(api)
        defer { server.stop() }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let begin = calendar.date(from: DateComponents(year: 2008, month: 10, day: 1))!
        let end = calendar.date(from: DateComponents(year: 2008, month: 12, day: 1))!
        let search = ArticleSearchQuery(
            "bailout", from: begin, to: end, filter: #"section_name:("Business")"#, sort: .newest)
        _ = try await client.fetchPage(search, page: 2)
        let query = try #require(server.requests.first).query
        #expect(
            query == [
                "q": "bailout", "fq": #"section_name:("Business")"#, "begin_date": "20081001", "end_date": "20081201",
                "sort": "newest", "page": "2", "api-key": "nyt-key",
            ])
        #expect(server.requests.first?.path == "/svc/search/v2/articlesearch.json")
    }

    @Test func loadingPagesStopsAtTheLastPageOfResults() async throws {
        let api = FakeNYTAPI(hits: 35, apiKey: "nyt-key")
        let (server, client) = try client(api)
        defer { server.stop() }
        let store = try SyncStore()
        let load = try await client.load(ArticleSearchQuery("bailout"), pages: 10, into: store.nyt)
        #expect(load.pages == 4 && load.articleCount == 35 && load.hits == 35)
        #expect(server.requests.map { $0.query["page"] } == ["0", "1", "2", "3"])
        let search = try #require(
            try store.database.view().object(ofType: ArticleSearch.self, forPrimaryKey: "bailout"))
        #expect(search.articles.count == 35 && search.hits == 35)
    }

    @Test func pagesOutsideZeroToNinetyNineAreRefused() async throws {
        let client = NYTClient(apiKey: Secret("k"), baseURL: URL(string: "http://127.0.0.1:9/")!, minimumDelay: .zero)
        for page in [-1, 100] {
            let error = await #expect(throws: SyncError.self) {
                try await client.fetchPage(ArticleSearchQuery("x"), page: page)
            }
            #expect(error?.code == .invalidArgument)
        }
    }

    @Test func callsAreSpacedByTheMinimumDelay() async throws {
        let api = FakeNYTAPI(hits: 30, apiKey: "nyt-key")
        let (server, client) = try client(api, delay: .milliseconds(400))
        defer { server.stop() }
        let store = try SyncStore()
        _ = try await client.load(ArticleSearchQuery("bailout"), pages: 3, into: store.nyt)
        let times = api.callTimes
        #expect(times.count == 3)
        for (earlier, later) in zip(times, times.dropFirst()) { #expect(later - earlier >= .milliseconds(390)) }
    }

    @Test func theDefaultDelayIsTwelveSeconds() {
        #expect(NYTClient(apiKey: Secret("k")).minimumDelay == .seconds(12))
    }

    @Test func aFaultIsATypedErrorWithoutTheKey() async throws {
        let api = FakeNYTAPI(hits: 10, apiKey: "right-key")
        let (server, client) = try client(api, key: "wrong-key")
        defer { server.stop() }
        let error = await #expect(throws: SyncError.self) { try await client.fetchPage(ArticleSearchQuery("x")) }
        #expect(error?.code == .apiError && error?.httpStatus == 401)
        #expect(error?.apiMessages.first?.code == "oauth.v2.InvalidApiKey")
        #expect(error.map { !"\($0)".contains("wrong-key") } == true)
    }

    @Test func theRateLimitFaultIsRateLimited() async throws {
        let api = FakeNYTAPI(hits: 10, apiKey: "nyt-key")
        api.script([.json(NYTPayloadGenerator.rateLimitBody, status: 429)])
        let (server, client) = try client(api)
        defer { server.stop() }
        let store = try SyncStore()
        let error = await #expect(throws: SyncError.self) {
            try await client.load(ArticleSearchQuery("x"), into: store.nyt)
        }
        #expect(error?.code == .rateLimited && error?.httpStatus == 429)
        #expect(try store.counts()["Article"] == 0)
    }

    @Test func anErrorStatusEnvelopeIsAnAPIError() async throws {
        let api = FakeNYTAPI(hits: 10, apiKey: "nyt-key")
        api.script([.json(NYTPayloadGenerator.statusErrorBody(["Bad begin_date"]), status: 400)])
        let (server, client) = try client(api)
        defer { server.stop() }
        let error = await #expect(throws: SyncError.self) { try await client.fetchPage(ArticleSearchQuery("x")) }
        #expect(error?.code == .apiError && error?.apiMessages.first?.message == "Bad begin_date")
    }
}
