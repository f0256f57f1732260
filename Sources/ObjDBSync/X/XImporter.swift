import Foundation
import ObjDB

/// Imports X API v2 response bodies (timelines, search, post and user lookups) into the models
/// Twitter API v1.1 bodies fill: a post is the same ``Tweet`` and its author the same
/// ``TwitterUser`` whichever API it came from.
///
/// ```swift
/// let db = try Database(configuration: .syncStore(path: "x.objdb"))
/// let page = try XImporter(database: db).importPage(data, timeline: "home")
/// print(page.summary)            // "Timeline: 1 inserted, …; Tweet: 12 inserted, …"
/// print(page.nextToken ?? "-")   // the pagination_token of the next, older page
/// ```
///
/// Each page is one write transaction: a page that does not map (or a problem document) leaves the
/// store as it was, and the same page again changes nothing. Posts in `data` and `includes.tweets`
/// are upserted by ID (exact from the ID string), with their authors from `includes.users` (a
/// partial user of the `author_id` alone when the page left the author out). A retweet links the
/// retweeted post, a quote the quoted one and a reply the post it answers, when the page includes
/// it or the store holds it; the referenced IDs are kept either way. A long post keeps its
/// `note_tweet` text, an edited post its edit history, and media from `includes.media` are stored
/// in the posts that attach them. Partial `errors` beside the data go into
/// ``ImportSummary/partialErrors`` and fail nothing; a page without `data` imports as empty.
public struct XImporter: Sendable {
    /// The store.
    public let database: Database

    /// The model classes a store needs to hold X imports: those of ``TwitterImporter/modelTypes``.
    public static var modelTypes: [ObjectBase.Type] { TwitterImporter.modelTypes }

    /// An importer into `database`, which must have been opened with ``modelTypes``.
    public init(database: Database) {
        self.database = database
    }

    /// Imports one response body, in one write transaction.
    ///
    /// - Parameter timeline: the timeline the page's own posts join (`home`, `mentions`,
    ///   `user:NAME`, `search:QUERY`), or `nil`. A user lookup joins no timeline.
    /// - Returns: the page's own post IDs, its `next_token`, and what the import did.
    /// - Throws: ``SyncError``: the JSON path of the first value that does not map, an API error
    ///   (a problem document), or ``SyncError/Code/invalidArgument`` for a timeline name of no known form.
    @discardableResult
    public func importPage(_ data: Data, timeline: String? = nil) throws -> TwitterPage {
        try importPage(data, timeline: timeline, editingGaps: nil)
    }

    /// Imports one response body and, in the same transaction, rewrites the timeline's gaps with
    /// `editGaps`, as ``TwitterImporter`` does for v1.1.
    func importPage(_ data: Data, timeline: String?, editingGaps editGaps: GapEdit?) throws -> TwitterPage {
        try Timeline.validate(timeline)
        let document = try JSONDocument(data)
        let payload = try XPayload(document.root)
        // A user lookup holds no posts of any timeline.
        let joined = payload.data.contains { !XPayload.isUser($0) } || payload.data.isEmpty ? timeline : nil
        let (ids, summary) = try database.importJSON(document) { _, session -> [Int64] in
            let page = try XPageImport(payload, session: session)
            let ids = try page.run()
            if let joined {
                let facts = TimelinePageFacts(statusIDs: ids, nextToken: payload.nextToken)
                try Timeline.merge(
                    ids, into: joined, editingGaps: editGaps.map { edit in { edit($0, facts) } },
                    editChains: page.editChains, in: session)
            }
            return ids
        }
        var total = summary
        total.partialErrors = payload.partialErrors
        return TwitterPage(
            statusIDs: ids, timeline: joined, summary: total, nextToken: payload.nextToken,
            previousToken: payload.previousToken)
    }
}

/// One v2 page being imported, inside its write transaction: the page's includes by ID, and the
/// posts upserted so far.
private final class XPageImport {
    let payload: XPayload
    let session: JSONImportSession
    /// Posts of `data` and `includes.tweets`, by ID: what a reference may link.
    private var posts: [Int64: JSONValue] = [:]
    private var media: [String: JSONValue] = [:]
    /// Posts whose upsert is under way: a reference back to one (a cycle no real page has) links nothing.
    private var inProgress: Set<Int64> = []
    /// The edit histories (more than one ID) met, for the timeline to show each post once.
    private(set) var editChains: [[Int64]] = []

