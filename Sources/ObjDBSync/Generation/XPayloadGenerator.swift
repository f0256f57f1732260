import Foundation

/// X API v2 response bodies made up from a seed, laid out as the API lays them out (`data`,
/// `includes`, `meta`; IDs as strings; raw UTF-8; timestamps with milliseconds): for tests, the
/// fuzz targets, the loopback server and the demo, which must not depend on recorded payloads.
///
/// Its authors are ``TwitterPayloadGenerator``'s for the same seed, and its compact posts match
/// that generator's compact statuses field for field, so v1.1 and v2 pages of one server's
/// timeline describe the same posts. Not API: `package`, as the v1.1 generator is.
package struct XPayloadGenerator {
    private var random: SeededRandom
    private let seed: UInt64
    /// The accounts posts are written by.
    package let users: [TwitterPayloadGenerator.User]
    /// Accounts only ever mentioned.
    package let bystanders: [TwitterPayloadGenerator.User]

    /// A generator with `userCount` authors, deterministic for `seed`.
    package init(seed: UInt64 = 1, userCount: Int = 20) {
        let v1 = TwitterPayloadGenerator(seed: seed, userCount: userCount)
        users = v1.users
        bystanders = v1.bystanders
        self.seed = seed
        random = SeededRandom(seed: seed ^ 0x0000_0000_0000_0002)
    }

    /// The date of post `id` on a generated timeline: later IDs are later posts, a second apart.
    package static func date(of id: Int64) -> Date {
        Date(timeIntervalSince1970: 1_600_000_000 + Double(id % 1_000_000_000))
    }

    /// A timeline page of exactly these posts, in this order, with `meta` (`result_count`,
    /// `newest_id`, `oldest_id`, and the tokens when given). Referenced originals get IDs below
    /// 1,000,000,000 (`ids` should lie above). `compact` posts carry only ID, text, date, author
    /// and edit history: the same posts as ``TwitterPayloadGenerator/timeline(ids:compact:)``'s.
    package mutating func timeline(
        ids: [Int64], compact: Bool = false, nextToken: String? = nil, previousToken: String? = nil
    ) -> Data {
        var meta: [String] = []
        if let previousToken { meta.append("\"previous_token\":\(jsonText(previousToken))") }
        meta.append("\"result_count\":\(ids.count)")
        if let newest = ids.max(), let oldest = ids.min() {
            meta.append("\"newest_id\":\"\(newest)\",\"oldest_id\":\"\(oldest)\"")
        }
        if let nextToken { meta.append("\"next_token\":\(jsonText(nextToken))") }
        let metaJSON = "\"meta\":{" + meta.joined(separator: ",") + "}"
        guard !ids.isEmpty else { return Data("{\(metaJSON)}".utf8) }
        var page = Page()
        for id in ids {
            page.data.append(compact ? compactPost(id: id, page: &page) : post(id: id, page: &page))
        }
        return Data(("{\"data\":[" + page.data.joined(separator: ",") + "]," + page.includesJSON + metaJSON + "}").utf8)
    }

    /// A page of `count` posts, newest first, the newest with ID `newestID` and each next one `step`
    /// lower (for the fuzz targets and the benchmark's like), with a `next_token`.
    package mutating func page(count: Int, newestID: Int64, step: Int64 = 1_000) -> Data {
        let ids = (0..<max(0, count)).map { newestID - Int64($0) * step }
        return timeline(ids: ids, nextToken: count > 0 ? "7140dibdnow9c7btw\(String(newestID, radix: 36))" : nil)
    }

    /// A users/by/username (or users/me) body for `user`.
    package static func userBody(_ user: TwitterPayloadGenerator.User) -> Data {
        Data(
            "{\"data\":{\"id\":\"\(user.id)\",\"name\":\(jsonText(user.name)),\"username\":\(jsonText(user.screenName))}}"
                .utf8)
    }

    /// A problem document (RFC 7807), as v2 answers failures: `{"title", "detail", "type", "status"}`.
    package static func problem(title: String, detail: String? = nil, type: String = "about:blank", status: Int) -> Data
    {
        Data(
            ("{\"title\":\(jsonText(title)),\"detail\":\(jsonText(detail ?? title)),\"type\":\(jsonText(type)),"
                + "\"status\":\(status)}").utf8)
    }

    /// The problem document of HTTP 429.
    package static var rateLimitBody: Data { problem(title: "Too Many Requests", status: 429) }

    /// The partial error of a post that could not be found, as a lookup reports it beside `data`.
    package static func notFoundError(postID: Int64) -> String {
        "{\"value\":\"\(postID)\",\"detail\":\"Could not find tweet with id: [\(postID)].\",\"title\":\"Not Found Error\","
            + "\"resource_type\":\"tweet\",\"parameter\":\"id\",\"resource_id\":\"\(postID)\","
            + "\"type\":\"https://api.twitter.com/2/problems/resource-not-found\"}"
    }

    // MARK: Posts

    /// What a page collects besides its posts.
    private struct Page {
        var data: [String] = []
        var users: [Int64: String] = [:]
        var userOrder: [Int64] = []
        var tweets: [String] = []
        var tweetIDs: Set<Int64> = []
        var media: [String] = []

        mutating func include(_ user: TwitterPayloadGenerator.User, full: Bool) {
            guard users[user.id] == nil else { return }
            users[user.id] = full ? XPayloadGenerator.userJSON(user) : XPayloadGenerator.compactUserJSON(user)
            userOrder.append(user.id)
        }

        var includesJSON: String {
            var parts: [String] = []
            if !users.isEmpty {
                parts.append("\"users\":[" + userOrder.map { users[$0]! }.joined(separator: ",") + "]")
            }
            if !tweets.isEmpty { parts.append("\"tweets\":[" + tweets.joined(separator: ",") + "]") }
            if !media.isEmpty { parts.append("\"media\":[" + media.joined(separator: ",") + "]") }
            return parts.isEmpty ? "" : "\"includes\":{" + parts.joined(separator: ",") + "},"
        }
    }

    /// The compact post `id`: its author is the v1.1 generator's compact status's.
    private func compactPost(id: Int64, page: inout Page) -> String {
        let user = users[Int(UInt64(id) % UInt64(users.count))]
        page.include(user, full: false)
        return "{\"author_id\":\"\(user.id)\",\"created_at\":\"\(Self.timestamp(Self.date(of: id)))\","
            + "\"edit_history_tweet_ids\":[\"\(id)\"],\"id\":\"\(id)\",\"text\":\"status \(id)\"}"
    }

    /// A full post: about one in six a retweet and one in ten a quote (of a post in
    /// `includes.tweets`), one in eight a reply, one in five with a photo, one in twenty long (a
    /// `note_tweet`), one in twenty edited. The same ID gives the same post on every page.
    private mutating func post(id: Int64, page: inout Page) -> String {
        let saved = random
        random = SeededRandom(seed: seed ^ UInt64(bitPattern: id) &* 0x9E37_79B9_7F4A_7C15)
        defer { random = saved }
        let date = Self.date(of: id)
        let originalID = 500_000_000 + id % 400_000_000
        let roll = random.next() % 60
        if roll < 10 {
            let original = includedPost(id: originalID, date: date.addingTimeInterval(-86_400), page: &page)
            return post(id: id, date: date, page: &page, retweeting: original)
        } else if roll < 16 {
            let quoted = includedPost(id: originalID + 1, date: date.addingTimeInterval(-7_200), page: &page)
            return post(id: id, date: date, page: &page, quoting: quoted)
        }
        return post(id: id, date: date, page: &page)
    }

    private struct Original {
        let id: Int64
        let author: TwitterPayloadGenerator.User
        let text: String
    }

    /// A referenced post, put in `includes.tweets` once per page.
    private mutating func includedPost(id: Int64, date: Date, page: inout Page) -> Original {
        let author = users[Int(UInt64(id) % UInt64(users.count))]
        let text = sentence(words: 10)
        if page.tweetIDs.insert(id).inserted {
            page.include(author, full: true)
            page.tweets.append(
                "{\"author_id\":\"\(author.id)\",\"conversation_id\":\"\(id)\",\"created_at\":\"\(Self.timestamp(date))\","
                    + "\"edit_history_tweet_ids\":[\"\(id)\"],\"id\":\"\(id)\",\"lang\":\"en\","
                    + "\"public_metrics\":{\"retweet_count\":\(random.next() % 900),\"reply_count\":3,\"like_count\":"
                    + "\(random.next() % 5000),\"quote_count\":1},\"text\":\(jsonText(text))}")
        }
        return Original(id: id, author: author, text: text)
    }

    private mutating func post(
        id: Int64, date: Date, page: inout Page, retweeting original: Original? = nil, quoting quoted: Original? = nil
    ) -> String {
        let author = users[Int(random.next() % UInt64(users.count))]
        page.include(author, full: true)
        var fields: [String] = ["\"author_id\":\"\(author.id)\""]
        var text = ""
        var entities: [String] = []
        var references: [String] = []
        var conversation = id
        if let original {
            text = "RT @\(original.author.screenName): " + String(original.text.prefix(100)) + "…"
            entities.append(
                "\"mentions\":[{\"start\":3,\"end\":\(4 + original.author.screenName.unicodeScalars.count),"
                    + "\"username\":\(jsonText(original.author.screenName)),\"id\":\"\(original.author.id)\"}]")
            references.append("{\"type\":\"retweeted\",\"id\":\"\(original.id)\"}")
        } else {
            var mentions: [String] = []
            if random.next() % 3 == 0 {
                let person =
                    random.next() % 4 == 0
                    ? bystanders[Int(random.next() % UInt64(bystanders.count))]
                    : users[Int(random.next() % UInt64(users.count))]
                page.include(person, full: true)
                let start = text.unicodeScalars.count
                text += "@\(person.screenName) "
                mentions.append(
                    "{\"start\":\(start),\"end\":\(start + person.screenName.unicodeScalars.count + 1),"
                        + "\"username\":\(jsonText(person.screenName)),\"id\":\"\(person.id)\"}")
            }
            text += sentence(words: 8 + Int(random.next() % 10))
            if random.next() % 5 == 0 { text += " 🚀" }
            let tag = ["swift", "objdb", "lmdb", "linux", "café"][Int(random.next() % 5)]
            let tagStart = text.unicodeScalars.count + 1
            text += " #\(tag)"
            entities.append(
                "\"hashtags\":[{\"start\":\(tagStart),\"end\":\(tagStart + tag.unicodeScalars.count + 1),"
                    + "\"tag\":\(jsonText(tag))}]")
            if !mentions.isEmpty { entities.append("\"mentions\":[" + mentions.joined(separator: ",") + "]") }
            if random.next() % 8 == 0 {
                let parent = includedPost(id: originalID(of: id) + 2, date: date.addingTimeInterval(-600), page: &page)
                references.append("{\"type\":\"replied_to\",\"id\":\"\(parent.id)\"}")
                fields.append("\"in_reply_to_user_id\":\"\(parent.author.id)\"")
                conversation = parent.id
            }
        }
        if let quoted {
            references.append("{\"type\":\"quoted\",\"id\":\"\(quoted.id)\"}")
            let link = "https://t.co/q\(String(id % 1_000_000_007, radix: 36))"
            let start = text.unicodeScalars.count + 1
            text += " \(link)"
            entities.append(
                "\"urls\":[{\"start\":\(start),\"end\":\(start + link.count),\"url\":\(jsonText(link)),"
                    + "\"expanded_url\":\"https://twitter.com/\(quoted.author.screenName)/status/\(quoted.id)\","
                    + "\"display_url\":\"twitter.com/\(quoted.author.screenName)/…\"}]")
        } else if original == nil, random.next() % 5 == 0 {
            let mediaID = id + 17
            let key = "3_\(mediaID)"
            let link = "https://t.co/m\(mediaID % 10_000)"
            let start = text.unicodeScalars.count + 1
            text += " \(link)"
            entities.append(
                "\"urls\":[{\"start\":\(start),\"end\":\(start + link.count),\"url\":\(jsonText(link)),"
                    + "\"expanded_url\":\"https://x.com/\(author.screenName)/status/\(id)/photo/1\","
                    + "\"display_url\":\"pic.x.com/m\(mediaID % 10_000)\",\"media_key\":\"\(key)\"}]")
            fields.append("\"attachments\":{\"media_keys\":[\"\(key)\"]}")
            page.media.append(
                "{\"height\":768,\"media_key\":\"\(key)\",\"type\":\"photo\","
                    + "\"url\":\"https://pbs.twimg.com/media/\(mediaID).jpg\",\"width\":1024}")
        }
        if original == nil, random.next() % 20 == 0 {
            let long = text + " " + (0..<6).map { _ in sentence(words: 12) }.joined(separator: ". ")
            fields.append("\"note_tweet\":{\"text\":\(jsonText(long))}")
            text = String(text.prefix(270)) + "…"
        }
        var history = ["\"\(id)\""]
        if original == nil, random.next() % 20 == 0 { history.insert("\"\(originalID(of: id) + 3)\"", at: 0) }
        fields += [
            "\"conversation_id\":\"\(conversation)\"", "\"created_at\":\"\(Self.timestamp(date))\"",
            "\"edit_history_tweet_ids\":[" + history.joined(separator: ",") + "]",
        ]
        if !entities.isEmpty { fields.append("\"entities\":{" + entities.joined(separator: ",") + "}") }
        fields += [
            "\"id\":\"\(id)\"", "\"lang\":\"\(["en", "en", "fr", "ja"][Int(random.next() % 4)])\"",
            "\"possibly_sensitive\":false",
            "\"public_metrics\":{\"retweet_count\":\(random.next() % 500),\"reply_count\":\(random.next() % 40),"
                + "\"like_count\":\(random.next() % 2000),\"quote_count\":\(random.next() % 20)}",
        ]
        if !references.isEmpty { fields.append("\"referenced_tweets\":[" + references.joined(separator: ",") + "]") }
        fields += ["\"source\":\"ObjDB demo\"", "\"text\":\(jsonText(text))"]
        return "{" + fields.joined(separator: ",") + "}"
    }

    private func originalID(of id: Int64) -> Int64 { 500_000_000 + id % 400_000_000 }

    /// A user as `includes.users` has it with the client's `user.fields`.
    private static func userJSON(_ user: TwitterPayloadGenerator.User) -> String {
        "{\"created_at\":\"\(timestamp(user.createdAt))\",\"description\":\"Writes software, mostly in Swift.\","
            + "\"id\":\"\(user.id)\",\"location\":\"Lisbon\",\"name\":\(jsonText(user.name)),"
            + "\"profile_image_url\":\"https://pbs.twimg.com/profile_images/\(user.id)/avatar_normal.png\","
            + "\"protected\":false,\"public_metrics\":{\"followers_count\":\(user.followers),\"following_count\":"
            + "\(user.followers % 977),\"tweet_count\":\(user.followers % 5003),\"listed_count\":3},"
            + "\"username\":\(jsonText(user.screenName)),\"verified\":\(user.followers > 90_000)}"
    }

    /// A user with the default fields only: ID, name, username.
    private static func compactUserJSON(_ user: TwitterPayloadGenerator.User) -> String {
        "{\"id\":\"\(user.id)\",\"name\":\(jsonText(user.name)),\"username\":\(jsonText(user.screenName))}"
    }

    /// `2021-06-01T11:32:18.000Z`.
    private static func timestamp(_ date: Date) -> String {
        String(iso8601String(date, zone: "Z").dropLast()) + ".000Z"
    }

    private mutating func sentence(words: Int) -> String {
        let vocabulary = [
            "the", "store", "maps", "pages", "into", "memory", "and", "every", "reader", "sees", "one", "snapshot",
            "while", "a", "writer", "commits", "objects", "links", "indexes", "together", "naïve", "déjà", "vu",
        ]
        return (0..<words).map { _ in vocabulary[Int(random.next() % UInt64(vocabulary.count))] }.joined(
            separator: " ")
    }
}

/// `text` as a JSON string literal as v2 writes it: raw UTF-8, astral characters as surrogate-pair
/// escapes, and no `\/`.
private func jsonText(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        default:
            if scalar.value < 0x20 {
                out += String(format: "\\u%04X", scalar.value)
            } else if scalar.value > 0xFFFF {
                for unit in String(scalar).utf16 { out += String(format: "\\u%04X", unit) }
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }
    return out + "\""
}
