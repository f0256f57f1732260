import Foundation
import ObjDBSync

/// X API v2 under `/2/`, over the same model timeline v1.1 serves: `users/me`,
/// `users/by/username/NAME`, the three timelines and recent search, with `since_id`, `until_id`
/// (both exclusive), `max_results` in the endpoint's range and `pagination_token` (`next_token`
/// for search) as X applies them; problem documents for failures; the same growth, scripted
/// responses, failures and rate-limit headers as v1.1.
extension FakeTwitterAPI {
    /// The OAuth 2.0 user access token the v2 side takes for user context.
    package static let issuedUserAccessToken = "demo-oauth2-user-access-token"

    /// The authenticated user of `users/me`.
    package static let authenticatedUser = TwitterPayloadGenerator.User(
        id: 1_072_250_532_645_998_596, screenName: "objdb_demo", name: "ObjDB Demo", followers: 42,
        createdAt: Date(timeIntervalSince1970: 1_500_000_000))

    private enum XRoute {
        case me
        case user(String)
        case timeline(XEndpoint)
    }

    /// Answers one request below `/2/`.
    func respondX(to request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Response {
        let header = request.headers["authorization"]
        let isAppOnly = header == "Bearer " + Self.issuedBearerToken
        var authorized = header != nil
        if let expectedCredentials {
            authorized =
                isAppOnly || header == "Bearer " + Self.issuedUserAccessToken
                || Self.verifies(request, credentials: expectedCredentials)
        }
        guard authorized else {
            return .json(XPayloadGenerator.problem(title: "Unauthorized", status: 401), status: 401)
        }
        guard let route = Self.route(request.path) else {
            return .json(
                XPayloadGenerator.problem(
                    title: "Not Found Error", detail: "No route for \(request.path)",
                    type: "https://api.twitter.com/2/problems/resource-not-found", status: 404), status: 404)
        }
        if isAppOnly {
            switch route {
            case .me, .timeline(.home), .timeline(.mentions):
                return .json(
                    XPayloadGenerator.problem(
                        title: "Unsupported Authentication",
                        detail: "Authenticating with OAuth 2.0 Application-Only is forbidden for this endpoint.  "
                            + "Supported authentication types are [OAuth 1.0a User Context, OAuth 2.0 User Context].",
                        type: "https://api.twitter.com/2/problems/unsupported-authentication", status: 403),
                    status: 403)
            default:
                break
            }
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
                return .json(XPayloadGenerator.problem(title: "Service Unavailable", status: 503), status: 503)
            }
            switch route {
            case .me:
                return .json(XPayloadGenerator.userBody(Self.authenticatedUser), headers: headers)
            case .user(let name):
                let known = state.xGenerator.users + state.xGenerator.bystanders + [Self.authenticatedUser]
                guard let user = known.first(where: { $0.screenName.lowercased() == name.lowercased() }) else {
                    let error =
                        "{\"value\":\"\(name)\",\"detail\":\"Could not find user with username: [\(name)].\","
                        + "\"title\":\"Not Found Error\",\"resource_type\":\"user\",\"parameter\":\"username\","
                        + "\"resource_id\":\"\(name)\",\"type\":\"https://api.twitter.com/2/problems/resource-not-found\"}"
                    return .json(Data("{\"errors\":[\(error)]}".utf8), headers: headers)
                }
                return .json(XPayloadGenerator.userBody(user), headers: headers)
            case .timeline(let endpoint):
                return page(of: endpoint, request: request, state: &state, headers: headers)
            }
        }
    }

    /// One page of the model timeline, as the v2 endpoint pages it.
    private func page(
        of endpoint: XEndpoint, request: LoopbackHTTPServer.Request, state: inout State, headers: [String: String]
    ) -> LoopbackHTTPServer.Response {
        let range = endpoint.pageSizes
        let asked = request.query["max_results"] ?? "10"
        guard let count = Int(asked), range.contains(count) else {
            return invalidRequest(
                parameter: "max_results", value: asked,
                message: "The `max_results` query parameter value [\(asked)] is not between "
                    + "\(range.lowerBound) and \(range.upperBound)")
        }
        var since = Int64.min
        var until = Int64.max
        if let text = request.query["since_id"] {
            guard let id = Int64(text) else { return invalidRequest(parameter: "since_id", value: text) }
            since = id
        }
        if let text = request.query["until_id"] {
            guard let id = Int64(text) else { return invalidRequest(parameter: "until_id", value: text) }
            until = id
        }
        var tokenName = "pagination_token"
        if case .search = endpoint { tokenName = "next_token" }
        if let token = request.query[tokenName] {
            guard let below = Self.position(of: token) else {
                return invalidRequest(parameter: tokenName, value: token)
            }
            until = min(until, below)
        }
        let served = Array(state.ids.lazy.filter { $0 > since && $0 < until }.prefix(count))
        // As X does, a full page has a next_token even when nothing follows: the last page is then empty.
        let next = served.count == count ? served.last.map(Self.token(below:)) : nil
        let previous = request.query[tokenName] != nil ? served.first.map { "77qpymm88" + String($0, radix: 36) } : nil
        let body = state.xGenerator.timeline(ids: served, compact: compact, nextToken: next, previousToken: previous)
        return .json(body, headers: headers)
    }

    private func invalidRequest(parameter: String, value: String, message: String? = nil)
        -> LoopbackHTTPServer.Response
    {
        let text = message ?? "The `\(parameter)` query parameter value [\(value)] is not valid"
        let body =
            "{\"errors\":[{\"parameters\":{\"\(parameter)\":[\"\(value)\"]},\"message\":\"\(text)\"}],"
            + "\"title\":\"Invalid Request\",\"detail\":\"One or more parameters to your request was invalid.\","
            + "\"type\":\"https://api.twitter.com/2/problems/invalid-request\"}"
        return .json(Data(body.utf8), status: 400)
    }

    /// A pagination token: the pages it continues hold IDs below `id`.
    private static func token(below id: Int64) -> String { "7140dibdnow9" + String(id, radix: 36) }

    private static func position(of token: String) -> Int64? {
        guard token.hasPrefix("7140dibdnow9") else { return nil }
        return Int64(token.dropFirst(12), radix: 36)
    }

    private static func route(_ path: String) -> XRoute? {
        let parts = path.split(separator: "/").map(String.init)
        guard parts.first == "2" else { return nil }
        switch Array(parts.dropFirst()) {
        case ["users", "me"]: return .me
        case let words where words.count == 4 && words[0] == "users" && words[1] == "by" && words[2] == "username":
            return .user(words[3])
        case let words
        where words.count == 4 && words[0] == "users" && words[2] == "timelines"
            && words[3] == "reverse_chronological":
            return .timeline(.home)
        case let words where words.count == 3 && words[0] == "users" && words[2] == "mentions":
            return .timeline(.mentions)
        case let words where words.count == 3 && words[0] == "users" && words[2] == "tweets":
            return .timeline(.user(words[1]))
        case ["tweets", "search", "recent"]:
            return .timeline(.search(""))
        default:
            return nil
        }
    }
}
