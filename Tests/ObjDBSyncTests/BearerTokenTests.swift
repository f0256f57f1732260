import Foundation
import LoopbackServer
import Testing

@testable import ObjDBSync

@Suite("App-only bearer tokens", .timeLimit(.minutes(5)))
struct BearerTokenTests {
    @Test func theAppsKeysBuyABearerTokenThatFetches() async throws {
        let api = FakeTwitterAPI(count: 30, compact: true, expecting: testCredentials)
        let server = try LoopbackHTTPServer { api.respond(to: $0) }
        defer { server.stop() }
        let base = server.baseURL.appendingPathComponent("1.1/")
        let app = try await TwitterCredentials.appOnly(
            consumerKey: testCredentials.consumerKey, consumerSecret: testCredentials.consumerSecret, baseURL: base)
        #expect(app == .app(bearerToken: Secret(FakeTwitterAPI.issuedBearerToken)))
        #expect(server.requests.first?.path == "/oauth2/token")
        let body = try await TwitterClient(credentials: app, baseURL: base).fetchPage(.user("ada"), count: 5)
        #expect(try TwitterPayloadFacts(body).ownStatusIDs.count == 5)
        #expect(server.requests.last?.headers["authorization"] == "Bearer " + FakeTwitterAPI.issuedBearerToken)
    }

    @Test func wrongKeysAreATypedErrorWithoutTheSecret() async throws {
        let api = FakeTwitterAPI(count: 5, compact: true, expecting: testCredentials)
        let server = try LoopbackHTTPServer { api.respond(to: $0) }
        defer { server.stop() }
        let error = await #expect(throws: SyncError.self) {
            try await TwitterCredentials.appOnly(
                consumerKey: testCredentials.consumerKey, consumerSecret: Secret("wrong-app-secret"),
                baseURL: server.baseURL.appendingPathComponent("1.1/"))
        }
        #expect(error?.code == .apiError && error?.httpStatus == 403)
        #expect(error?.apiMessages.first?.code == "99")
        #expect(error.map { !"\($0)".contains("wrong-app-secret") } == true)
    }
}
