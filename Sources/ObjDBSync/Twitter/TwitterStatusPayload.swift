import Foundation

/// A status (tweet) as Twitter API v1.1 sends it, reduced to what ObjDB's Twitter cache stores.
///
/// IDs come from `id_str` when present: they exceed 2⁵³ and must never pass through a `Double`.
/// The text comes from `full_text` in extended mode, else `text`.
public final class TwitterStatusPayload: Decodable, Sendable {
    /// The status ID.
    public let id: Int64
    /// When the status was posted.
    public let createdAt: Date
    /// The status text (`full_text` in extended mode).
    public let text: String
    /// The author.
    public let user: TwitterUserPayload
    /// The retweeted status, when this status is a retweet.
    public let retweetedStatus: TwitterStatusPayload?
    /// How often the status was retweeted.
    public let retweetCount: Int
    /// The BCP 47 language the API detected, if any.
    public let language: String?
    /// The hashtags in the text, without `#`.
    public let hashtags: [String]

    enum CodingKeys: String, CodingKey {
        case id, idString = "id_str", createdAt = "created_at", text, fullText = "full_text", user
        case retweetedStatus = "retweeted_status", retweetCount = "retweet_count", language = "lang", entities
    }

    private struct Entities: Decodable {
        struct Hashtag: Decodable { let text: String }
        let hashtags: [Hashtag]?
    }

    /// Decodes one status object.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try decodeTwitterID(container, string: .idString, number: .id)
        let created = try container.decode(String.self, forKey: .createdAt)
        guard let date = parseTwitterDate(created) else {
            throw DecodingError.dataCorruptedError(
                forKey: .createdAt, in: container, debugDescription: "'\(created)' is not a Twitter date")
        }
        createdAt = date
        text =
            try container.decodeIfPresent(String.self, forKey: .fullText)
            ?? container.decode(String.self, forKey: .text)
        user = try container.decode(TwitterUserPayload.self, forKey: .user)
        retweetedStatus = try container.decodeIfPresent(TwitterStatusPayload.self, forKey: .retweetedStatus)
        retweetCount = try container.decodeIfPresent(Int.self, forKey: .retweetCount) ?? 0
        language = try container.decodeIfPresent(String.self, forKey: .language)
        hashtags = try container.decodeIfPresent(Entities.self, forKey: .entities)?.hashtags?.map(\.text) ?? []
    }
}

/// A user as Twitter API v1.1 embeds it in a status.
public struct TwitterUserPayload: Decodable, Sendable, Hashable {
    /// The user ID.
    public let id: Int64
    /// The display name.
    public let name: String
    /// The handle, without `@`.
    public let screenName: String
    /// The HTTPS URL of the profile image, if any.
    public let profileImageURL: String?

    enum CodingKeys: String, CodingKey {
        case id, idString = "id_str", name, screenName = "screen_name"
        case profileImageURL = "profile_image_url_https"
    }

    /// Decodes one user object.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try decodeTwitterID(container, string: .idString, number: .id)
        name = try container.decode(String.self, forKey: .name)
        screenName = try container.decode(String.self, forKey: .screenName)
        profileImageURL = try container.decodeIfPresent(String.self, forKey: .profileImageURL)
    }
}

private func decodeTwitterID<Key: CodingKey>(
    _ container: KeyedDecodingContainer<Key>, string: Key, number: Key
) throws -> Int64 {
    if let text = try container.decodeIfPresent(String.self, forKey: string) {
        guard let id = Int64(text) else {
            throw DecodingError.dataCorruptedError(
                forKey: string, in: container, debugDescription: "'\(text)' is not a 64-bit ID")
        }
        return id
    }
    return try container.decode(Int64.self, forKey: number)
}

/// Parses Twitter's `created_at` format, `Sat Aug 17 17:06:49 +0000 2013`.
func parseTwitterDate(_ text: String) -> Date? {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = "EEE MMM dd HH:mm:ss Z yyyy"
    return formatter.date(from: text)
}
