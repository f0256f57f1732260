import Foundation
import ObjDB
import Testing

@testable import ObjDBSync

/// Every recorded Twitter payload in `../shared/fixtures/twitter`, imported for real.
@Suite("Twitter: recorded payloads", .enabled(if: fixturesAvailable, fixturesAbsent))
struct TwitterFixtureTests {
    /// The timeline a recorded file belongs to, from its name.
    private func timeline(for name: String) -> String? {
        if name.contains("home_timeline") { return "home" }
        if name.contains("mentions_timeline") { return "mentions" }
        if name.contains("user_timeline") { return "user:fixture" }
        return nil
    }

    private var payloadNames: [String] {
        get throws { try fixtureNames("twitter").filter { !$0.contains("/error_") } }
    }

    @Test func everyPayloadStoresItsDistinctStatusesAndUsers() throws {
        let names = try payloadNames
        #expect(names.count == 19)
        for name in names {
            let data = try fixture(name)
            let facts = try TwitterPayloadFacts(data)
            let store = try SyncStore()
            let page = try store.twitter.importPage(data, timeline: timeline(for: name))
            let view = try store.database.view()
            #expect(Set(view.objects(Tweet.self).map(\.id)) == facts.statusIDs, "\(name)")
            #expect(Set(view.objects(TwitterUser.self).map(\.id)) == facts.userIDs, "\(name)")
            #expect(page.summary[Tweet.self].inserted == facts.statusIDs.count, "\(name)")
            #expect(page.statusIDs == facts.ownStatusIDs, "\(name)")
        }
    }

    @Test func idsAndDatesAreThePayloadsExactly() throws {
        for name in try payloadNames {
            let data = try fixture(name)
            let facts = try TwitterPayloadFacts(data)
            let store = try SyncStore()
            try store.twitter.importPage(data)
            for tweet in try store.database.view().objects(Tweet.self) {
                let createdAt = try #require(facts.createdAt[tweet.id], "\(name): \(tweet.id) is not in the payload")
                #expect(tweet.createdAt == foundationTwitterDate(createdAt), "\(name) \(tweet.id)")
                #expect(tweet.text == facts.texts[tweet.id], "\(name) \(tweet.id)")
            }
        }
    }

    @Test func importingEveryPayloadTwiceChangesNothing() throws {
        for name in try payloadNames {
            let data = try fixture(name)
            let store = try SyncStore()
            try store.twitter.importPage(data, timeline: timeline(for: name))
            let before = try store.snapshot()
            let version = try store.version()
            let again = try store.twitter.importPage(data, timeline: timeline(for: name))
            #expect(!again.summary.changedAnything, "\(name): \(again.summary)")
            #expect(try store.version() == version, "\(name)")
            #expect(try store.snapshot() == before, "\(name)")
        }
    }

    @Test func retweetsAndQuotesLinkTheirOriginals() throws {
        let data = try fixture("twitter/home_timeline_2015_python-twitter.json")
        let statuses = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        let store = try SyncStore()
        try store.twitter.importPage(data, timeline: "home")
        let view = try store.database.view()
        var retweets = 0
        for status in statuses {
            let tweet = try #require(
                view.object(ofType: Tweet.self, forPrimaryKey: Int64(status["id_str"] as! String)!))
            if let original = status["retweeted_status"] as? [String: Any] {
                retweets += 1
                #expect(tweet.retweetedStatus?.id == Int64(original["id_str"] as! String))
                #expect(
                    tweet.retweetedStatus?.user?.id == Int64((original["user"] as! [String: Any])["id_str"] as! String))
            }
            if let quoted = status["quoted_status"] as? [String: Any] {
                #expect(tweet.quotedStatus?.id == Int64(quoted["id_str"] as! String))
            }
        }
        #expect(retweets == 14)
    }

    @Test func aTimelineHoldsItsOwnStatusesNewestFirst() throws {
        let data = try fixture("twitter/home_timeline_2015_python-twitter.json")
        let facts = try TwitterPayloadFacts(data)
        let store = try SyncStore()
        try store.twitter.importPage(data, timeline: "home")
        let home = try #require(try store.database.view().object(ofType: Timeline.self, forPrimaryKey: "home"))
        #expect(home.entries.map(\.id) == facts.ownStatusIDs.sorted(by: >))
        #expect(home.newestId == facts.ownStatusIDs.max())
        #expect(home.oldestId == facts.ownStatusIDs.min())
        #expect(facts.statusIDs.count > facts.ownStatusIDs.count)  // originals are stored, not entries
    }

    @Test func extendedModeStoresTheFullText() throws {
        let store = try SyncStore()
        try store.twitter.importPage(try fixture("twitter/user_timeline_2022_rtweet_extended.json"))
        #expect(try store.database.view().objects(Tweet.self).contains { $0.text.count > 140 })
    }

    @Test func aSearchResponseFillsTheTimelineOfItsQuery() throws {
        let store = try SyncStore()
        let page = try store.twitter.importPage(try fixture("twitter/search_tweets_2013_twitter-ruby.json"))
        #expect(page.timeline == "search:#freebandnames")
        let timeline = try store.database.view().object(ofType: Timeline.self, forPrimaryKey: "search:#freebandnames")
        #expect(timeline?.entries.count == 3)
    }

    @Test func usersShowStoresTheUserAndItsLatestStatusByIt() throws {
        for name in [
            "twitter/users_show_2013_tweepy_twitter.json", "twitter/users_show_2015_python-twitter_kesuke.json",
        ] {
            let data = try fixture(name)
            let user = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let store = try SyncStore()
            try store.twitter.importPage(data, timeline: "home")
            let view = try store.database.view()
            let stored = try #require(
                view.object(ofType: TwitterUser.self, forPrimaryKey: Int64(user["id_str"] as! String)!))
            #expect(stored.screenName == user["screen_name"] as? String)
            #expect(stored.followersCount == user["followers_count"] as? Int)
            #expect(stored.tweets.count == 1, "\(name)")
            #expect(view.objects(Timeline.self).isEmpty)
        }
    }

    @Test func theRecordedErrorBodyIsATypedErrorWithItsCodeAndMessage() throws {
        let store = try SyncStore()
        let error = try #require(throws: SyncError.self) {
            try store.twitter.importPage(try fixture("twitter/error_215_bad_auth_2015_tweepy.json"), timeline: "home")
        }
        #expect(error.code == .apiError)
        #expect(error.apiMessages == [SyncError.APIMessage(code: "215", message: "Bad Authentication data.")])
        #expect(try store.counts().values.allSatisfy { $0 == 0 })
    }

    @Test func everyPayloadTogetherBuildsOneConsistentStore() throws {
        let store = try SyncStore()
        var statuses = Set<Int64>()
        var users = Set<Int64>()
        for name in try payloadNames {
            let data = try fixture(name)
            let facts = try TwitterPayloadFacts(data)
            statuses.formUnion(facts.statusIDs)
            users.formUnion(facts.userIDs)
            try store.twitter.importPage(data, timeline: timeline(for: name))
        }
        let counts = try store.counts()
        #expect(counts["Tweet"] == statuses.count)
        #expect(counts["TwitterUser"] == users.count)
    }
}
