import Foundation
import Synchronization

/// An X API v2 timeline to fetch: where it lives and which ``Timeline`` it fills (the same
/// timelines v1.1's ``TwitterEndpoint``s fill).
public enum XEndpoint: Sendable, Hashable {
    /// `users/:id/timelines/reverse_chronological`: the user's home timeline (user context only).
    case home
    /// `users/:id/mentions`: posts mentioning the user (user context only).
    case mentions
    /// `users/:id/tweets` of the user with this username: one account's posts.
    case user(String)
    /// `tweets/search/recent?query=QUERY`: posts of the last seven days matching a query.
    case search(String)

    /// The name of the ``Timeline`` its posts join: `home`, `mentions`, `user:NAME`, `search:QUERY`.
    public var timelineName: String {
        switch self {
        case .home: return Timeline.homeName
        case .mentions: return Timeline.mentionsName
        case .user(let name): return Timeline.name(user: name)
        case .search(let query): return Timeline.name(search: query)
        }
    }

    /// The `max_results` the endpoint accepts.
    public var pageSizes: ClosedRange<Int> {
        switch self {
        case .home: return 1...100
        case .mentions, .user: return 5...100
        case .search: return 10...100
        }
    }

    /// The request parameter that takes a page's `next_token`: search calls it `next_token`, the
    /// timelines `pagination_token`.
    var paginationParameter: String {
        if case .search = self { return "next_token" }
        return "pagination_token"
    }
}

/// Fetches X API v2 timeline and search pages: bearer tokens (app-only, or a user's OAuth 2.0
/// access token) or OAuth 1.0a signatures, the fields and expansions the importer maps asked for
/// explicitly, rate limits, and problem documents as typed ``SyncError``s. ``TimelineLoader`` pages
/// with it; it stores nothing itself.
///
/// ```swift
/// let client = XClient(credentials: try SyncCredentials.load().requireX())
/// let body = try await client.fetchPage(.search("objdb"), sinceID: 1_790_000_000_000_000_000)
/// let page = try XImporter(database: db).importPage(body, timeline: "search:objdb")
/// ```
///
/// Home and mentions need the authenticated user's ID (`users/me`), a user timeline its user's
/// (`users/by/username/NAME`): the client asks once and remembers. HTTP 429 (or a request made
/// while the last response said `x-rate-limit-remaining: 0`) is ``SyncError/Code/rateLimited``
/// with ``SyncError/rateLimitReset`` from `x-rate-limit-reset`, unless the ``RateLimitPolicy``
/// waits; a problem document is ``SyncError/Code/apiError`` with its `detail` and `type`. No token
/// appears in an error or a description.
public final class XClient: Sendable {
    /// X API v2: `https://api.x.com/2/`.
    public static let defaultBaseURL = URL(string: "https://api.x.com/2/")!

    /// The post fields asked for: everything ``XImporter`` stores.
    public static let tweetFields = [
        "attachments", "author_id", "conversation_id", "created_at", "edit_history_tweet_ids", "entities",
        "in_reply_to_user_id", "lang", "note_tweet", "possibly_sensitive", "public_metrics", "referenced_tweets",
        "source",
    ]
    /// The expansions asked for: authors, referenced posts and their authors, media, mentioned users.
    public static let expansions = [
        "author_id", "referenced_tweets.id", "referenced_tweets.id.author_id", "attachments.media_keys",
        "entities.mentions.username", "in_reply_to_user_id",
    ]
    /// The user fields asked for.
    public static let userFields = [
        "created_at", "description", "location", "pinned_tweet_id", "profile_image_url", "protected",
        "public_metrics", "verified",
    ]
    /// The media fields asked for.
    public static let mediaFields = [
        "alt_text", "duration_ms", "height", "media_key", "preview_image_url", "public_metrics", "type", "url",
        "width",
    ]

    /// Where requests go: ``defaultBaseURL``, or a test server's.
    public let baseURL: URL
    /// What to do at the rate limit.
    public var rateLimitPolicy: RateLimitPolicy { requester.rateLimitPolicy }
    /// How long each request may take.
    public var timeout: Duration { requester.timeout }
    private let credentials: XCredentials
    private let requester: RateLimitedRequester
    /// User IDs asked for so far, by lower-cased username; the authenticated user's under "".
    private let userIDs = Mutex<[String: Int64]>([:])

    /// A client authenticating with `credentials`, sending through `transport` to `baseURL`.
    public init(
        credentials: XCredentials, baseURL: URL = XClient.defaultBaseURL,
        transport: any HTTPTransport = URLSessionTransport(), rateLimitPolicy: RateLimitPolicy = .fail,
        timeout: Duration = .seconds(30)
    ) {
        self.credentials = credentials
        self.baseURL = baseURL
        requester = RateLimitedRequester(
            apiName: "X API", transport: transport, rateLimitPolicy: rateLimitPolicy, timeout: timeout,
            bodyError: xAPIError(in:))
    }

