import Foundation
import ObjDB
import Testing

@testable import ObjDBSync

/// Bad input gets a typed error and leaves the store exactly as it was.
@Suite("Malformed payloads")
struct MalformedPayloadTests {
    /// A store holding one good page, with its contents and version to compare against.
    private struct Populated {
        let store: SyncStore
        let snapshot: [String: [ObjectKey: [String: StoredValue]]]
        let version: Int

        init() throws {
            store = try SyncStore()
            var twitter = TwitterPayloadGenerator(seed: 21)
            try store.twitter.importPage(twitter.timeline(count: 20, newestID: 800_000), timeline: "home")
            var nyt = NYTPayloadGenerator(seed: 21)
            try store.nyt.importPage(nyt.page(count: 10), search: ArticleSearchQuery("q"))
            snapshot = try store.snapshot()
            version = try store.version()
        }

        /// Imports `data` as Twitter's (or NYT's), expects it to fail, and checks nothing changed.
        @discardableResult
        func expectRefused(_ data: Data, nyt: Bool = false, _ comment: Comment? = nil) throws -> SyncError? {
            var failure: SyncError?
            do {
                if nyt {
                    try store.nyt.importPage(data, search: ArticleSearchQuery("q"))
                } else {
                    try store.twitter.importPage(data, timeline: "home")
                }
                Issue.record("the import did not fail: \(comment ?? "")")
            } catch let error as SyncError {
                failure = error
            }
            #expect(try store.version() == version, comment)
            #expect(try store.snapshot() == snapshot, comment)
            return failure
        }
    }

    /// A status with every mapped part present: mentions, media, a retweet and a quote.
    private func fullStatus() -> [String: Any] {
        var generator = TwitterPayloadGenerator(seed: 22)
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        let quoted = generator.status(id: 600_001, date: date, withMedia: true)
        let original = generator.status(id: 600_002, date: date, withMedia: true)
        let status = generator.status(
            id: 600_003, date: date, retweeting: original, quoting: quoted, mentioning: [generator.bystanders[0]],
            withMedia: true)
        return try! JSONSerialization.jsonObject(with: Data(status.json.utf8)) as! [String: Any]
    }

    /// `object` with the value at `path` replaced by `value`.
    private func replacing(_ path: [JSONPath.Component], in object: Any, with value: Any) -> Any {
        guard let first = path.first else { return value }
        let rest = Array(path.dropFirst())
        switch first {
        case .key(let key):
            var dictionary = object as! [String: Any]
            dictionary[key] = rest.isEmpty ? value : replacing(rest, in: dictionary[key]!, with: value)
            return dictionary
        case .index(let index):
            var array = object as! [Any]
            array[index] = replacing(rest, in: array[index], with: value)
            return array
        }
    }

    @Test func truncatedJSONIsRefusedWhereverItIsCut() throws {
        let populated = try Populated()
        var generator = TwitterPayloadGenerator(seed: 23)
        let page = generator.timeline(count: 5, newestID: 900_000)
        for cut in stride(from: 1, to: page.count, by: max(1, page.count / 25)) {
            let error = try populated.expectRefused(page.prefix(cut), "cut at \(cut)")
            #expect(error?.code == .malformedJSON)
        }
        var nyt = NYTPayloadGenerator(seed: 23)
        let articles = nyt.page(count: 3)
        for cut in stride(from: 1, to: articles.count, by: max(1, articles.count / 10)) {
            #expect(try populated.expectRefused(articles.prefix(cut), nyt: true)?.code == .malformedJSON)
        }
    }

