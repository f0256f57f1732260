import Foundation
import ObjDB
import Testing

@testable import ObjDBSync

/// X API v2 bodies written for one behaviour each: what the recorded ones lack (long posts,
/// edits, problem documents) and the rules that tie v2 to v1.1's objects.
@Suite("X API v2: importing")
struct XImportTests {
    private func body(_ text: String) -> Data { Data(text.utf8) }

    /// A post of `id` by user 12, as v2 sends it with the client's fields.
    private func post(_ id: Int64, text: String = "hello", extra: String = "") -> String {
        """
        {"id":"\(id)","text":"\(text)","author_id":"12","created_at":"2025-03-01T12:00:00.000Z",\
        "edit_history_tweet_ids":["\(id)"]\(extra)}
        """
    }

    private let jack = #"{"id":"12","name":"Jack","username":"jack","public_metrics":{"followers_count":7}}"#

    @Test func idsBeyondTwoToThe53AreExact() throws {
        let store = try SyncStore()
        let id: Int64 = 1_610_947_986_263_052_289
        try store.x.importPage(body("{\"data\":[\(post(id))],\"includes\":{\"users\":[\(jack)]}}"))
        let tweet = try #require(try store.database.view().object(ofType: Tweet.self, forPrimaryKey: id))
        #expect(tweet.id == id && tweet.user?.screenName == "jack" && tweet.user?.followersCount == 7)
        #expect(Double(id) != Double(id + 1) || Int64(Double(id)) != id)  // a Double could not have held it
    }

    @Test func aLongPostKeepsItsNoteTweetText() throws {
        let store = try SyncStore()
        let long = String(repeating: "long text ", count: 60)
        let note = #","note_tweet":{"text":"\#(long)","entities":{"hashtags":[{"start":0,"end":5,"tag":"long"}]}}"#
        try store.x.importPage(body("{\"data\":[\(post(5, text: "long text…", extra: note))]}"))
        let tweet = try #require(try store.database.view().object(ofType: Tweet.self, forPrimaryKey: 5))
        #expect(tweet.text == long && tweet.isLongPost)
        #expect(Array(tweet.hashtags) == ["long"])
    }