    /// Fetches one page of `endpoint`: posts with IDs above `sinceID` and below `untilID` (v2's
    /// bounds, both exclusive), newest first, at most `maxResults` (clamped to what the endpoint
    /// takes); `paginationToken` (a page's `meta.next_token`) continues the same query.
    ///
    /// - Returns: the response body, for ``XImporter/importPage(_:timeline:)``.
    /// - Throws: ``SyncError``: ``SyncError/Code/credentials`` for home or mentions with an app-only
    ///   token, rate limited, an API error, a timeout, cancelled, or no response.
    public func fetchPage(
        _ endpoint: XEndpoint, sinceID: Int64? = nil, untilID: Int64? = nil, paginationToken: String? = nil,
        maxResults: Int = 100
    ) async throws -> Data {
        let path: String
        var parameters: [(name: String, value: String)] = []
        switch endpoint {
        case .home:
            path = "users/\(try await authenticatedUserID())/timelines/reverse_chronological"
        case .mentions:
            path = "users/\(try await authenticatedUserID())/mentions"
        case .user(let username):
            path = "users/\(try await userID(username: username))/tweets"
        case .search(let query):
            path = "tweets/search/recent"
            parameters.append(("query", query))
        }
        let range = endpoint.pageSizes
        parameters.append(("max_results", String(min(range.upperBound, max(range.lowerBound, maxResults)))))
        if let sinceID { parameters.append(("since_id", String(sinceID))) }
        if let untilID { parameters.append(("until_id", String(untilID))) }
        if let paginationToken {
            parameters.append((endpoint.paginationParameter, paginationToken))
        }
        parameters += [
            ("tweet.fields", Self.tweetFields.joined(separator: ",")),
            ("expansions", Self.expansions.joined(separator: ",")),
            ("user.fields", Self.userFields.joined(separator: ",")),
            ("media.fields", Self.mediaFields.joined(separator: ",")),
        ]
        return try await get(path, parameters: parameters)
    }

    /// The ID of the user named `username` (`users/by/username/NAME`), asked once and remembered.
    ///
    /// - Throws: ``SyncError/Code/invalidArgument`` for a name of other characters than letters,
    ///   digits and `_`; ``SyncError/Code/apiError`` when no such user exists.
    public func userID(username: String) async throws -> Int64 {
        let name = username.hasPrefix("@") ? String(username.dropFirst()) : username
        guard !name.isEmpty, name.utf8.count <= 50,
            name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
        else {
            throw SyncError(.invalidArgument, "'\(username)' is not an X username: letters, digits and _ only")
        }
        if let known = userIDs.withLock({ $0[name.lowercased()] }) { return known }
        let id = try await lookUpUser("users/by/username/\(name)", describing: "@\(name)")
        userIDs.withLock { $0[name.lowercased()] = id }
        return id
    }

    /// The authenticated user's ID (`users/me`), asked once and remembered.
    ///
    /// - Throws: ``SyncError/Code/credentials`` with an app-only token, which acts for no user.
    public func authenticatedUserID() async throws -> Int64 {
        guard credentials.isUserContext else {
            throw SyncError(
                .credentials,
                "home and mentions need a user context: set X_USER_ACCESS_TOKEN (an OAuth 2.0 user access token) "
                    + "or the four TWITTER_* OAuth 1.0a keys; an app-only bearer token reads user and search only")
        }
        if let known = userIDs.withLock({ $0[""] }) { return known }
        let id = try await lookUpUser("users/me", describing: "the authenticated user")
        userIDs.withLock { $0[""] = id }
        return id
    }

    /// GETs a user lookup and reads its `data.id`.
    private func lookUpUser(_ path: String, describing who: String) async throws -> Int64 {
        let body = try await get(path, parameters: [])
        let payload = try XPayload(try JSONDocument(body).root)
        if let user = payload.data.first, let idJSON = user["id"] {
            return try JSONTransformer<Int64>.integerOrString.transform(idJSON)
        }
        guard payload.partialErrors.isEmpty else {
            let said = payload.partialErrors.map(\.description).joined(separator: "; ")
            throw SyncError(.apiError, "the X API found no \(who): \(said)", apiMessages: payload.partialErrors)
        }
        throw SyncError(.unexpectedPayload, "the X API answered a lookup of \(who) without a user ID")
    }

    /// Sends a GET of `path` below the base URL, minding the rate limit; returns a successful body.
    private func get(_ path: String, parameters: [(name: String, value: String)]) async throws -> Data {
        var components = URLComponents(url: baseURL.appendingPathComponent(path), resolvingAgainstBaseURL: false)!
        if !parameters.isEmpty { components.percentEncodedQuery = queryString(parameters) }
        return try await requester.get(components.url!) { credentials.authorization(for: $0) }
    }
}
