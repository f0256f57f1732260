import Foundation
import ObjDB

/// Imports Twitter API v1.1 response bodies into a store: timelines, searches and users. X API v2
/// bodies go through ``XImporter``, into the same models.
///
/// ```swift
/// let db = try Database(path: "twitter.objdb", types: TwitterImporter.modelTypes)
/// let page = try TwitterImporter(database: db).importPage(data, timeline: "home")
/// print(page.summary)          // "Timeline: 1 inserted, …; Tweet: 23 inserted, …; TwitterUser: 9 inserted, …"
/// print(page.oldestID ?? 0)    // ask for the next, older page with max_id = oldestID - 1
/// ```
///
/// Each page is one write transaction: a page that does not map (or is an error body) leaves the
/// store exactly as it was, and the same page imported again changes nothing and notifies no
/// observer. Statuses are upserted by ID, with their users, retweeted and quoted statuses (each a
/// ``Tweet`` of its own); a mentioned user is stored as a partial ``TwitterUser`` unless the store
/// knows it already. With a timeline name, the page's own statuses join that ``Timeline``.
///
/// Accepted bodies: `statuses/home_timeline`, `user_timeline` and `mentions_timeline` (arrays),
/// `search/tweets` (`statuses` with `search_metadata`; without a timeline name it goes into
/// `search:QUERY`), and `users/show` (a user and its latest status). Error bodies become a
/// ``SyncError`` of code ``SyncError/Code/apiError`` or ``SyncError/Code/rateLimited`` carrying
/// every message and code.
public struct TwitterImporter: Sendable {
    /// The store.
    public let database: Database

    /// The model classes a store needs to hold Twitter imports.
    public static let modelTypes: [ObjectBase.Type] = [
        Tweet.self, TwitterUser.self, Timeline.self, TimelineGap.self, TweetURL.self, TweetMention.self,
        TweetMedia.self,
    ]

    /// An importer into `database`, which must have been opened with ``modelTypes``.
    public init(database: Database) {
        self.database = database
    }

    /// Imports one response body, in one write transaction.
    ///
    /// - Parameter timeline: the timeline the page belongs to (`home`, `mentions`, `user:NAME`,
    ///   `search:QUERY`), or `nil`. A users/show body joins no timeline.
    /// - Returns: the page's own status IDs and what the import did.
    /// - Throws: ``SyncError``: the JSON path of the first value that does not map, an API error,
    ///   or ``SyncError/Code/invalidArgument`` for a timeline name of no known form.
    @discardableResult
    public func importPage(_ data: Data, timeline: String? = nil) throws -> TwitterPage {
        try importPage(data, timeline: timeline, editingGaps: nil)
    }

    /// Imports one response body and, in the same transaction, rewrites the timeline's gaps with
    /// `editGaps` (given the page's own status IDs): a load that stops after any page leaves its
    /// gap recorded.
    func importPage(_ data: Data, timeline: String?, editingGaps editGaps: GapEdit?) throws -> TwitterPage {
        try Timeline.validate(timeline)
        let document = try JSONDocument(data)
        let payload = try TwitterPayload(document.root)
        let ((statusIDs, timelineName), summary) = try database.importJSON(document) {
            _, session -> ([Int64], String?) in
            switch payload {
            case .statuses(let statuses, let searchQuery):
                var ids: [Int64] = []
                for status in statuses.elements {
                    if let tweet = try session.upsert(status, using: Tweet.jsonMapping) { ids.append(tweet.id) }
                }
                guard let name = timeline ?? searchQuery.map(Timeline.name(search:)) else { return (ids, nil) }
                let facts = TimelinePageFacts(statusIDs: ids)
                try Timeline.merge(
                    ids, into: name, editingGaps: editGaps.map { edit in { edit($0, facts) } }, in: session)
                return (ids, name)
            case .user(let json):
                guard let user = try session.upsert(json, using: TwitterUser.jsonMapping) else { return ([], nil) }
                guard let status = json["status"], !status.isNull else { return ([], nil) }
                // The embedded status leaves its author out: it is the user around it.
                let tweet = try session.upsert(status, using: Tweet.jsonMapping) { tweet in
                    if status["user"] != nil { return [] }
                    tweet.user = user
                    return [\.user]
                }
                return (tweet.map { [$0.id] } ?? [], nil)
            }
        }
        return TwitterPage(statusIDs: statusIDs, timeline: timelineName, summary: summary)
    }
}

/// What importing one Twitter (v1.1) or X (v2) response did.
public struct TwitterPage: Sendable, Hashable {
    /// The IDs of the page's own statuses (not retweeted or quoted ones), in the payload's order.
    public let statusIDs: [Int64]
    /// The timeline the statuses joined, if any.
    public let timeline: String?
    /// The inserted, updated and unchanged objects per type, and a v2 page's partial errors.
    public let summary: ImportSummary
    /// X API v2's `meta.next_token`: there are more (older) results, asked for with it as the
    /// `pagination_token`. Always `nil` for v1.1.
    public let nextToken: String?
    /// X API v2's `meta.previous_token`, for newer results within the same query.
    public let previousToken: String?

    init(
        statusIDs: [Int64], timeline: String?, summary: ImportSummary, nextToken: String? = nil,
        previousToken: String? = nil
    ) {
        self.statusIDs = statusIDs
        self.timeline = timeline
        self.summary = summary
        self.nextToken = nextToken
        self.previousToken = previousToken
    }

    /// The highest ID on the page: the `since_id` of a request for newer statuses.
    public var newestID: Int64? { statusIDs.max() }
    /// The lowest ID on the page: one less is the `max_id` of the next, older page.
    public var oldestID: Int64? { statusIDs.min() }
}
