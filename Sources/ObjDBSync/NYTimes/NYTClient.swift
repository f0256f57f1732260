import Foundation
import Synchronization

/// The order of Article Search results (`sort`).
public enum ArticleSearchSort: String, Sendable, Hashable, CaseIterable {
    /// Newest first.
    case newest
    /// Oldest first.
    case oldest
    /// The API's relevance order (its default).
    case relevance
}

/// Fetches NYT Article Search API v2 pages (`articlesearch.json`), at most one call per
/// ``minimumDelay``, and loads searches into a store through ``NYTImporter``.
///
/// ```swift
/// let client = NYTClient(apiKey: try SyncCredentials.load().requireNYTAPIKey())
/// let loaded = try await client.load(ArticleSearchQuery("bailout"), pages: 3, into: NYTImporter(database: db))
/// print(loaded.articleCount)
/// ```
///
/// NYT allows 5 calls a minute, hence the default delay of 12 seconds between calls (tests pass
/// zero). A `fault` body, a `status` other than `OK`, or HTTP 429 become typed ``SyncError``s;
/// the key (the `api-key` parameter) appears in no error.
public final class NYTClient: Sendable {
    /// `https://api.nytimes.com/svc/search/v2/`.
    public static let defaultBaseURL = URL(string: "https://api.nytimes.com/svc/search/v2/")!
    /// Docs per page: the API's fixed 10.
    public static let pageSize = 10
    /// The highest page the API serves, zero-based: 99 (so at most 1,000 docs a search).
    public static let maximumPage = 99

    /// Where requests go.
    public let baseURL: URL
    /// The least time between two calls: from the end of one to the start of the next.
    public let minimumDelay: Duration
    /// How long each request may take.
    public let timeout: Duration
    private let apiKey: Secret
    private let transport: any HTTPTransport
    /// When the next call may start.
    private let nextCall = Mutex<ContinuousClock.Instant?>(nil)

    /// A client with `apiKey`, sending through `transport` to `baseURL`.
    public init(
        apiKey: Secret, baseURL: URL = NYTClient.defaultBaseURL, transport: any HTTPTransport = URLSessionTransport(),
        minimumDelay: Duration = .seconds(12), timeout: Duration = .seconds(30)
    ) {
        self.apiKey = apiKey
        self.baseURL = baseURL
        self.transport = transport
        self.minimumDelay = minimumDelay
        self.timeout = timeout
    }

    /// Fetches page `page` (zero-based, 10 docs each) of `search`, after waiting out the delay.
    ///
    /// - Throws: ``SyncError/Code/invalidArgument`` for an empty query or a page outside 0…99;
    ///   otherwise what the request or the API's answer was.
    public func fetchPage(_ search: ArticleSearchQuery, page: Int = 0) async throws -> Data {
        guard !search.query.isEmpty else { throw SyncError(.invalidArgument, "a search needs a query") }
        guard (0...Self.maximumPage).contains(page) else {
            throw SyncError(.invalidArgument, "page \(page) is outside 0…\(Self.maximumPage), the pages NYT serves")
        }
        var parameters: [(name: String, value: String)] = [("q", search.query)]
        if let filter = search.filter { parameters.append(("fq", filter)) }
        if let begin = search.beginDate { parameters.append(("begin_date", ArticleSearchQuery.dayString(begin))) }
        if let end = search.endDate { parameters.append(("end_date", ArticleSearchQuery.dayString(end))) }
        if let sort = search.sort { parameters.append(("sort", sort.rawValue)) }
        parameters += [("page", String(page)), ("api-key", apiKey.revealed)]
        var components = URLComponents(
            url: baseURL.appendingPathComponent("articlesearch.json"), resolvingAgainstBaseURL: false)!
        components.percentEncodedQuery = queryString(parameters)
        let request = HTTPRequest(url: components.url!, headers: ["Accept": "application/json"], timeout: timeout)
        try await waitForTurn()
        let response: HTTPResponse
        do {
            response = try await transport.send(request)
            callEnded()
        } catch {
            callEnded()
            throw error
        }
        if (200..<300).contains(response.statusCode) { return response.body }
        let limits = RateLimitHeaders(response)
        let bodyError = (try? JSONDocument(response.body)).flatMap { nytAPIError(in: $0.root) }
        if response.statusCode == 429 || bodyError?.code == .rateLimited {
            return try throwRateLimited(bodyError, status: response.statusCode, reset: limits.reset)
        }
        if let bodyError { throw bodyError.received(status: response.statusCode, reset: nil) }
        throw SyncError(
            .httpStatus, "GET \(request.redactedURL) answered HTTP \(response.statusCode)",
            httpStatus: response.statusCode)
    }

    /// Fetches and imports up to `pages` pages of `search` from page `firstPage` on, each page in
    /// a write transaction of its own; stops early at the last page of results.
    ///
    /// A page that fails leaves the store with the pages before it and throws.
    public func load(
        _ search: ArticleSearchQuery, pages: Int = 1, from firstPage: Int = 0, into importer: NYTImporter,
        progress: (@Sendable (ArticleSearchPage) -> Void)? = nil
    ) async throws -> ArticleSearchLoad {
        var load = ArticleSearchLoad()
        var page = firstPage
        while page < firstPage + pages, page <= Self.maximumPage {
            let body = try await fetchPage(search, page: page)
            let imported = try importer.importPage(body, search: search)
            load.pages += 1
            load.articleCount += imported.articleIDs.count
            load.hits = imported.hits
            load.summary.add(imported.summary)
            progress?(imported)
            page += 1
            let end = imported.offset + imported.articleIDs.count
            if imported.articleIDs.count < Self.pageSize || imported.hits.map({ end >= $0 }) == true { break }
        }
        return load
    }

    /// Counts the delay from the end of a call too, so that the server sees the calls at least
    /// ``minimumDelay`` apart however long each took to arrive.
    private func callEnded() {
        let now = ContinuousClock.now
        nextCall.withLock { next in next = max(next ?? now, now + minimumDelay) }
    }

    /// Waits until ``minimumDelay`` has passed since the last call, and claims the slot.
    private func waitForTurn() async throws {
        let now = ContinuousClock.now
        let start = nextCall.withLock { next in
            let start = max(now, next ?? now)
            next = start + minimumDelay
            return start
        }
        if start > now {
            do { try await Task.sleep(until: start, clock: .continuous) } catch {
                throw SyncError(.cancelled, "cancelled while waiting between NYT calls")
            }
        }
    }

    private func throwRateLimited(_ bodyError: SyncError?, status: Int, reset: Date?) throws -> Data {
        let said = bodyError.map { ": " + $0.apiMessages.map(\.description).joined(separator: "; ") } ?? ""
        throw SyncError(
            .rateLimited, "the NYT API's rate limit was reached (HTTP \(status))\(said)",
            apiMessages: bodyError?.apiMessages ?? [], httpStatus: status, rateLimitReset: reset)
    }
}

/// What ``NYTClient/load(_:pages:from:into:progress:)`` fetched and stored.
public struct ArticleSearchLoad: Sendable, Hashable {
    /// Pages fetched and imported.
    public var pages = 0
    /// Docs on them.
    public var articleCount = 0
    /// How many docs the API said match, from the last page.
    public var hits: Int?
    /// The inserted, updated and unchanged objects per type.
    public var summary = ImportSummary()
}
