import Foundation

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
    public var rateLimitPolicy: RateLimitPolicy { requester.rateLimitPolicy }
    /// How long each request may take.
    public var timeout: Duration { requester.timeout }
    private let credentials: TwitterCredentials
    private let requester: RateLimitedRequester

    /// A client signing with `credentials`, sending through `transport` to `baseURL`.
    public init(
        credentials: TwitterCredentials, baseURL: URL = TwitterClient.defaultBaseURL,
        transport: any HTTPTransport = URLSessionTransport(), rateLimitPolicy: RateLimitPolicy = .fail,
        timeout: Duration = .seconds(30)
    ) {
        self.credentials = credentials
        self.baseURL = baseURL
        requester = RateLimitedRequester(
            apiName: "Twitter API", transport: transport, rateLimitPolicy: rateLimitPolicy, timeout: timeout,
            bodyError: twitterAPIError(in:))
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
        return try await requester.get(components.url!) { credentials.authorization(for: $0) }
    }
}
