import Foundation
import ObjDB

extension Tweet {
    /// How an X API v2 post maps onto a tweet: the fields the post carries itself. Its author,
    /// referenced posts, media and edit history are linked by ``XImporter`` from the page's
    /// `includes` (docs/SYNC.md has the whole mapping).
    public static let xMapping: JSONMapping<Tweet> = JSONMapping(Tweet.self) {
        $0.identity(\.id, "id", .integerOrString)
        $0.map(\.text, ["note_tweet.text", "text"])
        $0.map(\.createdAt, "created_at", .iso8601)
        $0.map(\.conversationId, "conversation_id", .integerOrString)
        $0.map(\.inReplyToUserId, "in_reply_to_user_id", .integerOrString)
        $0.map(\.retweetCount, "public_metrics.retweet_count")
        $0.map(\.favoriteCount, "public_metrics.like_count")
        $0.map(\.replyCount, "public_metrics.reply_count")
        $0.map(\.quoteCount, "public_metrics.quote_count")
        $0.map(\.lang, "lang")
        $0.map(\.source, "source")
        $0.map(\.possiblySensitive, "possibly_sensitive")
        $0.map(\.hashtags, ["note_tweet.entities.hashtags", "entities.hashtags"], each: "tag")
        $0.map(\.urls, ["note_tweet.entities.urls", "entities.urls"], using: TweetURL.xMapping)
        $0.map(\.mentions, ["note_tweet.entities.mentions", "entities.mentions"], using: TweetMention.xMapping)
    }
}

extension TwitterUser {
    /// How an X API v2 user maps (`includes.users`, or `data` of a user lookup).
    public static let xMapping: JSONMapping<TwitterUser> = JSONMapping(TwitterUser.self) {
        $0.identity(\.id, "id", .integerOrString)
        $0.map(\.name, "name")
        $0.map(\.screenName, "username")
        $0.map(\.profileImageURL, "profile_image_url", .url)
        $0.map(\.followersCount, "public_metrics.followers_count")
        $0.map(\.friendsCount, "public_metrics.following_count")
        $0.map(\.statusesCount, "public_metrics.tweet_count")
        $0.map(\.listedCount, "public_metrics.listed_count")
        $0.map(\.verified, "verified")
        $0.map(\.createdAt, "created_at", .iso8601)
        $0.map(\.bio, "description")
        $0.map(\.location, "location")
        $0.map(\.isProtected, "protected")
        $0.map(\.pinnedTweetId, "pinned_tweet_id", .integerOrString)
    }

    /// How a v2 mention maps onto a partial user: ID and username. Used with
    /// ``ExistingObjectPolicy/keep``; a mention without an ID links no user.
    public static let xMentionMapping: JSONMapping<TwitterUser> = JSONMapping(
        TwitterUser.self, missingIdentity: .skip
    ) {
        $0.identity(\.id, "id", .integerOrString)
        $0.map(\.screenName, "username")
    }

    /// A post's author known only by its `author_id` (the page did not include the user): a partial
    /// user of that ID alone. Used with ``ExistingObjectPolicy/keep``.
    static let xAuthorMapping: JSONMapping<TwitterUser> = JSONMapping(TwitterUser.self) {
        $0.identity(\.id, "author_id", .integerOrString)
    }
}

extension TweetURL {
    /// How a v2 `entities.urls` element maps.
    public static let xMapping: JSONMapping<TweetURL> = JSONMapping(TweetURL.self) {
        $0.map(\.url, "url")
        $0.map(\.expandedURL, "expanded_url")
        $0.map(\.displayURL, "display_url")
        $0.map(\.start, "start")
        $0.map(\.end, "end")
    }
}

extension TweetMention {
    /// How a v2 `entities.mentions` element maps, with its user upserted as a partial one.
    public static let xMapping: JSONMapping<TweetMention> = JSONMapping(TweetMention.self) {
        $0.map(\.userId, "id", .integerOrString)
        $0.map(\.screenName, "username")
        $0.map(\.user, JSONSource([.root]), using: TwitterUser.xMentionMapping, existing: .keep)
        $0.map(\.start, "start")
        $0.map(\.end, "end")
    }
}

extension TweetMedia {
    /// How a v2 `includes.media` element maps; its t.co link comes from the post's `entities.urls`
    /// entry of the same `media_key`.
    public static let xMapping: JSONMapping<TweetMedia> = JSONMapping(TweetMedia.self) {
        $0.map(\.id, "media_key", .mediaKeyID)
        $0.map(\.mediaKey, "media_key")
        $0.map(\.type, "type")
        $0.map(\.mediaURL, ["url", "preview_image_url"], .url)
        $0.map(\.previewImageURL, "preview_image_url", .url)
        $0.map(\.width, "width")
        $0.map(\.height, "height")
        $0.map(\.durationMs, "duration_ms")
        $0.map(\.altText, "alt_text")
        $0.map(\.viewCount, "public_metrics.view_count")
    }
}

extension JSONTransformer where Value == Int64 {
    /// The media ID in a v2 `media_key`: `3_1425855816016416775` is media 1425855816016416775.
    static var mediaKeyID: Self {
        Self(expecting: "a media key (TYPE_ID)") { json in
            guard let key = json.stringValue, let separator = key.firstIndex(of: "_") else { return nil }
            return Int64(key[key.index(after: separator)...])
        }
    }
}