    @Test func aWrongTypeAtEveryMappedTwitterPathIsRefusedNamingThePath() throws {
        let populated = try Populated()
        let status = fullStatus()
        let wrongs: [(String, Any)] = [
            ("id_str", true), ("id_str", "12a"), ("text", 42), ("created_at", 42), ("created_at", "yesterday"),
            ("user", "jack"), ("user.id_str", [1]), ("user.name", 1), ("user.screen_name", false),
            ("user.profile_image_url_https", "not a url"), ("user.followers_count", "many"),
            ("user.friends_count", 1.5), ("user.statuses_count", [:] as [String: Any]), ("user.verified", "yes"),
            ("user.created_at", 5), ("retweeted_status", 5), ("retweeted_status.text", false),
            ("quoted_status", "x"), ("quoted_status.user.id_str", "x"), ("in_reply_to_status_id_str", true),
            ("retweet_count", "7"), ("favorite_count", NSNull()), ("lang", 5), ("source", 5), ("entities", "e"),
            ("entities.hashtags", 5), ("entities.hashtags[0].text", 5), ("entities.urls", "u"),
            ("entities.urls[0].url", 5), ("entities.urls[0].expanded_url", 5), ("entities.urls[0].display_url", 5),
            ("entities.urls[0].indices", "0,1"), ("entities.urls[0].indices[0]", "0"),
            ("entities.user_mentions", 5), ("entities.user_mentions[0].id_str", true),
            ("entities.user_mentions[0].screen_name", 5), ("entities.user_mentions[0].name", 5),
            ("entities.user_mentions[0].indices[1]", 2.5), ("extended_entities.media", 5),
            ("extended_entities.media[0].id_str", "m"), ("extended_entities.media[0].type", 5),
            ("extended_entities.media[0].media_url_https", 5), ("extended_entities.media[0].url", 5),
            ("extended_entities.media[0].display_url", 5), ("extended_entities.media[0].expanded_url", 5),
            ("extended_entities.media[0].sizes.large.w", "wide"), ("extended_entities.media[0].sizes", 5),
        ]
        for (path, value) in wrongs {
            let components = JSONKeyPath(path).components
            let broken = replacing(components, in: status, with: value)
            let data = try JSONSerialization.data(withJSONObject: [broken])
            let error = try populated.expectRefused(data, "\(path)")
            #expect(error?.code == .unexpectedValue, "\(path): \(error?.description ?? "")")
            let reported = error?.path?.description ?? ""
            #expect(("[0]." + path).hasPrefix(reported) && reported.count > 3, "\(path): \(error?.description ?? "")")
        }
    }

