import Foundation
import ObjDB

/// Imports Twitter API v1.1 response bodies into a store: timelines, searches and users.
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
        if let timeline, !Timeline.isValidName(timeline) {
            throw SyncError(
                .invalidArgument,
                "'\(timeline)' is not a timeline name: use home, mentions, user:NAME or search:QUERY")
        }
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
                try Self.merge(ids, intoTimeline: name, editingGaps: editGaps, in: session)
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

    /// Adds `ids` to the timeline `name` (creating it), keeping its entries ordered by ID, descending.
    ///
    /// Reads and writes the entries as stored links, so a long timeline costs no object per entry.
    private static func merge(
        _ ids: [Int64], intoTimeline name: String, editingGaps editGaps: GapEdit?, in session: JSONImportSession
    ) throws {
        let transaction = session.transaction
        let key = ObjectKey.string(name)
        let stored = try transaction.dynamicObjects("Timeline").first { $0.objectKey == key }
        var old: [Int64] = []
        if let stored, case .list(let links) = try stored.value(forKey: "entries") {
            old = links.compactMap { link in
                guard case .link(_, .int(let id)) = link else { return nil }
                return id
            }
        }
        var merged = old
        let known = Set(old)
        var added = Set<Int64>()
        for id in ids where !known.contains(id) && added.insert(id).inserted { merged.append(id) }
        if !added.isEmpty || !merged.elementsEqual(merged.sorted(by: >)) { merged.sort(by: >) }
        let newest = merged.first.map { StoredValue.int($0) } ?? .null
        let oldest = merged.last.map { StoredValue.int($0) } ?? .null
        var oldGaps: [TimelineGapRange] = []
        if let stored, case .list(let gaps) = try stored.value(forKey: "gaps") {
            oldGaps = gaps.compactMap(TimelineGapRange.init)
        }
        let gaps = editGaps.map { $0(oldGaps, ids) } ?? oldGaps
        if let stored, merged == old, gaps == oldGaps, stored["newestId"] == newest, stored["oldestId"] == oldest {
            session.record(.unchanged, typeName: "Timeline", key: key)
            return
        }
        do {
            try transaction.dynamicCreate(
                "Timeline",
                value: [
                    "name": name, "entries": StoredValue.list(merged.map { .link(type: "Tweet", key: .int($0)) }),
                    "newestId": newest, "oldestId": oldest, "gaps": StoredValue.list(gaps.map(\.storedValue)),
                ], update: .modified)
        } catch {
            throw SyncError(.store, "the store refused timeline \(name): \(error)", underlyingError: error)
        }
        session.record(stored == nil ? .inserted : .updated, typeName: "Timeline", key: key)
    }
}

/// Rewrites a timeline's gaps, given them and a page's own status IDs.
typealias GapEdit = @Sendable (_ gaps: [TimelineGapRange], _ pageIDs: [Int64]) -> [TimelineGapRange]

/// A ``TimelineGap`` as a value: IDs above `sinceID`, at most `maxID`.
struct TimelineGapRange: Hashable, Sendable {
    var sinceID: Int64
    var maxID: Int64

    init(sinceID: Int64, maxID: Int64) {
        self.sinceID = sinceID
        self.maxID = maxID
    }

    init?(_ value: StoredValue) {
        guard case .embedded(let fields) = value, case .int(let since)? = fields["sinceId"],
            case .int(let max)? = fields["maxId"]
        else { return nil }
        self.init(sinceID: since, maxID: max)
    }

    var storedValue: StoredValue { .embedded(["sinceId": .int(sinceID), "maxId": .int(maxID)]) }
}

/// What importing one Twitter response did.
public struct TwitterPage: Sendable, Hashable {
    /// The IDs of the page's own statuses (not retweeted or quoted ones), in the payload's order.
    public let statusIDs: [Int64]
    /// The timeline the statuses joined, if any.
    public let timeline: String?
    /// The inserted, updated and unchanged objects per type.
    public let summary: ImportSummary

    /// The highest ID on the page: the `since_id` of a request for newer statuses.
    public var newestID: Int64? { statusIDs.max() }
    /// The lowest ID on the page: one less is the `max_id` of the next, older page.
    public var oldestID: Int64? { statusIDs.min() }
}