    init(_ payload: XPayload, session: JSONImportSession) throws {
        self.payload = payload
        self.session = session
        for post in payload.data where !XPayload.isUser(post) {
            if let id = try Self.id(of: post), posts[id] == nil { posts[id] = post }
        }
        for post in payload.includedPosts {
            if let id = try Self.id(of: post), posts[id] == nil { posts[id] = post }
        }
        for item in payload.includedMedia {
            if let key = item["media_key"]?.stringValue, media[key] == nil { media[key] = item }
        }
    }

    /// Upserts everything; returns the IDs of `data`'s posts, in order.
    func run() throws -> [Int64] {
        // Full users first, so that a mention or an author_id finds the full copy.
        for user in payload.includedUsers { try session.upsert(user, using: TwitterUser.xMapping) }
        var own: [Int64] = []
        for item in payload.data {
            if XPayload.isUser(item) {
                try session.upsert(item, using: TwitterUser.xMapping)
            } else if let tweet = try upsertPost(item) {
                own.append(tweet.id)
            }
        }
        for post in payload.includedPosts { try upsertPost(post) }
        try spreadEditHistories()
        return own
    }

    /// Gives every stored version of each edited post the whole history the store now knows, so
    /// that an older copy arriving later still knows its newer version (and the timeline shows that).
    private func spreadEditHistories() throws {
        guard !editChains.isEmpty else { return }
        var families: [Set<Int64>] = []
        for chain in editChains {
            var family = Set(chain)
            while let overlapping = families.firstIndex(where: { !$0.isDisjoint(with: family) }) {
                family.formUnion(families.remove(at: overlapping))
            }
            families.append(family)
        }
        let transaction = session.transaction
        editChains = []
        for var family in families {
            let stored = family.compactMap { transaction.object(ofType: Tweet.self, forPrimaryKey: $0) }
            for tweet in stored { family.formUnion(tweet.editHistoryIds) }
            let chain = family.sorted()
            editChains.append(chain)
            for tweet in stored where !tweet.editHistoryIds.elementsEqual(chain) {
                let update = Tweet()
                update.id = tweet.id
                update.editHistoryIds = List(chain)
                let outcome: WriteTransaction.UpsertOutcome
                do {
                    outcome = try transaction.upsert(update, updating: [\.editHistoryIds])
                } catch {
                    throw SyncError(.store, "the store refused Tweet \(update.id): \(error)", underlyingError: error)
                }
                session.recordDirectWrite(
                    outcome, to: Tweet.self, key: AnyHashable(update.id), typeName: "Tweet", objectKey: .int(update.id))
            }
        }
    }

    @discardableResult
    private func upsertPost(_ json: JSONValue) throws -> Tweet? {
        let id = try Self.id(of: json)
        if let id { inProgress.insert(id) }
        defer { if let id { inProgress.remove(id) } }
        return try session.upsert(json, using: Tweet.xMapping) { tweet in try self.complete(tweet, from: json) }
    }

    /// Sets what the post's own fields do not say: links found through the page and the store.
    private func complete(_ tweet: Tweet, from json: JSONValue) throws -> [PartialKeyPath<Tweet>] {
        var written: [PartialKeyPath<Tweet>] = []
        let stored = session.transaction.object(ofType: Tweet.self, forPrimaryKey: tweet.id)
        if let author = json["author_id"], !author.isNull,
            let user = try session.upsert(json, using: TwitterUser.xAuthorMapping, existing: .keep)
        {
            tweet.user = user
            written.append(\.user)
        }
        if let references = json["referenced_tweets"], !references.isNull {
            try link(references, of: tweet, written: &written)
        }
        if let history = json["edit_history_tweet_ids"], !history.isNull {
            var ids = Set(try Self.ids(in: history))
            if let stored { ids.formUnion(stored.editHistoryIds) }
            let chain = ids.sorted()
            tweet.editHistoryIds = List(chain)
            written.append(\.editHistoryIds)
            if chain.count > 1 { editChains.append(chain) }
        }
        if try json.value(at: "note_tweet.text")?.stringValue != nil {
            tweet.isLongPost = true
            written.append(\.isLongPost)
        }
        if json["created_at"] == nil, stored == nil, let date = snowflakeDate(tweet.id) {
            tweet.createdAt = date
            written.append(\.createdAt)
        }
        if let keys = try json.value(at: "attachments.media_keys"), !keys.isNull {
            let attached = try attachedMedia(keys, of: json)
            if !attached.isEmpty {
                tweet.media = List(attached)
                written.append(\.media)
            }
        }
        return written
    }

