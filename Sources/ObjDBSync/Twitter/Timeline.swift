import ObjDB

/// A named timeline and its own entries, newest first: `home`, `mentions`, `user:NAME`, `search:QUERY`.
///
/// ```swift
/// let home = try db.view().object(ofType: Timeline.self, forPrimaryKey: "home")
/// for tweet in home?.entries.prefix(20) ?? [] { print(tweet.text) }
/// ```
///
/// Entries are the statuses the timeline's pages held at their top level, kept ordered by ID,
/// descending, without repeats, whichever API (v1.1 or X v2) the pages came from. ``newestId`` and
/// ``oldestId`` are their first and last IDs: the `since_id` and `max_id` (v2: `until_id`) cursors
/// for paging. A retweeted original or a quoted tweet is stored beside its retweet but is never an
/// entry, so it never moves a cursor; an edited post is an entry once, as its newest version.
///
/// ``gaps`` are the ID ranges between ``oldestId`` and ``newestId`` that a ``TimelineLoader``
/// has not fetched yet (a load stopped at its page limit or by an error): every status of the
/// timeline in that span is an entry unless it lies in a gap.
public final class Timeline: Object {
    /// The name: `home`, `mentions`, `user:NAME` or `search:QUERY`.
    @Persisted(primaryKey: true) public var name = ""
    /// The timeline's own statuses, newest first.
    @Persisted public var entries: List<Tweet>
    /// The highest entry ID: ask for newer statuses with `since_id` set to it.
    @Persisted public var newestId: Int64?
    /// The lowest entry ID: ask for older ones with `max_id` set to one less.
    @Persisted public var oldestId: Int64?
    /// The ranges not fetched yet, newest first; a later ``TimelineLoader/loadNewer(maxPages:progress:)`` fills them.
    @Persisted public var gaps: List<TimelineGap>

    /// The name of the home timeline.
    public static let homeName = "home"
    /// The name of the mentions timeline.
    public static let mentionsName = "mentions"

    /// The name of `screenName`'s user timeline: `user:NAME`.
    public static func name(user screenName: String) -> String { "user:" + screenName }

    /// The name of the timeline of search results for `query`: `search:QUERY`.
    public static func name(search query: String) -> String { "search:" + query }

    /// Whether `name` is a timeline name: `home`, `mentions`, or `user:` or `search:` followed by text.
    public static func isValidName(_ name: String) -> Bool {
        if name == homeName || name == mentionsName { return true }
        for prefix in ["user:", "search:"] where name.hasPrefix(prefix) {
            return name.count > prefix.count
        }
        return false
    }
}

/// A range of IDs a timeline may be missing: statuses above ``sinceId`` and at most ``maxId``,
/// exactly the `since_id` and `max_id` of the v1.1 request that fills it (v2's `until_id` is
/// ``maxId`` + 1).
public final class TimelineGap: EmbeddedObject {
    /// The highest ID below the gap that the timeline holds: the request's `since_id`.
    @Persisted public var sinceId: Int64 = 0
    /// The highest ID the gap may hold: the request's `max_id`.
    @Persisted public var maxId: Int64 = 0

    /// Whether `id` lies in the gap.
    public func contains(_ id: Int64) -> Bool { id > sinceId && id <= maxId }
}
