import Foundation
import ObjDB

/// A user of Twitter's API v1.1 or X API v2, as the importers store it: upserted by ``id`` wherever
/// a payload holds one, from either API.
///
/// A user known only from a mention is *partial*: it has an ID, a name and a screen name, and the
/// counts stay zero until a full copy arrives. A partial copy never overwrites a full one.
public final class TwitterUser: Object {
    /// The user ID, exact from `id_str`.
    @Persisted(primaryKey: true) public var id: Int64
    /// The display name.
    @Persisted(indexed: .fullText) public var name = ""
    /// The handle, without `@`.
    @Persisted(indexed: true) public var screenName = ""
    /// The HTTPS URL of the profile image.
    @Persisted public var profileImageURL: String?
    /// Followers when last seen.
    @Persisted public var followersCount = 0
    /// Accounts followed when last seen.
    @Persisted public var friendsCount = 0
    /// Statuses posted when last seen.
    @Persisted public var statusesCount = 0
    /// Whether the account was verified.
    @Persisted public var verified = false
    /// When the account was created; `nil` for a partial user.
    @Persisted public var createdAt: Date?
    /// The tweets the store holds by this user.
    @Persisted(originProperty: "user") public var tweets: LinkingObjects<Tweet>

    // Since X API v2 (#31); v1.1 fills them too.

    /// The profile's description (`description`), searchable: `bio TEXT 'swift'`.
    @Persisted(indexed: .fullText) public var bio: String?
    /// The location the profile gives, as free text.
    @Persisted public var location: String?
    /// Whether the account's posts are protected (visible to approved followers only).
    @Persisted public var isProtected: Bool?
    /// The public lists the account is on, when last seen.
    @Persisted public var listedCount: Int?
    /// The ID of the post pinned to the profile (v2's `pinned_tweet_id`).
    @Persisted public var pinnedTweetId: Int64?
}
