import Foundation

/// Twitter API v1.1 response bodies made up from a seed, laid out as the API lays them out (its
/// keys, its order, its `\/` and `\uXXXX` escapes, about 3 KB a status): for tests, the benchmark
/// and the demo, which must not depend on recorded payloads.
///
/// Not API: `package` so that the project's own tests, benchmark and demo share it.
package struct TwitterPayloadGenerator {
    /// One status's ID and JSON text.
    package struct Status: Sendable {
        package let id: Int64
        package let json: String
    }

    /// A made-up account.
    package struct User: Sendable {
        package let id: Int64
        package let screenName: String
        package let name: String
        package let followers: Int
        package let createdAt: Date

        /// An account of these values.
        package init(id: Int64, screenName: String, name: String, followers: Int, createdAt: Date) {
            self.id = id
            self.screenName = screenName
            self.name = name
            self.followers = followers
            self.createdAt = createdAt
        }
    }

    private var random: SeededRandom
    /// The accounts statuses are written by; each status mentions one of them now and then.
    package let users: [User]
    /// Accounts only ever mentioned, never posting: they become partial users.
    package let bystanders: [User]
    /// When the newest status of the next page was posted; each status is a minute older.
    package var clock = Date(timeIntervalSince1970: 1_700_000_000)

    /// A generator with `userCount` authors, deterministic for `seed`.
    package init(seed: UInt64 = 1, userCount: Int = 20) {
        var random = SeededRandom(seed: seed)
        let names = ["Ada", "Grace", "José", "Zoë", "山田", "Linus", "Margaret", "Ken", "Barbara", "Guido"]
        func makeUser(_ number: Int, prefix: String) -> User {
            User(
                id: 1_000_000_000_000_000 + Int64(number) * 7919 + Int64(random.next() % 1000),
                screenName: "\(prefix)\(number)", name: "\(names[number % names.count]) \(number)",
                followers: Int(random.next() % 100_000),
                createdAt: Date(timeIntervalSince1970: 1_200_000_000 + Double(random.next() % 300_000_000)))
        }
        users = (0..<max(1, userCount)).map { makeUser($0, prefix: "author") }
        bystanders = (0..<5).map { makeUser($0 + 1000, prefix: "bystander") }
        self.random = random
    }

    /// A home timeline page: `count` statuses, newest first, the newest with ID `newestID` and each
    /// next one `step` lower. About one in six is a retweet and one in ten a quote, whose originals
    /// carry IDs below the page's lowest (so they must never move a timeline's cursor).
    package mutating func timeline(count: Int, newestID: Int64, step: Int64 = 1_000) -> Data {
        let oldest = newestID - Int64(max(0, count - 1)) * step
        var statuses: [Status] = []
        statuses.reserveCapacity(count)
        for index in 0..<count {
            let id = newestID - Int64(index) * step
            let date = clock.addingTimeInterval(-60 * Double(index))
            let roll = random.next() % 60
            if roll < 10 {
                let original = status(id: oldest - 1 - Int64(index) * 7, date: date.addingTimeInterval(-86_400))
                statuses.append(status(id: id, date: date, retweeting: original))
            } else if roll < 16 {
                let quoted = status(id: oldest - 500_000 - Int64(index) * 11, date: date.addingTimeInterval(-7_200))
                statuses.append(status(id: id, date: date, quoting: quoted))
            } else {
                statuses.append(status(id: id, date: date))
            }
        }
        clock = clock.addingTimeInterval(-60 * Double(count))
        return Data(("[" + statuses.map(\.json).joined(separator: ",") + "]").utf8)
    }

    /// A timeline page of exactly these statuses, in this order. Retweeted and quoted originals get
    /// IDs below 1,000,000,000 (`ids` should lie above), so they never collide with an entry.
    /// `compact` statuses carry only ID, text, date and author: for tests of thousands of pages.
    package mutating func timeline(ids: [Int64], compact: Bool = false) -> Data {
        var statuses: [String] = []
        statuses.reserveCapacity(ids.count)
        for id in ids {
            // Later IDs are later statuses, a second apart, whichever page they come on.
            let date = Date(timeIntervalSince1970: 1_600_000_000 + Double(id % 1_000_000_000))
            if compact {
                let user = users[Int(UInt64(id) % UInt64(users.count))]
                statuses.append(
                    "{\"created_at\":\"\(twitterDateString(date))\",\"id\":\(id),\"id_str\":\"\(id)\","
                        + "\"text\":\"status \(id)\",\"user\":{\"id\":\(user.id),\"id_str\":\"\(user.id)\","
                        + "\"name\":\(jsonLiteral(user.name)),\"screen_name\":\"\(user.screenName)\"}}")
                continue
            }
            let originalID = 500_000_000 + id % 400_000_000
            let roll = random.next() % 60
            if roll < 10 {
                let original = status(id: originalID, date: date.addingTimeInterval(-86_400))
                statuses.append(status(id: id, date: date, retweeting: original).json)
            } else if roll < 16 {
                let quoted = status(id: originalID + 1, date: date.addingTimeInterval(-7_200))
                statuses.append(status(id: id, date: date, quoting: quoted).json)
            } else {
                statuses.append(status(id: id, date: date).json)
            }
        }
        return Data(("[" + statuses.joined(separator: ",") + "]").utf8)
    }

    /// A search/tweets body: `count` statuses for `query`, with its `search_metadata`.
    package mutating func search(query: String, count: Int, newestID: Int64) -> Data {
        let page = String(decoding: timeline(count: count, newestID: newestID), as: UTF8.self)
        let encoded = query.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? query
        let oldest = newestID - Int64(max(0, count - 1)) * 1_000
        let metadata = """
            {"completed_in":0.031,"max_id":\(newestID),"max_id_str":"\(newestID)",\
            "next_results":"?max_id=\(oldest - 1)&q=\(encoded)&include_entities=1","query":"\(encoded)",\
            "refresh_url":"?since_id=\(newestID)&q=\(encoded)&include_entities=1","count":\(count),\
            "since_id":0,"since_id_str":"0"}
            """
        return Data("{\"statuses\":\(page),\"search_metadata\":\(metadata)}".utf8)
    }

    /// One status (an array of one) at the end of a chain `depth` deep: each links the next as its
    /// retweeted status or, alternately, its quoted status.
    package mutating func chain(depth: Int, newestID: Int64) -> Data {
        var inner: Status?
        for level in stride(from: depth, through: 0, by: -1) {
            let id = newestID - Int64(level) * 10
            let date = clock.addingTimeInterval(-Double(level) * 60)
            if let previous = inner {
                inner =
                    level % 2 == 0
                    ? status(id: id, date: date, retweeting: previous) : status(id: id, date: date, quoting: previous)
            } else {
                inner = status(id: id, date: date)
            }
        }
        return Data("[\(inner!.json)]".utf8)
    }

    /// A users/show body for the author at `index`, with its latest status embedded (without `user`).
    package mutating func userShow(index: Int, statusID: Int64) -> Data {
        let user = users[index % users.count]
        let latest = status(id: statusID, date: clock, author: user, embedded: true)
        let object = userJSON(user)
        return Data((object.dropLast() + ",\"status\":\(latest.json)}").utf8)
    }

    /// An error body of API v1.1: `{"errors":[{"code":…,"message":…}]}`.
    package static func errorBody(_ errors: [(code: Int, message: String)]) -> Data {
        let entries = errors.map { "{\"code\":\($0.code),\"message\":\(jsonLiteral($0.message))}" }
        return Data("{\"errors\":[\(entries.joined(separator: ","))]}".utf8)
    }

    /// The rate-limit error body (HTTP 429): code 88.
    package static var rateLimitBody: Data { errorBody([(88, "Rate limit exceeded")]) }

    // MARK: Statuses

    /// One status object, by a random author unless given; with random mentions and media unless given.
    package mutating func status(
        id: Int64, date: Date, retweeting original: Status? = nil, quoting quoted: Status? = nil,
        author: User? = nil, mentioning: [User]? = nil, withMedia: Bool? = nil, embedded: Bool = false
    ) -> Status {
        let user = author ?? users[Int(random.next() % UInt64(users.count))]
        var mentioned: [User] = []
        if random.next() % 3 == 0 { mentioned.append(users[Int(random.next() % UInt64(users.count))]) }
        if random.next() % 4 == 0 { mentioned.append(bystanders[Int(random.next() % UInt64(bystanders.count))]) }
        mentioned = mentioning ?? mentioned
        let hasMedia = withMedia ?? (random.next() % 5 == 0)
        let tag = ["swift", "objdb", "lmdb", "linux", "café"][Int(random.next() % 5)]
        let link = "https://t.co/\(String(id % 1_000_000_007, radix: 36))"
        var text = original != nil ? "RT @someone: " : ""
        var mentions: [String] = []
        for person in mentioned {
            let start = text.unicodeScalars.count
            text += "@\(person.screenName) "
            mentions.append(
                "{\"screen_name\":\(jsonLiteral(person.screenName)),\"name\":\(jsonLiteral(person.name)),"
                    + "\"id\":\(person.id),\"id_str\":\"\(person.id)\","
                    + "\"indices\":[\(start),\(start + person.screenName.unicodeScalars.count + 1)]}")
        }
        text += sentence(words: 8 + Int(random.next() % 10))
        if random.next() % 5 == 0 { text += " 🚀" }
        let tagStart = text.unicodeScalars.count + 1
        text += " #\(tag)"
        let hashtags =
            "[{\"text\":\(jsonLiteral(tag)),\"indices\":[\(tagStart),\(tagStart + tag.unicodeScalars.count + 1)]}]"
        let linkStart = text.unicodeScalars.count + 1
        text += " \(link)"
        let urls = """
            [{"url":\(jsonLiteral(link)),"expanded_url":\(jsonLiteral("https://example.com/posts/\(id)")),\
            "display_url":\(jsonLiteral("example.com/posts/\(id)")),"indices":[\(linkStart),\(linkStart + link.count)]}]
            """
        let replyTo = random.next() % 8 == 0 ? id - 77_777 : nil
        var media = ""
        if hasMedia {
            let mediaID = id + 17
            let mediaStart = text.unicodeScalars.count + 1
            text += " https://t.co/m\(mediaID % 10_000)"
            media = """
                [{"id":\(mediaID),"id_str":"\(mediaID)","indices":[\(mediaStart),\(text.unicodeScalars.count)],\
                "media_url":"http:\\/\\/pbs.twimg.com\\/media\\/\(mediaID).jpg",\
                "media_url_https":"https:\\/\\/pbs.twimg.com\\/media\\/\(mediaID).jpg",\
                "url":"https:\\/\\/t.co\\/m\(mediaID % 10_000)","display_url":"pic.twitter.com\\/m\(mediaID % 10_000)",\
                "expanded_url":"https:\\/\\/twitter.com\\/\(user.screenName)\\/status\\/\(id)\\/photo\\/1",\
                "type":"photo","sizes":{"large":{"w":1024,"h":768,"resize":"fit"},"thumb":{"w":150,"h":150,"resize":"crop"}}}]
                """
        }
        let entities = """
            {"hashtags":\(hashtags),"symbols":[],"user_mentions":[\(mentions.joined(separator: ","))],"urls":\(urls)\
            \(hasMedia ? ",\"media\":" + media : "")}
            """
        var fields = """
            {"created_at":"\(twitterDateString(date))","id":\(id),"id_str":"\(id)","text":\(jsonLiteral(text)),\
            "truncated":false,"entities":\(entities),\(hasMedia ? "\"extended_entities\":{\"media\":\(media)}," : "")\
            "source":"<a href=\\"http:\\/\\/twitter.com\\" rel=\\"nofollow\\">Twitter Web Client<\\/a>",\
            "in_reply_to_status_id":\(replyTo.map(String.init) ?? "null"),\
            "in_reply_to_status_id_str":\(replyTo.map { "\"\($0)\"" } ?? "null"),\
            "in_reply_to_user_id":null,"in_reply_to_user_id_str":null,"in_reply_to_screen_name":null
            """
        if !embedded { fields += ",\"user\":" + userJSON(user) }
        fields += ",\"geo\":null,\"coordinates\":null,\"place\":null,\"contributors\":null"
        if let original { fields += ",\"retweeted_status\":" + original.json }
        fields += ",\"is_quote_status\":\(quoted != nil)"
        if let quoted {
            fields += ",\"quoted_status_id\":\(quoted.id),\"quoted_status_id_str\":\"\(quoted.id)\",\"quoted_status\":"
            fields += quoted.json
        }
        fields += """
            ,"retweet_count":\(random.next() % 500),"favorite_count":\(random.next() % 2000),\
            "favorited":false,"retweeted":false,"lang":"\(["en", "en", "fr", "ja"][Int(random.next() % 4)])"}
            """
        return Status(id: id, json: fields)
    }

    /// A full user object, with every field the API sent in 2016.
    package func userJSON(_ user: User) -> String {
        """
        {"id":\(user.id),"id_str":"\(user.id)","name":\(jsonLiteral(user.name)),\
        "screen_name":\(jsonLiteral(user.screenName)),"location":"Lisbon","description":\
        \(jsonLiteral("Writes software, mostly in Swift. Opinions are my own.")),"url":null,\
        "entities":{"description":{"urls":[]}},"protected":false,"followers_count":\(user.followers),\
        "friends_count":\(user.followers % 977),"listed_count":3,"created_at":"\(twitterDateString(user.createdAt))",\
        "favourites_count":12,"utc_offset":null,"time_zone":null,"geo_enabled":false,"verified":\(user.followers > 90_000),\
        "statuses_count":\(user.followers % 5003),"lang":"en","contributors_enabled":false,"is_translator":false,\
        "is_translation_enabled":false,"profile_background_color":"000000",\
        "profile_background_image_url":"http:\\/\\/abs.twimg.com\\/images\\/themes\\/theme1\\/bg.png",\
        "profile_background_image_url_https":"https:\\/\\/abs.twimg.com\\/images\\/themes\\/theme1\\/bg.png",\
        "profile_background_tile":false,\
        "profile_image_url":"http:\\/\\/pbs.twimg.com\\/profile_images\\/\(user.id)\\/avatar_normal.png",\
        "profile_image_url_https":"https:\\/\\/pbs.twimg.com\\/profile_images\\/\(user.id)\\/avatar_normal.png",\
        "profile_link_color":"1B95E0","profile_sidebar_border_color":"000000","profile_sidebar_fill_color":"000000",\
        "profile_text_color":"000000","profile_use_background_image":false,"has_extended_profile":false,\
        "default_profile":false,"default_profile_image":false,"following":false,"follow_request_sent":false,\
        "notifications":false,"translator_type":"none"}
        """
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
