import ObjDB

extension Tweet {
    /// How a v1.1 status maps onto a tweet: its user, retweeted and quoted statuses by identity, its
    /// entities as embedded objects, and its mentioned users as partial users.
    public static let jsonMapping: JSONMapping<Tweet> = JSONMapping(Tweet.self) {
        $0.identity(\.id, ["id_str", "id"], .integerOrString)
        $0.map(\.text, ["full_text", "extended_tweet.full_text", "text"])
        $0.map(\.createdAt, "created_at", .twitterDate)
        $0.map(\.user, "user", using: TwitterUser.jsonMapping)
        $0.map(\.retweetedStatus, "retweeted_status", using: Tweet.jsonMapping)
        $0.map(\.quotedStatus, "quoted_status", using: Tweet.jsonMapping)
        $0.map(\.inReplyToStatusId, ["in_reply_to_status_id_str", "in_reply_to_status_id"], .integerOrString)
        $0.map(\.retweetCount, "retweet_count")
        $0.map(\.favoriteCount, "favorite_count")
        $0.map(\.lang, "lang")
        $0.map(\.source, "source")
        $0.map(\.hashtags, "entities.hashtags", each: "text")
        $0.map(\.urls, "entities.urls", using: TweetURL.jsonMapping)
        $0.map(\.mentions, "entities.user_mentions", using: TweetMention.jsonMapping)
        $0.map(\.media, ["extended_entities.media", "entities.media"], using: TweetMedia.jsonMapping)
        $0.map(\.inReplyToUserId, ["in_reply_to_user_id_str", "in_reply_to_user_id"], .integerOrString)
        $0.map(\.retweetedStatusId, ["retweeted_status.id_str", "retweeted_status.id"], .integerOrString)
        $0.map(\.quotedStatusId, ["quoted_status_id_str", "quoted_status_id"], .integerOrString)
        $0.map(\.replyCount, "reply_count")
        $0.map(\.quoteCount, "quote_count")
        $0.map(\.possiblySensitive, "possibly_sensitive")
    }
}

extension TwitterUser {
    /// How a full v1.1 user object maps.
    public static let jsonMapping: JSONMapping<TwitterUser> = JSONMapping(TwitterUser.self) {
        $0.identity(\.id, ["id_str", "id"], .integerOrString)
        $0.map(\.name, "name")
        $0.map(\.screenName, "screen_name")
        $0.map(\.profileImageURL, ["profile_image_url_https", "profile_image_url"], .url)
        $0.map(\.followersCount, "followers_count")
        $0.map(\.friendsCount, "friends_count")
        $0.map(\.statusesCount, "statuses_count")
        $0.map(\.verified, "verified")
        $0.map(\.createdAt, "created_at", .twitterDate)
        $0.map(\.bio, "description")
        $0.map(\.location, "location")
        $0.map(\.isProtected, "protected")
        $0.map(\.listedCount, "listed_count")
    }

    /// How a mention maps onto a partial user: ID, name and screen name. Used with
    /// ``ExistingObjectPolicy/keep``, so it never overwrites a user already stored.
    public static let mentionMapping: JSONMapping<TwitterUser> = JSONMapping(TwitterUser.self) {
        $0.identity(\.id, ["id_str", "id"], .integerOrString)
        $0.map(\.name, "name")
        $0.map(\.screenName, "screen_name")
    }
}

extension TweetURL {
    /// How an `entities.urls` element maps.
    public static let jsonMapping: JSONMapping<TweetURL> = JSONMapping(TweetURL.self) {
        $0.map(\.url, "url")
        $0.map(\.expandedURL, "expanded_url")
        $0.map(\.displayURL, "display_url")
        $0.map(\.start, "indices[0]")
        $0.map(\.end, "indices[1]")
    }
}

extension TweetMention {
    /// How an `entities.user_mentions` element maps, with its user upserted as a partial one.
    public static let jsonMapping: JSONMapping<TweetMention> = JSONMapping(TweetMention.self) {
        $0.map(\.userId, ["id_str", "id"], .integerOrString)
        $0.map(\.screenName, "screen_name")
        $0.map(\.name, "name")
        $0.map(\.user, JSONSource([.root]), using: TwitterUser.mentionMapping, existing: .keep)
        $0.map(\.start, "indices[0]")
        $0.map(\.end, "indices[1]")
    }
}

extension TweetMedia {
    /// How a media entity maps.
    public static let jsonMapping: JSONMapping<TweetMedia> = JSONMapping(TweetMedia.self) {
        $0.map(\.id, ["id_str", "id"], .integerOrString)
        $0.map(\.type, "type")
        $0.map(\.mediaURL, ["media_url_https", "media_url"], .url)
        $0.map(\.url, "url")
        $0.map(\.displayURL, "display_url")
        $0.map(\.expandedURL, "expanded_url")
        $0.map(\.width, "sizes.large.w")
        $0.map(\.height, "sizes.large.h")
        $0.map(\.altText, "ext_alt_text")
    }
}