    @Test func aWrongTypeAtEveryMappedNYTPathIsRefusedNamingThePath() throws {
        let populated = try Populated()
        var generator = NYTPayloadGenerator(seed: 24)
        let page = try JSONSerialization.jsonObject(with: generator.page(count: 2, shape: .current))
        let wrongs: [(String, Any)] = [
            ("_id", 5), ("web_url", 5), ("web_url", "not a url"), ("headline", "h"), ("headline.main", 5),
            ("lead_paragraph", 5), ("abstract", 5), ("snippet", 5), ("pub_date", 42), ("pub_date", "2025-13-01"),
            ("section_name", 5), ("subsection_name", 5), ("news_desk", 5), ("document_type", 5),
            ("type_of_material", 5), ("byline", 5), ("byline.original", 5), ("word_count", "many"),
            ("source", 5), ("uri", 5), ("keywords", 5), ("keywords[0].name", 5), ("keywords[0].value", 5),
            ("keywords[0].rank", "first"), ("keywords[0].major", "maybe"), ("multimedia", 5),
            ("multimedia.caption", 5), ("multimedia.credit", 5), ("multimedia.default", 5),
            ("multimedia.default.url", 5), ("multimedia.default.width", "wide"), ("multimedia.thumbnail.height", true),
        ]
        for (path, value) in wrongs {
            let components: [JSONPath.Component] =
                [.key("response"), .key("docs"), .index(1)] + JSONKeyPath(path).components
            let broken = replacing(components, in: page, with: value)
            let error = try populated.expectRefused(
                try JSONSerialization.data(withJSONObject: broken), nyt: true, "\(path)")
            #expect(error?.code == .unexpectedValue, "\(path): \(error?.description ?? "")")
            #expect(
                error?.path?.description.hasPrefix("response.docs[1].") == true, "\(path): \(error?.description ?? "")")
        }
        let broken = replacing([.key("response"), .key("docs"), .index(1), .key("pub_date")], in: page, with: 42)
        let error = try populated.expectRefused(try JSONSerialization.data(withJSONObject: broken), nyt: true)
        #expect(error?.description == "response.docs[1].pub_date: expected a date string (ISO 8601), found 42")
    }

    @Test func anErrorBodyWhereStatusesWereExpectedChangesNothing() throws {
        let populated = try Populated()
        #expect(try populated.expectRefused(TwitterPayloadGenerator.rateLimitBody)?.code == .rateLimited)
        #expect(try populated.expectRefused(TwitterPayloadGenerator.errorBody([(34, "Not found")]))?.code == .apiError)
        #expect(try populated.expectRefused(NYTPayloadGenerator.rateLimitBody, nyt: true)?.code == .rateLimited)
        #expect(
            try populated.expectRefused(Data(#"{"statuses": 3}"#.utf8))?.description
                == "statuses: expected an array of statuses, found 3")
        #expect(try populated.expectRefused(Data("42".utf8))?.code == .unexpectedPayload)
        #expect(try populated.expectRefused(Data(#"{"status": "OK"}"#.utf8), nyt: true)?.code == .unexpectedPayload)
    }

    @Test func aFiveMegabytePageImportsAndOneBrokenAtItsEndChangesNothing() throws {
        var generator = TwitterPayloadGenerator(seed: 25)
        var page = generator.timeline(count: 1_700, newestID: 50_000_000)
        #expect(page.count > 5_000_000)
        let store = try SyncStore()
        let imported = try store.twitter.importPage(page, timeline: "home")
        #expect(imported.statusIDs.count == 1_700)

        let populated = try Populated()
        let last = try #require(page.lastRange(of: "\"created_at\":\""))
        page.replaceSubrange(last.lowerBound..<last.upperBound + 31, with: Data("\"created_at\":42".utf8))
        let error = try populated.expectRefused(page)
        #expect(error?.description.hasPrefix("[1699].") == true, "\(error?.description ?? "")")
    }

    @Test func nestingTenThousandLevelsDeepIsRefused() throws {
        let populated = try Populated()
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(try populated.expectRefused(Data(deep.utf8))?.code == .malformedJSON)
        let status = String(decoding: try JSONSerialization.data(withJSONObject: fullStatus()), as: UTF8.self)
        let nested = status.dropLast() + ",\"extra\":" + deep + "}"
        let error = try populated.expectRefused(Data("[\(nested)]".utf8))
        #expect(error?.message.contains("deeper than 512") == true)
        #expect(error?.path?.description.hasPrefix("[0].extra") == true)
    }

    @Test func invalidUTF8IsRefusedWithItsPlace() throws {
        let populated = try Populated()
        var generator = TwitterPayloadGenerator(seed: 26)
        var page = generator.timeline(count: 3, newestID: 700_000)
        let text = try #require(page.range(of: Data("\"text\":\"".utf8)))
        page[text.upperBound + 2] = 0xFF
        let error = try populated.expectRefused(page)
        #expect(error?.code == .malformedJSON)
        #expect(error?.path?.description == "[0].text")
        var overlong = generator.timeline(count: 1, newestID: 700_100)
        let name = try #require(overlong.range(of: Data("\"name\":\"".utf8)))
        overlong.replaceSubrange(name.upperBound..<name.upperBound + 1, with: [0xC0, 0xAF])
        #expect(try populated.expectRefused(overlong)?.code == .malformedJSON)
    }

    @Test func idsBeyondInt64AreRefusedNotRounded() throws {
        let populated = try Populated()
        var status = fullStatus()
        for (path, value) in [
            ("id_str", "9223372036854775808" as Any), ("user.id_str", "18446744073709551616"),
            ("entities.user_mentions[0].id_str", "-9223372036854775809"),
        ] {
            let broken = replacing(JSONKeyPath(path).components, in: status, with: value)
            let error = try populated.expectRefused(try JSONSerialization.data(withJSONObject: [broken]), "\(path)")
            #expect(
                error?.description.hasPrefix("[0].\(path): expected an integer") == true, "\(error?.description ?? "")")
        }
        status["id_str"] = nil
        let text = String(decoding: try JSONSerialization.data(withJSONObject: [status]), as: UTF8.self)
            .replacingOccurrences(of: "\"id\":600003", with: "\"id\":99999999999999999999")
        let error = try populated.expectRefused(Data(text.utf8))
        #expect(error?.path?.description == "[0].id")
    }
}

extension Data {
    fileprivate func lastRange(of text: String) -> Range<Int>? {
        guard let range = range(of: Data(text.utf8), options: .backwards) else { return nil }
        return range.lowerBound..<range.upperBound
    }
}
