import Foundation
import ObjDBSync
import Synchronization

/// Twitter API v1.1's timeline endpoints over a model timeline: `since_id`, `max_id` and
/// `count` as Twitter applies them, statuses the project generates, rate-limit headers, and
/// scripted failures. Every timeline endpoint serves the same model, and so does X API v2 under
/// `/2/` (FakeTwitterAPI+X.swift): the same posts, growth, failures and limits in either dialect.
package final class FakeTwitterAPI: Sendable {
    struct State {
        var ids: [Int64]  // descending
        var generator: TwitterPayloadGenerator
        var xGenerator: XPayloadGenerator
        var random: SeededRandom
        var scripted: [LoopbackHTTPServer.Response] = []
        var failEvery: Int?
        var served = 0
        var rateLimit: (remaining: Int, reset: Date)?
    }

    /// Statuses with ID, text, date and author only, when `true`.
    package let compact: Bool
    /// When set, a request whose OAuth signature does not verify with these gets HTTP 401.
    package let expectedCredentials: OAuth1Credentials?
    let state: Mutex<State>

    /// A timeline of `count` statuses, deterministic for `seed`.
    package init(seed: UInt64 = 1, count: Int, compact: Bool = false, expecting credentials: OAuth1Credentials? = nil) {
        var random = SeededRandom(seed: seed ^ 0x5EED)
        var ids: [Int64] = []
        var id: Int64 = 1_000_000_000
        for _ in 0..<count {
            id += 1 + Int64(random.next() % 40)
            ids.append(id)
        }
        state = Mutex(
            State(
                ids: ids.reversed(), generator: TwitterPayloadGenerator(seed: seed),
                xGenerator: XPayloadGenerator(seed: seed), random: random))
        self.compact = compact
        expectedCredentials = credentials
    }

    /// The model's IDs, newest first.
    package var ids: [Int64] { state.withLock { $0.ids } }

    /// Posts `count` new statuses on top.
    package func grow(by count: Int) {
        state.withLock { state in
            var id = state.ids.first ?? 1_000_000_000
            var added: [Int64] = []
            for _ in 0..<count {
                id += 1 + Int64(state.random.next() % 40)
                added.append(id)
            }
            state.ids.insert(contentsOf: added.reversed(), at: 0)
        }
    }

    /// The next requests get these responses instead, in order.
    package func script(_ responses: [LoopbackHTTPServer.Response]) {
        state.withLock { $0.scripted += responses }
    }

    /// Every `n`th request from now fails with HTTP 503 (`nil`: none).
    package func failEvery(_ n: Int?) {
        state.withLock {
            $0.failEvery = n
            $0.served = 0
        }
    }

    /// Sends `x-rate-limit-remaining` and `x-rate-limit-reset` with each response, counting down.
    package func limit(remaining: Int, reset: Date) {
        state.withLock { $0.rateLimit = (remaining, reset) }
    }

    /// The token `oauth2/token` hands out for the expected consumer key and secret.
    package static let issuedBearerToken = "AAAAAAAAAAAAAAAAAAAAA%2Fdemo-bearer"

    /// Answers one request.
    package func respond(to request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Response {
        if request.path.hasSuffix("oauth2/token") { return issueToken(request) }
        if request.path.hasPrefix("/2/") { return respondX(to: request) }
        let bearer = request.headers["authorization"] == "Bearer " + Self.issuedBearerToken
        if let expectedCredentials, !bearer, !Self.verifies(request, credentials: expectedCredentials) {
            return .json(
                TwitterPayloadGenerator.errorBody([(32, "Could not authenticate you.")]), status: 401)
        }
        if expectedCredentials == nil, request.headers["authorization"] == nil {
            return .json(TwitterPayloadGenerator.errorBody([(215, "Bad Authentication data.")]), status: 400)
        }
        return state.withLock { state in
            state.served += 1
            var headers: [String: String] = [:]
            if var limit = state.rateLimit {
                limit.remaining = max(0, limit.remaining - 1)
                state.rateLimit = limit
                headers["x-rate-limit-limit"] = "180"
                headers["x-rate-limit-remaining"] = String(limit.remaining)
                headers["x-rate-limit-reset"] = String(Int64(limit.reset.timeIntervalSince1970))
            }
            if !state.scripted.isEmpty { return state.scripted.removeFirst() }
            if let every = state.failEvery, state.served % every == 0 {
                return .json(TwitterPayloadGenerator.errorBody([(131, "Internal error")]), status: 503)
            }
            let endpoints = [
                "statuses/home_timeline.json", "statuses/mentions_timeline.json", "statuses/user_timeline.json",
                "search/tweets.json",
            ]
            guard endpoints.contains(where: { request.path.hasSuffix($0) }) else {
                return .json(
                    TwitterPayloadGenerator.errorBody([(34, "Sorry, that page does not exist.")]), status: 404)
            }
            let count = min(200, max(1, Int(request.query["count"] ?? "20") ?? 20))
            let since = request.query["since_id"].flatMap { Int64($0) } ?? Int64.min
            let max = request.query["max_id"].flatMap { Int64($0) } ?? Int64.max
            let page = Array(state.ids.lazy.filter { $0 > since && $0 <= max }.prefix(count))
            var body = state.generator.timeline(ids: page, compact: compact)
            if request.path.hasSuffix("search/tweets.json") {
                let query = jsonLiteral(request.query["q"] ?? "")
                body =
                    Data("{\"statuses\":".utf8) + body
                    + Data(",\"search_metadata\":{\"count\":\(count),\"query\":\(query)}}".utf8)
            }
            return .json(body, headers: headers)
        }
    }

    /// `POST oauth2/token`: a bearer token for the expected consumer key and secret (any, when none
    /// is expected), as application-only authentication answers.
    private func issueToken(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Response {
        let body = String(decoding: request.body, as: UTF8.self)
        var authorized = request.method == "POST" && body == "grant_type=client_credentials"
        if let expectedCredentials {
            let basic = Data(
                "\(expectedCredentials.consumerKey.revealed):\(expectedCredentials.consumerSecret.revealed)".utf8
            ).base64EncodedString()
            authorized = authorized && request.headers["authorization"] == "Basic " + basic
        }
        guard authorized else {
            return .json(
                Data(
                    #"{"errors":[{"code":99,"label":"authenticity_token_error","message":"Unable to verify your credentials"}]}"#
                        .utf8),
                status: 403)
        }
        return .json(Data("{\"token_type\":\"bearer\",\"access_token\":\"\(Self.issuedBearerToken)\"}".utf8))
    }

    /// Whether the request's OAuth 1.0a signature is the one `credentials` give.
    static func verifies(_ request: LoopbackHTTPServer.Request, credentials: OAuth1Credentials) -> Bool {
        guard let header = request.headers["authorization"], header.hasPrefix("OAuth ") else { return false }
        var fields: [String: String] = [:]
        for part in header.dropFirst(6).components(separatedBy: ", ") {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            fields[String(pair[0])] =
                String(pair[1]).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                .removingPercentEncoding
        }
        guard let nonce = fields["oauth_nonce"], let timestamp = fields["oauth_timestamp"].flatMap({ Int64($0) }),
            let signature = fields["oauth_signature"], let host = request.headers["host"]
        else { return false }
        var components = URLComponents()
        components.scheme = "http"
        components.percentEncodedHost = host.split(separator: ":").first.map(String.init)
        components.port = host.split(separator: ":").dropFirst().first.flatMap { Int($0) }
        components.path = request.path
        components.queryItems = request.query.map { URLQueryItem(name: $0.key, value: $0.value) }
        guard let url = components.url else { return false }
        let expected = OAuth1Signer(credentials: credentials).signature(
            for: HTTPRequest(url: url), nonce: nonce, timestamp: timestamp)
        return expected == signature
    }
}
