import Foundation
import Synchronization

/// A Twitter API v1.1 timeline to fetch: where it lives and which ``Timeline`` it fills.
public enum TwitterEndpoint: Sendable, Hashable {
    /// `statuses/home_timeline`: the user's home timeline (user context only).
    case home
    /// `statuses/mentions_timeline`: tweets mentioning the user (user context only).
    case mentions
    /// `statuses/user_timeline?screen_name=NAME`: one account's tweets.
    case user(String)
    /// `search/tweets?q=QUERY`: recent tweets matching a query.
    case search(String)

    /// The name of the ``Timeline`` its statuses join: `home`, `mentions`, `user:NAME`, `search:QUERY`.
    public var timelineName: String {
        switch self {
        case .home: return Timeline.homeName
        case .mentions: return Timeline.mentionsName
        case .user(let name): return Timeline.name(user: name)
        case .search(let query): return Timeline.name(search: query)
        }
    }

    /// The path below the API's base URL.
    var path: String {
        switch self {
        case .home: return "statuses/home_timeline.json"
        case .mentions: return "statuses/mentions_timeline.json"
        case .user: return "statuses/user_timeline.json"
        case .search: return "search/tweets.json"
        }
    }

    /// The endpoint's own query parameters.
    var parameters: [(name: String, value: String)] {
        switch self {
        case .home, .mentions: return []
        case .user(let name): return [("screen_name", name)]
        case .search(let query): return [("q", query), ("result_type", "recent")]
        }
    }
}

/// Fetches Twitter API v1.1 timeline pages: signed requests, rate limits, and the API's errors
/// as typed ``SyncError``s. ``TimelineLoader`` pages with it; it stores nothing itself.
///
/// ```swift
/// let client = TwitterClient(credentials: try SyncCredentials.load().requireTwitter())
/// let body = try await client.fetchPage(.home, sinceID: 240_000, count: 200)
/// try TwitterImporter(database: db).importPage(body, timeline: "home")
/// ```
///
/// A response of HTTP 429, or a request made while the last response said
/// `x-rate-limit-remaining: 0`, is ``SyncError/Code/rateLimited`` with
/// ``SyncError/rateLimitReset``, unless the ``RateLimitPolicy`` waits. Any other status of
/// failure is ``SyncError/Code/apiError`` (with every message of the body) or
/// ``SyncError/Code/httpStatus``. The credentials appear in no error and no description.
public final class TwitterClient: Sendable {
    /// Twitter's API v1.1: `https://api.twitter.com/1.1/`.
    public static let defaultBaseURL = URL(string: "https://api.twitter.com/1.1/")!

    /// Where requests go: ``defaultBaseURL``, or a test server's.
    public let baseURL: URL
    /// What to do at the rate limit.
    public let rateLimitPolicy: RateLimitPolicy
    /// How long each request may take.
    public let timeout: Duration
    private let credentials: TwitterCredentials
    private let transport: any HTTPTransport
    /// When the last response said the limit is used up: the reset time.
    private let exhaustedUntil = Mutex<Date?>(nil)

    /// A client signing with `credentials`, sending through `transport` to `baseURL`.
    public init(
        credentials: TwitterCredentials, baseURL: URL = TwitterClient.defaultBaseURL,
        transport: any HTTPTransport = URLSessionTransport(), rateLimitPolicy: RateLimitPolicy = .fail,
        timeout: Duration = .seconds(30)
    ) {
        self.credentials = credentials
        self.baseURL = baseURL
        self.transport = transport
        self.rateLimitPolicy = rateLimitPolicy
        self.timeout = timeout
    }

    /// Fetches one page of `endpoint`: statuses with IDs above `sinceID` and at most `maxID`,
    /// newest first, at most `count` (Twitter allows 200; search, 100).
    ///
    /// - Returns: the response body, for ``TwitterImporter/importPage(_:timeline:)``.
    /// - Throws: ``SyncError``: rate limited, an API error, a timeout, cancelled, or no response.
    public func fetchPage(_ endpoint: TwitterEndpoint, sinceID: Int64? = nil, maxID: Int64? = nil, count: Int = 200)
        async throws -> Data
    {
        var parameters = endpoint.parameters + [("count", String(count))]
        if let sinceID { parameters.append(("since_id", String(sinceID))) }
        if let maxID { parameters.append(("max_id", String(maxID))) }
        parameters += [("include_entities", "true"), ("tweet_mode", "extended")]
        return try await get(endpoint.path, parameters: parameters)
    }

    /// Sends a GET of `path` below the base URL, minding the rate limit; returns a successful body.
    func get(_ path: String, parameters: [(name: String, value: String)]) async throws -> Data {
        var components = URLComponents(url: baseURL.appendingPathComponent(path), resolvingAgainstBaseURL: false)!
        components.percentEncodedQuery = queryString(parameters)
        var request = HTTPRequest(url: components.url!, timeout: timeout)
        var attempt = 0
        while true {
            attempt += 1
            if let reset = exhaustedUntil.withLock({ $0 }), reset > Date() {
                try await waitOrThrow(
                    SyncError(
                        .rateLimited,
                        "the Twitter API's rate limit is used up until \(reset) (x-rate-limit-remaining: 0)",
                        rateLimitReset: reset), reset: reset)
            }
            request.headers["Authorization"] = credentials.authorization(for: request)
            request.headers["Accept"] = "application/json"
            let response = try await transport.send(request)
            let limits = RateLimitHeaders(response)
            exhaustedUntil.withLock { $0 = limits.remaining == 0 ? limits.reset : nil }
            if (200..<300).contains(response.statusCode) { return response.body }
            let error = Self.error(in: response, request: request, limits: limits)
            guard error.code == .rateLimited, attempt < 3 else { throw error }
            try await waitOrThrow(error, reset: error.rateLimitReset)
        }
    }

    /// Sleeps until `reset` when the policy allows it, else throws `error`.
    private func waitOrThrow(_ error: SyncError, reset: Date?) async throws {
        guard case .wait(let maximum) = rateLimitPolicy, let reset, reset.timeIntervalSinceNow <= maximum.seconds
        else { throw error }
        try await sleep(until: reset)
        exhaustedUntil.withLock { $0 = nil }
    }

    /// The typed error of a response of failure.
    private static func error(in response: HTTPResponse, request: HTTPRequest, limits: RateLimitHeaders) -> SyncError {
        let status = response.statusCode
        let bodyError = (try? JSONDocument(response.body)).flatMap { twitterAPIError(in: $0.root) }
        if status == 429 || bodyError?.code == .rateLimited {
            let said = bodyError.map { ": " + $0.apiMessages.map(\.description).joined(separator: "; ") } ?? ""
            let until = limits.reset.map { " until \($0)" } ?? ""
            return SyncError(
                .rateLimited, "the Twitter API's rate limit was reached\(until) (HTTP \(status))\(said)",
                apiMessages: bodyError?.apiMessages ?? [], httpStatus: status, rateLimitReset: limits.reset)
        }
        if let bodyError {
            return SyncError(
                .apiError, "\(bodyError.message) (HTTP \(status))", apiMessages: bodyError.apiMessages,
                httpStatus: status)
        }
        return SyncError(
            .httpStatus, "\(request.method) \(request.redactedURL) answered HTTP \(status)", httpStatus: status)
    }
}
