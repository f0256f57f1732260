import Foundation
import ObjDB

/// A post (a status of Twitter's API v1.1, a post of X API v2), as the importers store it: both
/// APIs' copies of one post land on the same object, by its ID.
///
/// ```swift
/// let newest = try db.view().objects(Tweet.self).sorted(byKeyPath: "id", ascending: false).limit(10)
/// for tweet in newest { print(tweet.user?.screenName ?? "?", tweet.text) }
/// ```
///
/// The type and property names are a contract that scripts and `objdb-inspect` users rely on.
/// A retweet links the original (``retweetedStatus``), a quote the quoted tweet (``quotedStatus``):
/// each is a `Tweet` of its own. The mappings are ``jsonMapping`` (v1.1) and ``xMapping`` (v2).
public final class Tweet: Object {
    /// The status ID, exact from `id_str` (IDs exceed 2⁵³, so never through `Double`).
    @Persisted(primaryKey: true) public var id: Int64
    /// The text: `full_text` in extended mode, else `text`.
    @Persisted(indexed: .fullText) public var text = ""
    /// When the status was posted.
    @Persisted(indexed: true) public var createdAt = Date(timeIntervalSince1970: 0)
    /// The author.
    @Persisted public var user: TwitterUser?
    /// The retweeted status, when this one is a retweet.
    @Persisted public var retweetedStatus: Tweet?
    /// The quoted status, when this one quotes another (and the API included it).
    @Persisted public var quotedStatus: Tweet?
    /// The status this one replies to.
    @Persisted public var inReplyToStatusId: Int64?
    /// How often it was retweeted.
    @Persisted public var retweetCount = 0
    /// How often it was liked.
    @Persisted public var favoriteCount = 0
    /// The BCP 47 language the API detected, if any.
    @Persisted public var lang: String?
    /// The client it was posted with, as the API's HTML link.
    @Persisted public var source = ""
    /// The hashtags, without `#`, in order.
    @Persisted public var hashtags: List<String>
    /// The links in the text.
    @Persisted public var urls: List<TweetURL>
    /// The users mentioned.
    @Persisted public var mentions: List<TweetMention>
    /// The photos and videos (from `extended_entities` when present).
    @Persisted public var media: List<TweetMedia>
    /// The timelines that hold this status as an entry of their own.
    @Persisted(originProperty: "entries") public var timelines: LinkingObjects<Timeline>

    // Since X API v2 (#31); v1.1 fills them where its payloads have the field.

    /// The ID of the first post of the conversation (thread) this one belongs to.
    @Persisted public var conversationId: Int64?
    /// The author of the post this one replies to.
    @Persisted public var inReplyToUserId: Int64?
    /// The post this one replies to, when the payload included it or the store held it.
    @Persisted public var inReplyTo: Tweet?
    /// The retweeted post's ID, also when the payload did not include the post itself.
    @Persisted public var retweetedStatusId: Int64?
    /// The quoted post's ID, also when the payload did not include the post itself.
    @Persisted public var quotedStatusId: Int64?
    /// How often it was replied to, when the API said.
    @Persisted public var replyCount: Int?
    /// How often it was quoted, when the API said.
    @Persisted public var quoteCount: Int?
    /// The IDs of every version of an edited post, oldest first: the last is the newest version.
    /// One ID for a post never edited; empty when the API did not say.
    @Persisted public var editHistoryIds: List<Int64>
    /// Whether the API flagged a link in it as possibly sensitive.
    @Persisted public var possiblySensitive: Bool?
    /// Whether ``text`` is a long post's full text (v2's `note_tweet`), beyond 280 characters.
    @Persisted public var isLongPost = false

    /// Whether a newer version of this post exists: the edit history names a later ID.
    public var isSupersededByEdit: Bool { editHistoryIds.last.map { $0 != id } ?? false }
}

/// A link in a tweet's text (`entities.urls`).
public final class TweetURL: EmbeddedObject {
    /// The t.co link as it appears in the text.
    @Persisted public var url = ""
    /// Where it leads.
    @Persisted public var expandedURL: String?
    /// How clients show it.
    @Persisted public var displayURL: String?
    /// Where it starts in the text, in Unicode code points.
    @Persisted public var start = 0
    /// Where it ends in the text.
    @Persisted public var end = 0
}

/// A user mentioned in a tweet (`entities.user_mentions`).
public final class TweetMention: EmbeddedObject {
    /// The mentioned user's ID.
    @Persisted public var userId: Int64
    /// The handle, without `@`.
    @Persisted public var screenName = ""
    /// The display name.
    @Persisted public var name = ""
    /// The mentioned user: stored as a partial user when not known already, never overwriting a full one.
    @Persisted public var user: TwitterUser?
    /// Where the mention starts in the text.
    @Persisted public var start = 0
    /// Where it ends.
    @Persisted public var end = 0
}

/// A photo, video or GIF attached to a tweet (`extended_entities.media`, else `entities.media`).
public final class TweetMedia: EmbeddedObject {
    /// The media ID.
    @Persisted public var id: Int64
    /// `photo`, `video` or `animated_gif`.
    @Persisted public var type = ""
    /// The HTTPS URL of the image (a video's still).
    @Persisted public var mediaURL = ""
    /// The t.co link in the text.
    @Persisted public var url = ""
    /// How clients show the link.
    @Persisted public var displayURL: String?
    /// Where the link leads.
    @Persisted public var expandedURL: String?
    /// The large size's width in pixels.
    @Persisted public var width: Int?
    /// The large size's height in pixels.
    @Persisted public var height: Int?

    // Since X API v2 (#31).

    /// v2's `media_key` (`3_1425855816016416775`: the type, then the media ID).
    @Persisted public var mediaKey: String?
    /// A video's or GIF's still image (v2's `preview_image_url`).
    @Persisted public var previewImageURL: String?
    /// A video's length in milliseconds.
    @Persisted public var durationMs: Int?
    /// The description the author gave for people who cannot see the image.
    @Persisted public var altText: String?
    /// A video's view count, when the API said.
    @Persisted public var viewCount: Int?
}
