import Foundation
import ObjDBSync
import Synchronization

/// NYT Article Search v2 (`articlesearch.json`) over `hits` generated docs: 10 a page, the
/// `api-key` checked, the times of calls recorded, and scripted failures.
package final class FakeNYTAPI: Sendable {
    private struct State {
        var generator: NYTPayloadGenerator
        var scripted: [LoopbackHTTPServer.Response] = []
        var callTimes: [ContinuousClock.Instant] = []
    }

    /// How many docs match any query.
    package let hits: Int
    /// The key a request must carry.
    package let apiKey: String
    private let state: Mutex<State>

    /// A search of `hits` docs, deterministic for `seed`.
    package init(seed: UInt64 = 1, hits: Int, apiKey: String) {
        self.hits = hits
        self.apiKey = apiKey
        state = Mutex(State(generator: NYTPayloadGenerator(seed: seed)))
    }

    /// When each request arrived.
    package var callTimes: [ContinuousClock.Instant] { state.withLock { $0.callTimes } }

    /// The next requests get these responses instead, in order.
    package func script(_ responses: [LoopbackHTTPServer.Response]) {
        state.withLock { $0.scripted += responses }
    }

    /// Answers one request.
    package func respond(to request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Response {
        state.withLock { state in
            state.callTimes.append(.now)
            if !state.scripted.isEmpty { return state.scripted.removeFirst() }
            guard request.path.hasSuffix("articlesearch.json") else {
                return .json(
                    NYTPayloadGenerator.faultBody(
                        "Unexpected path", code: "messaging.adaptors.http.flow.ApplicationNotFound"), status: 404)
            }
            guard request.query["api-key"] == apiKey else {
                return .json(
                    NYTPayloadGenerator.faultBody("Invalid ApiKey", code: "oauth.v2.InvalidApiKey"), status: 401)
            }
            let page = Int(request.query["page"] ?? "0") ?? 0
            let offset = page * 10
            let count = max(0, min(10, hits - offset))
            return .json(state.generator.page(count: count, offset: offset, hits: hits))
        }
    }
}
