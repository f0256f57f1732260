import Foundation
import ObjDB

/// A status of Twitter's API v1.1, as the Twitter importer stores it.
///
/// ```swift
/// let newest = try db.view().objects(Tweet.self).sorted(byKeyPath: "id", ascending: false).limit(10)
/// for tweet in newest { print(tweet.user?.screenName ?? "?", tweet.text) }
/// ```
///
/// The type and property names are a contract that scripts and `objdb-inspect` users rely on.
/// A retweet links the original (``retweetedStatus``), a quote the quoted tweet (``quotedStatus``):
/// each is a `Tweet` of its own. The mapping is ``jsonMapping``.
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
}
