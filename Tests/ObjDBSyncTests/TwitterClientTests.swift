import Foundation
import LoopbackServer
import Testing

@testable import ObjDBSync

let testCredentials = OAuth1Credentials(
    consumerKey: Secret("consumer-key"), consumerSecret: Secret("consumer-secret"), token: Secret("user-token"),
    tokenSecret: Secret("token-secret"))

/// A server answering every request with `respond`, and a client of it.
func twitterClient(
    policy: RateLimitPolicy = .fail, timeout: Duration = .seconds(10),
    _ respond: @escaping @Sendable (LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Response
) throws -> (LoopbackHTTPServer, TwitterClient) {
    let server = try LoopbackHTTPServer(handler: respond)
    let client = TwitterClient(
        credentials: .user(testCredentials), baseURL: server.baseURL.appendingPathComponent("1.1/"),
        rateLimitPolicy: policy, timeout: timeout)
    return (server, client)
}

@Suite("Twitter client", .timeLimit(.minutes(5)))
struct TwitterClientTests {
    @Test func requestsCarryTheCursorsAndAVerifiableSignature() async throws {
        let api = FakeTwitterAPI(count: 50, compact: true, expecting: testCredentials)
        let (server, client) = try twitterClient { api.respond(to: $0) }
        defer { server.stop() }
        let ids = api.ids
        let body = try await client.fetchPage(.home, sinceID: ids[30], maxID: ids[5], count: 10)
        let facts = try TwitterPayloadFacts(body)
        #expect(facts.ownStatusIDs == Array(ids[5..<15]))
        let request = try #require(server.requests.last)
        #expect(request.path == "/1.1/statuses/home_timeline.json")
        #expect(request.query["since_id"] == String(ids[30]) && request.query["max_id"] == String(ids[5]))
        #expect(request.query["count"] == "10")
    }

    @Test func aWrongSignatureIsATypedAPIError() async throws {
        let api = FakeTwitterAPI(count: 5, compact: true, expecting: testCredentials)
        let server = try LoopbackHTTPServer { api.respond(to: $0) }
        defer { server.stop() }
        var wrong = testCredentials
        wrong.tokenSecret = Secret("not-the-secret")
        let client = TwitterClient(credentials: .user(wrong), baseURL: server.baseURL.appendingPathComponent("1.1/"))
        let error = await #expect(throws: SyncError.self) { try await client.fetchPage(.home) }
        #expect(error?.code == .apiError && error?.httpStatus == 401)
        #expect(error?.apiMessages == [SyncError.APIMessage(code: "32", message: "Could not authenticate you.")])
        #expect(error.map { !"\($0)".contains("not-the-secret") && !"\($0)".contains("user-token") } == true)
    }

    @Test func http429IsRateLimitedWithTheResetTime() async throws {
        let reset = Int64(Date().timeIntervalSince1970) + 900
        let (server, client) = try twitterClient { _ in
            .json(
                TwitterPayloadGenerator.rateLimitBody, status: 429,
                headers: ["x-rate-limit-remaining": "0", "x-rate-limit-reset": String(reset)])
        }
        defer { server.stop() }
        let error = await #expect(throws: SyncError.self) { try await client.fetchPage(.home) }
        #expect(error?.code == .rateLimited && error?.httpStatus == 429)
        #expect(error?.rateLimitReset == Date(timeIntervalSince1970: Double(reset)))
        #expect(error?.apiMessages.first?.code == "88")
    }

    @Test func aResponseWithNoneRemainingRefusesTheNextRequestUntilTheReset() async throws {
        let api = FakeTwitterAPI(count: 20, compact: true)
        let reset = Date().addingTimeInterval(600)
        api.limit(remaining: 1, reset: reset)
        let (server, client) = try twitterClient { api.respond(to: $0) }
        defer { server.stop() }
        _ = try await client.fetchPage(.home, count: 5)
        let error = await #expect(throws: SyncError.self) { try await client.fetchPage(.home, count: 5) }
        #expect(error?.code == .rateLimited)
        #expect(error?.rateLimitReset == Date(timeIntervalSince1970: reset.timeIntervalSince1970.rounded(.down)))
        #expect(server.requests.count == 1)
    }

    @Test func theWaitingPolicySleepsUntilTheResetAndRetries() async throws {
        let api = FakeTwitterAPI(count: 20, compact: true)
        let reset = Int64(Date().timeIntervalSince1970.rounded(.up)) + 1
        api.script([
            .json(
                TwitterPayloadGenerator.rateLimitBody, status: 429,
                headers: ["x-rate-limit-remaining": "0", "x-rate-limit-reset": String(reset)])
        ])
        let (server, client) = try twitterClient(policy: .wait(upTo: .seconds(5))) { api.respond(to: $0) }
        defer { server.stop() }
        let body = try await client.fetchPage(.home, count: 3)
        #expect(try TwitterPayloadFacts(body).ownStatusIDs.count == 3)
        #expect(Date().timeIntervalSince1970 >= Double(reset))
        #expect(server.requests.count == 2)
    }

    @Test func theWaitingPolicyThrowsWhenTheResetIsTooFar() async throws {
        let reset = Int64(Date().timeIntervalSince1970) + 3600
        let (server, client) = try twitterClient(policy: .wait(upTo: .seconds(5))) { _ in
            .json(TwitterPayloadGenerator.rateLimitBody, status: 429, headers: ["x-rate-limit-reset": String(reset)])
        }
        defer { server.stop() }
        let error = await #expect(throws: SyncError.self) { try await client.fetchPage(.home) }
        #expect(error?.code == .rateLimited)
    }

    @Test(
        arguments: [
            (#"{"errors":[{"code":215,"message":"Bad Authentication data."}]}"#, 400, "215"),
            (#"{"errors":[{"message":"Sorry, that page does not exist","code":34}]}"#, 404, "34"),
            (#"{"errors":"Not authorized."}"#, 401, nil),
            (#"{"error":"Not authorized.","request":"\/1\/statuses\/user_timeline.json"}"#, 401, nil),
            (#"{"title":"Unauthorized","type":"about:blank","status":401,"detail":"Unauthorized"}"#, 401, "401"),
        ] as [(String, Int, String?)])
    func everyErrorShapeIsAnAPIError(body: String, status: Int, code: String?) async throws {
        let (server, client) = try twitterClient { _ in .json(Data(body.utf8), status: status) }
        defer { server.stop() }
        let error = await #expect(throws: SyncError.self) { try await client.fetchPage(.user("someone")) }
        #expect(error?.code == .apiError && error?.httpStatus == status)
        #expect(error?.apiMessages.first?.code == code)
    }

    @Test func aBodyOfNoKnownShapeIsAnHTTPStatusError() async throws {
        let (server, client) = try twitterClient { _ in .init(status: 502, body: Data("<html>Bad gateway</html>".utf8))
        }
        defer { server.stop() }
        let error = await #expect(throws: SyncError.self) { try await client.fetchPage(.home) }
        #expect(error?.code == .httpStatus && error?.httpStatus == 502)
    }

    @Test func aSlowAPITimesOut() async throws {
        let (server, client) = try twitterClient(timeout: .milliseconds(300)) { _ in .init(delay: .seconds(5)) }
        defer { server.stop() }
        let error = await #expect(throws: SyncError.self) { try await client.fetchPage(.home) }
        #expect(error?.code == .timedOut)
    }

    @Test func endpointsMapToTheirPathsAndTimelines() async throws {
        let api = FakeTwitterAPI(count: 5, compact: true)
        let (server, client) = try twitterClient { api.respond(to: $0) }
        defer { server.stop() }
        let endpoints: [TwitterEndpoint] = [.home, .mentions, .user("ada"), .search("swift lmdb")]
        for endpoint in endpoints { _ = try await client.fetchPage(endpoint, count: 2) }
        #expect(
            server.requests.map(\.path) == [
                "/1.1/statuses/home_timeline.json", "/1.1/statuses/mentions_timeline.json",
                "/1.1/statuses/user_timeline.json", "/1.1/search/tweets.json",
            ])
        #expect(server.requests[2].query["screen_name"] == "ada" && server.requests[3].query["q"] == "swift lmdb")
        #expect(endpoints.map(\.timelineName) == ["home", "mentions", "user:ada", "search:swift lmdb"])
    }
}