    @Test func anEditedPostKeepsItsNewestVersionAndEditHistory() throws {
        let store = try SyncStore()
        let original = post(100, text: "tpyo")
        let edited = #"{"id":"105","text":"typo fixed","author_id":"12","edit_history_tweet_ids":["100","105"]}"#
        try store.x.importPage(body("{\"data\":[\(original)]}"), timeline: "home")
        try store.x.importPage(body("{\"data\":[\(edited)]}"), timeline: "home")
        var view = try store.database.view()
        let newest = try #require(view.object(ofType: Tweet.self, forPrimaryKey: 105))
        #expect(
            newest.text == "typo fixed" && Array(newest.editHistoryIds) == [100, 105] && !newest.isSupersededByEdit)
        // The timeline shows the post once, as its newest version.
        #expect(view.object(ofType: Timeline.self, forPrimaryKey: "home")?.entries.map(\.id) == [105])
        // An older copy arriving later (a page saved before the edit) changes neither.
        try store.x.importPage(body("{\"data\":[\(original)]}"), timeline: "home")
        view = try store.database.view()
        #expect(view.object(ofType: Timeline.self, forPrimaryKey: "home")?.entries.map(\.id) == [105])
        let old = try #require(view.object(ofType: Tweet.self, forPrimaryKey: 100))
        #expect(Array(old.editHistoryIds) == [100, 105] && old.isSupersededByEdit && old.text == "tpyo")
        #expect(view.object(ofType: Tweet.self, forPrimaryKey: 105)?.text == "typo fixed")
    }

    @Test func partialErrorsBesideDataAreRecordedAndFailNothing() throws {
        let store = try SyncStore()
        let error = XPayloadGenerator.notFoundError(postID: 9)
        let page = try store.x.importPage(body("{\"data\":[\(post(1))],\"errors\":[\(error)]}"))
        #expect(page.statusIDs == [1])
        #expect(page.summary.partialErrors.count == 1 && page.summary.description.hasSuffix("; 1 partial error"))
        // A body of such errors alone (every post missing) is an empty page, not a failure.
        let empty = try store.x.importPage(body("{\"errors\":[\(error)]}"))
        #expect(empty.statusIDs.isEmpty && empty.summary.partialErrors.count == 1)
    }

    @Test func problemDocumentsAreTypedErrorsAndRateLimitsAreRateLimited() throws {
        let store = try SyncStore()
        let cases: [(String, SyncError.Code, String?)] = [
            (#"{"title":"Unauthorized","type":"about:blank","status":401,"detail":"Unauthorized"}"#, .apiError, "401"),
            (
                #"{"title":"Too Many Requests","detail":"Too Many Requests","type":"about:blank","status":429}"#,
                .rateLimited, "429"
            ),
            (
                #"{"title":"UsageCapExceeded","detail":"Usage cap exceeded: Monthly product cap","type":"https://api.twitter.com/2/problems/usage-capped","period":"Monthly","scope":"Product"}"#,
                .rateLimited, "https://api.twitter.com/2/problems/usage-capped"
            ),
            (
                #"{"errors":[{"parameters":{"max_results":["1"]},"message":"The `max_results` query parameter value [1] is not between 5 and 100"}],"title":"Invalid Request","detail":"One or more parameters to your request was invalid.","type":"https://api.twitter.com/2/problems/invalid-request"}"#,
                .apiError, "https://api.twitter.com/2/problems/invalid-request"
            ),
            (
                #"{"client_id":"1","detail":"When authenticating requests to the Twitter API v2 endpoints, you must use keys and tokens from a Twitter developer App that is attached to a Project.","title":"Client Forbidden","reason":"client-not-enrolled","type":"https://api.twitter.com/2/problems/client-forbidden"}"#,
                .apiError, "https://api.twitter.com/2/problems/client-forbidden"
            ),
            (#"{"errors":[{"code":88,"message":"Rate limit exceeded"}]}"#, .rateLimited, "88"),
        ]
        for (text, code, first) in cases {
            let error = try #require(throws: SyncError.self) { try store.x.importPage(body(text), timeline: "home") }
            #expect(error.code == code, "\(text)")
            #expect(error.apiMessages.first?.code == first, "\(text)")
        }
        #expect(try store.counts().values.allSatisfy { $0 == 0 })
    }

    @Test func retweetsQuotesAndRepliesLinkWhatThePageOrTheStoreHolds() throws {
        let store = try SyncStore()
        try store.x.importPage(body("{\"data\":[\(post(50, text: "parent"))]}"))
        let retweet = post(
            60, text: "RT @jack: original…", extra: #","referenced_tweets":[{"type":"retweeted","id":"55"}]"#)
        let reply = post(
            61, extra: #","referenced_tweets":[{"type":"replied_to","id":"50"}],"in_reply_to_user_id":"12""#)
        let quote = post(62, extra: #","referenced_tweets":[{"type":"quoted","id":"999"}]"#)
        let original = post(55, text: "original")
        let page = try store.x.importPage(
            body(
                "{\"data\":[\(retweet),\(reply),\(quote)],\"includes\":{\"tweets\":[\(original)],\"users\":[\(jack)]}}"),
            timeline: "home")
        #expect(page.statusIDs == [60, 61, 62])
        let view = try store.database.view()
        let tweets = try (60...62).map { try #require(view.object(ofType: Tweet.self, forPrimaryKey: Int64($0))) }
        #expect(tweets[0].retweetedStatus?.text == "original" && tweets[0].retweetedStatusId == 55)
        #expect(tweets[1].inReplyTo?.text == "parent" && tweets[1].inReplyToStatusId == 50)
        #expect(tweets[1].inReplyToUserId == 12)
        #expect(tweets[2].quotedStatus == nil && tweets[2].quotedStatusId == 999)  // not included, not stored
        // The included original is stored, never an entry.
        #expect(view.object(ofType: Timeline.self, forPrimaryKey: "home")?.entries.map(\.id) == [62, 61, 60])
    }

    @Test func anAuthorThePageLeftOutIsAPartialUserThatNeverOverwritesAFullOne() throws {
        let store = try SyncStore()
        try store.x.importPage(body("{\"data\":[\(post(1))]}"))
        var user = try #require(try store.database.view().object(ofType: TwitterUser.self, forPrimaryKey: 12))
        #expect(user.screenName.isEmpty)
        try store.x.importPage(body("{\"data\":[\(post(2))],\"includes\":{\"users\":[\(jack)]}}"))
        try store.x.importPage(body("{\"data\":[\(post(3))]}"))
        user = try #require(try store.database.view().object(ofType: TwitterUser.self, forPrimaryKey: 12))
        #expect(user.screenName == "jack" && user.tweets.count == 3)
    }

    @Test func mediaTakeTheirLinkFromTheEntityOfTheSameKey() throws {
        let store = try SyncStore()
        let extra = """
            ,"attachments":{"media_keys":["3_77","3_78"]},"entities":{"urls":[{"start":6,"end":29,\
            "url":"https://t.co/abc","expanded_url":"https://x.com/jack/status/1/photo/1","display_url":"pic.x.com/abc",\
            "media_key":"3_77"}]}
            """
        let media = """
            [{"media_key":"3_77","type":"photo","url":"https://pbs.twimg.com/media/a.jpg","width":10,"height":20,\
            "alt_text":"a cat"}]
            """
        try store.x.importPage(body("{\"data\":[\(post(1, extra: extra))],\"includes\":{\"media\":\(media)}}"))
        let tweet = try #require(try store.database.view().object(ofType: Tweet.self, forPrimaryKey: 1))
        #expect(tweet.media.count == 1)  // 3_78 was not expanded
        let photo = try #require(tweet.media.first)
        #expect(photo.id == 77 && photo.mediaKey == "3_77" && photo.url == "https://t.co/abc")
        #expect(photo.displayURL == "pic.x.com/abc" && photo.altText == "a cat" && photo.width == 10)
    }

    @Test func v1AndV2PagesOfTheSamePostsLandOnTheSameObjects() throws {
        let ids: [Int64] = [1_000_000_300, 1_000_000_200, 1_000_000_100]
        var v1 = TwitterPayloadGenerator(seed: 4)
        var v2 = XPayloadGenerator(seed: 4)
        let store = try SyncStore()
        let first = try store.twitter.importPage(v1.timeline(ids: ids, compact: true), timeline: "home")
        let before = try store.counts()
        let second = try store.x.importPage(v2.timeline(ids: ids, compact: true), timeline: "home")
        #expect(try store.counts() == before)
        #expect(second.summary[Tweet.self].inserted == 0 && second.summary[TwitterUser.self].inserted == 0)
        #expect(first.statusIDs == second.statusIDs)
        let view = try store.database.view()
        for id in ids {
            let tweet = try #require(view.object(ofType: Tweet.self, forPrimaryKey: id))
            #expect(tweet.text == "status \(id)" && tweet.createdAt == XPayloadGenerator.date(of: id))
            #expect(Array(tweet.editHistoryIds) == [id])
        }
    }

    @Test func aWrongShapeIsATypedErrorNamingItsPathAndStoresNothing() throws {
        let store = try SyncStore()
        let cases: [(String, String)] = [
            (#"{"data":[{"id":"1","text":"a","created_at":42}]}"#, "data[0].created_at"),
            (#"{"data":[{"text":"no id"}]}"#, "data[0].id"),
            (#"{"data":[{"id":"12x","text":"a"}]}"#, "data[0].id"),
            (#"{"data":7}"#, "data"),
            (#"{"data":[],"includes":{"users":{}}}"#, "includes.users"),
            (
                #"{"data":[{"id":"1","text":"a","referenced_tweets":[{"type":"quoted"}]}]}"#,
                "data[0].referenced_tweets[0].id"
            ),
            (#"{"data":[{"id":"1","text":"a","edit_history_tweet_ids":[1.5]}]}"#, "data[0].edit_history_tweet_ids[0]"),
            (#"{"data":[{"id":"1","text":"a","attachments":{"media_keys":"3_1"}}]}"#, "data[0].attachments.media_keys"),
            (#"{"data":[],"includes":{"media":[{"media_key":"nokey"}]}}"#, ""),
            (#"{"meta":{"next_token":7}}"#, "meta.next_token"),
            (#"{"data":[{"id":"1","text":"a"}],"errors":"oops"}"#, "errors"),
        ]
        for (text, path) in cases {
            do {
                try store.x.importPage(body(text), timeline: "home")
                #expect(path.isEmpty, "\(text) imported")
            } catch let error as SyncError {
                #expect(error.path?.description == path, "\(text): \(error)")
            }
        }
        #expect(try store.counts()["Tweet"] == 0)
    }

    @Test func bodiesOfNoV2ShapeAreRefusedSayingWhatTheyAre() throws {
        let store = try SyncStore()
        for (text, hint) in [("[]", "TwitterImporter"), (#"{"statuses":[]}"#, "v1.1 search"), (#"{"id":1}"#, "id")] {
            let error = try #require(throws: SyncError.self) { try store.x.importPage(body(text)) }
            #expect(error.code == .unexpectedPayload && error.message.contains(hint), "\(error)")
        }
        let v1 = try #require(throws: SyncError.self) { try store.twitter.importPage(body(#"{"data":[]}"#)) }
        #expect(v1.message.contains("XImporter"))
    }

    @Test func aReferenceCycleNoRealPageHasLinksNothingBackAndEnds() throws {
        let store = try SyncStore()
        let a = post(1, extra: #","referenced_tweets":[{"type":"quoted","id":"2"}]"#)
        let b = post(2, extra: #","referenced_tweets":[{"type":"quoted","id":"1"}]"#)
        try store.x.importPage(body("{\"data\":[\(a)],\"includes\":{\"tweets\":[\(b)]}}"))
        let view = try store.database.view()
        #expect(view.object(ofType: Tweet.self, forPrimaryKey: 1)?.quotedStatus?.id == 2)
        #expect(view.object(ofType: Tweet.self, forPrimaryKey: 2)?.quotedStatusId == 1)
    }
}