    /// Links `referenced_tweets`: `retweeted`, `quoted` and `replied_to`, by ID always and by link
    /// when the post is on the page or in the store.
    private func link(_ references: JSONValue, of tweet: Tweet, written: inout [PartialKeyPath<Tweet>]) throws {
        guard references.kind == .array else {
            throw SyncError(
                .unexpectedValue, at: references.path, "expected an array of references, found \(references)")
        }
        for reference in references.elements {
            guard reference.kind == .object else {
                throw SyncError(.unexpectedValue, at: reference.path, "expected a reference object, found \(reference)")
            }
            guard let typeJSON = reference["type"], let type = typeJSON.stringValue else {
                throw SyncError(
                    .missingValue, at: reference.path.appending(.key("type")), "a reference needs a type string")
            }
            guard let id = try Self.id(of: reference) else {
                throw SyncError(.missingValue, at: reference.path.appending(.key("id")), "a reference needs an id")
            }
            let target = try post(id)
            switch type {
            case "retweeted":
                tweet.retweetedStatusId = id
                written.append(\.retweetedStatusId)
                if let target {
                    tweet.retweetedStatus = target
                    written.append(\.retweetedStatus)
                }
            case "quoted":
                tweet.quotedStatusId = id
                written.append(\.quotedStatusId)
                if let target {
                    tweet.quotedStatus = target
                    written.append(\.quotedStatus)
                }
            case "replied_to":
                tweet.inReplyToStatusId = id
                written.append(\.inReplyToStatusId)
                if let target {
                    tweet.inReplyTo = target
                    written.append(\.inReplyTo)
                }
            default:
                continue
            }
        }
    }

    /// The post `id`: upserted from the page when it holds it, else the stored one, else `nil`.
    private func post(_ id: Int64) throws -> Tweet? {
        if inProgress.contains(id) { return nil }
        if let json = posts[id] { return try upsertPost(json) }
        return session.transaction.object(ofType: Tweet.self, forPrimaryKey: id)
    }

    /// The media of `attachments.media_keys` that `includes.media` holds, in order, each with its
    /// t.co link from the post's `entities.urls`.
    private func attachedMedia(_ keys: JSONValue, of post: JSONValue) throws -> [TweetMedia] {
        guard keys.kind == .array else {
            throw SyncError(.unexpectedValue, at: keys.path, "expected an array of media keys, found \(keys)")
        }
        let links = try (post.value(at: "note_tweet.entities.urls") ?? post.value(at: "entities.urls"))?.elements ?? []
        var attached: [TweetMedia] = []
        for keyJSON in keys.elements {
            guard let key = keyJSON.stringValue else {
                throw SyncError(.unexpectedValue, at: keyJSON.path, "expected a media key string, found \(keyJSON)")
            }
            guard let json = media[key] else { continue }
            let item = try session.makeEmbedded(json, using: TweetMedia.xMapping)
            if let link = links.first(where: { $0["media_key"]?.stringValue == key }) {
                item.url = link["url"]?.stringValue ?? item.url
                item.displayURL = link["display_url"]?.stringValue
                item.expandedURL = link["expanded_url"]?.stringValue
            }
            attached.append(item)
        }
        return attached
    }

    /// The `id` of a post or reference, exact: a string of digits (or an integer).
    private static func id(of json: JSONValue) throws -> Int64? {
        guard let value = json["id"], !value.isNull else { return nil }
        return try JSONTransformer<Int64>.integerOrString.transform(value)
    }

    private static func ids(in json: JSONValue) throws -> [Int64] {
        guard json.kind == .array else {
            throw SyncError(.unexpectedValue, at: json.path, "expected an array of post IDs, found \(json)")
        }
        return try json.elements.map { try JSONTransformer<Int64>.integerOrString.transform($0) }
    }
}

/// When a post of `id` was made, from the ID itself: X's IDs since November 2010 ("Snowflake")
/// hold milliseconds since 2010-11-04T01:42:54.657Z above their 22 low bits. `nil` for the
/// sequential IDs before.
func snowflakeDate(_ id: Int64) -> Date? {
    guard id >= 30_000_000_000 else { return nil }
    let milliseconds = (id >> 22) + 1_288_834_974_657
    return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
}
