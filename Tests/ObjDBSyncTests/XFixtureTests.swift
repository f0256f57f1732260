import Foundation
import ObjDB
import Testing

@testable import ObjDBSync

/// Every recorded X API v2 payload in `../shared/fixtures/twitter-v2`, imported for real and
/// checked against what Foundation's parser finds in it.
@Suite("X API v2: recorded payloads", .enabled(if: fixturesAvailable, fixturesAbsent))
struct XFixtureTests {
    /// The timeline a recorded file belongs to, from its name.
    private func timeline(for name: String) -> String? {
        if name.contains("home_timeline") { return "home" }
        if name.contains("mentions") { return "mentions" }
        if name.contains("users_tweets") { return "user:fixture" }
        if name.contains("search_") { return "search:fixture" }
        return nil
    }

    private var payloadNames: [String] {
        get throws { try fixtureNames("twitter-v2").filter { !$0.contains("/error_") } }
    }

    @Test func everyPayloadStoresItsPostsUsersAndCountsExactly() throws {
        let names = try payloadNames
        #expect(names.count >= 12)
        for name in names {
            let data = try fixture(name)
            let facts = try XPayloadFacts(data)
            let store = try SyncStore()
            let page = try store.x.importPage(data, timeline: timeline(for: name))
            let view = try store.database.view()
            #expect(Set(view.objects(Tweet.self).map(\.id)) == facts.postIDs, "\(name)")
            #expect(Set(view.objects(TwitterUser.self).map(\.id)) == facts.userIDs, "\(name)")
            #expect(page.statusIDs == facts.ownPostIDs, "\(name)")
            #expect(page.summary[Tweet.self].inserted == facts.postIDs.count, "\(name)")
            #expect(page.summary[TwitterUser.self].inserted == facts.userIDs.count, "\(name)")
            #expect(page.summary.partialErrors.count == facts.errorCount, "\(name)")
            #expect(page.nextToken == facts.nextToken, "\(name)")
            if let timeline = timeline(for: name) {
                let stored = view.object(ofType: Timeline.self, forPrimaryKey: timeline)
                #expect(stored?.entries.map(\.id) ?? [] == facts.ownPostIDs.sorted(by: >), "\(name)")
            }
        }
    }

    @Test func idsTextsDatesAndAuthorsAreThePayloadsExactly() throws {
        for name in try payloadNames {
            let data = try fixture(name)
            let facts = try XPayloadFacts(data)
            let store = try SyncStore()
            try store.x.importPage(data)
            for tweet in try store.database.view().objects(Tweet.self) {
                let post = try #require(facts.posts[tweet.id], "\(name): \(tweet.id) is not in the payload")
                #expect(tweet.text == post.text, "\(name) \(tweet.id)")
                if let createdAt = post.createdAt {
                    #expect(tweet.createdAt == foundationISODate(createdAt), "\(name) \(tweet.id)")
                } else {
                    // Without created_at, the date is the one the Snowflake ID holds.
                    let milliseconds = (tweet.id >> 22) + 1_288_834_974_657
                    #expect(tweet.createdAt == Date(timeIntervalSince1970: Double(milliseconds) / 1000), "\(name)")
                }
                #expect(tweet.user?.id == post.authorID, "\(name) \(tweet.id)")
                #expect(Array(tweet.editHistoryIds) == post.editHistory, "\(name) \(tweet.id)")
                #expect(tweet.conversationId == post.conversationID, "\(name) \(tweet.id)")
                #expect(tweet.hashtags.count == post.hashtagCount, "\(name) \(tweet.id)")
                #expect(tweet.mentions.map(\.userId) == post.mentionIDs, "\(name) \(tweet.id)")
                #expect(tweet.urls.count == post.urlCount, "\(name) \(tweet.id)")
            }
        }
    }

    @Test func referencesLinkThePostsThePageHoldsAndKeepTheIDsOfTheOthers() throws {
        var linked = 0
        var unlinked = 0
        for name in try payloadNames {
            let data = try fixture(name)
            let facts = try XPayloadFacts(data)
            let store = try SyncStore()
            try store.x.importPage(data)
            let view = try store.database.view()
            for (id, post) in facts.posts {
                let tweet = try #require(view.object(ofType: Tweet.self, forPrimaryKey: id))
                let pairs: [(Int64?, Int64?, Int64?)] = [
                    (post.retweeted, tweet.retweetedStatusId, tweet.retweetedStatus?.id),
                    (post.quoted, tweet.quotedStatusId, tweet.quotedStatus?.id),
                    (post.repliedTo, tweet.inReplyToStatusId, tweet.inReplyTo?.id),
                ]
                for (expected, storedID, link) in pairs {
                    #expect(storedID == expected, "\(name) \(id)")
                    if let expected, facts.postIDs.contains(expected) {
                        #expect(link == expected, "\(name) \(id): not linked")
                        linked += 1
                    } else {
                        #expect(link == nil, "\(name) \(id)")
                        if expected != nil { unlinked += 1 }
                    }
                }
            }
        }
        #expect(linked > 20 && unlinked > 0)
    }

    @Test func mediaFromIncludesAreStoredInThePostsThatAttachThem() throws {
        let data = try fixture("twitter-v2/tweets_lookup_2021_yvesbou_media_reserialized.json")
        let store = try SyncStore()
        try store.x.importPage(data)
        let view = try store.database.view()
        let video = try #require(view.object(ofType: Tweet.self, forPrimaryKey: 1_267_631_648_910_139_392)?.media.first)
        #expect(video.mediaKey == "7_1267631201906376704" && video.id == 1_267_631_201_906_376_704)
        #expect(video.type == "video" && video.durationMs == 130_922 && video.viewCount == 22_279_610)
        #expect(video.mediaURL.hasPrefix("https://pbs.twimg.com/ext_tw_video_thumb/"))
        let photo = try #require(view.object(ofType: Tweet.self, forPrimaryKey: 1_425_855_818_512_011_264)?.media.first)
        #expect(photo.type == "photo" && photo.width == 429 && photo.height == 648)
        #expect(photo.mediaURL == "https://pbs.twimg.com/media/E8moT2aVUAckPMv.jpg")
        // Attached, but not expanded: 1325905401750106113 names a media key includes.media lacks.
        #expect(view.object(ofType: Tweet.self, forPrimaryKey: 1_325_905_401_750_106_113)?.media.isEmpty == true)
        #expect(view.objects(Tweet.self).reduce(0) { $0 + $1.media.count } == 3)
    }

    @Test func importingEveryPayloadTwiceChangesNothing() throws {
        for name in try payloadNames {
            let data = try fixture(name)
            let store = try SyncStore()
            try store.x.importPage(data, timeline: timeline(for: name))
            let before = try store.snapshot()
            let version = try store.version()
            let again = try store.x.importPage(data, timeline: timeline(for: name))
            #expect(!again.summary.changedAnything, "\(name): \(again.summary)")
            #expect(try store.version() == version, "\(name)")
            #expect(try store.snapshot() == before, "\(name)")
        }
    }

    @Test func partialErrorsAreRecordedAndTheRestImports() throws {
        let data = try fixture("twitter-v2/tweets_lookup_2021_academictwitter_partial_errors.json")
        let page = try SyncStore().x.importPage(data)
        #expect(page.summary.partialErrors.count == 9)
        #expect(page.statusIDs.count == 6)
        let first = try #require(page.summary.partialErrors.first)
        #expect(first.code == "https://api.twitter.com/2/problems/resource-not-found")
        #expect(first.message == "Could not find tweet with ids: [1].")
    }

    @Test func anEmptyPageImportsAsEmpty() throws {
        let store = try SyncStore()
        let page = try store.x.importPage(
            try fixture("twitter-v2/users_mentions_2022_academictwitter_empty.json"), timeline: "mentions")
        #expect(page.statusIDs.isEmpty && page.nextToken == nil)
        #expect(try store.counts()["Tweet"] == 0)
        let timeline = try store.database.view().object(ofType: Timeline.self, forPrimaryKey: "mentions")
        #expect(timeline?.entries.isEmpty == true && timeline?.newestId == nil)
    }

    @Test func aUserLookupStoresTheUserAndJoinsNoTimeline() throws {
        let store = try SyncStore()
        let page = try store.x.importPage(
            try fixture("twitter-v2/users_by_username_2021_tweepy.json"), timeline: "home")
        #expect(page.statusIDs.isEmpty && page.timeline == nil)
        let view = try store.database.view()
        let user = try #require(view.object(ofType: TwitterUser.self, forPrimaryKey: 783_214))
        #expect(user.screenName == "Twitter" && user.name == "Twitter")
        #expect(view.objects(Timeline.self).isEmpty)
    }

    @Test func theRecordedProblemDocumentIsATypedError() throws {
        let store = try SyncStore()
        let error = try #require(throws: SyncError.self) {
            try store.x.importPage(try fixture("twitter-v2/error_401_2021_academictwitter.json"), timeline: "home")
        }
        #expect(error.code == .apiError)
        #expect(error.apiMessages == [SyncError.APIMessage(code: "401", message: "Unauthorized")])
        #expect(try store.counts().values.allSatisfy { $0 == 0 })
    }

    @Test func everyPayloadTogetherBuildsOneConsistentStore() throws {
        let store = try SyncStore()
        var posts = Set<Int64>()
        var users = Set<Int64>()
        for name in try payloadNames {
            let data = try fixture(name)
            let facts = try XPayloadFacts(data)
            posts.formUnion(facts.postIDs)
            users.formUnion(facts.userIDs)
            try store.x.importPage(data, timeline: timeline(for: name))
        }
        let counts = try store.counts()
        #expect(counts["Tweet"] == posts.count)
        #expect(counts["TwitterUser"] == users.count)
    }
}

/// What an X API v2 payload holds, counted with Foundation's parser, independently of the importer.
struct XPayloadFacts {
    struct Post {
        var text: String
        var createdAt: String?
        var authorID: Int64?
        var conversationID: Int64?
        var editHistory: [Int64] = []
        var retweeted: Int64?
        var quoted: Int64?
        var repliedTo: Int64?
        var hashtagCount = 0
        var mentionIDs: [Int64] = []
        var urlCount = 0
    }

    var posts: [Int64: Post] = [:]
    var ownPostIDs: [Int64] = []
    var userIDs: Set<Int64> = []
    var errorCount = 0
    var nextToken: String?

    var postIDs: Set<Int64> { Set(posts.keys) }

    init(_ data: Data) throws {
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var items: [[String: Any]] = []
        if let array = root["data"] as? [[String: Any]] { items = array }
        if let object = root["data"] as? [String: Any] { items = [object] }
        let includes = root["includes"] as? [String: Any] ?? [:]
        for user in includes["users"] as? [[String: Any]] ?? [] { userIDs.insert(Self.id(user["id"])!) }
        for item in items {
            if item["username"] != nil && item["text"] == nil {
                userIDs.insert(Self.id(item["id"])!)
            } else {
                ownPostIDs.append(Self.id(item["id"])!)
                visit(item)
            }
        }
        for post in includes["tweets"] as? [[String: Any]] ?? [] { visit(post) }
        errorCount = (root["errors"] as? [Any])?.count ?? 0
        nextToken = (root["meta"] as? [String: Any])?["next_token"] as? String
    }

    private static func id(_ value: Any?) -> Int64? { (value as? String).flatMap { Int64($0) } }

    private mutating func visit(_ json: [String: Any]) {
        let id = Self.id(json["id"])!
        let note = json["note_tweet"] as? [String: Any]
        var post = Post(text: (note?["text"] ?? json["text"]) as! String)
        post.createdAt = json["created_at"] as? String
        post.authorID = Self.id(json["author_id"])
        post.conversationID = Self.id(json["conversation_id"])
        post.editHistory = (json["edit_history_tweet_ids"] as? [String] ?? []).compactMap { Int64($0) }.sorted()
        if let author = post.authorID { userIDs.insert(author) }
        for reference in json["referenced_tweets"] as? [[String: Any]] ?? [] {
            let target = Self.id(reference["id"])
            switch reference["type"] as? String {
            case "retweeted": post.retweeted = target
            case "quoted": post.quoted = target
            case "replied_to": post.repliedTo = target
            default: break
            }
        }
        let entities = (note?["entities"] ?? json["entities"]) as? [String: Any] ?? [:]
        post.hashtagCount = (entities["hashtags"] as? [Any])?.count ?? 0
        post.urlCount = (entities["urls"] as? [Any])?.count ?? 0
        for mention in entities["mentions"] as? [[String: Any]] ?? [] {
            let mentioned = Self.id(mention["id"])
            post.mentionIDs.append(mentioned ?? 0)
            if let mentioned { userIDs.insert(mentioned) }
        }
        posts[id] = post
    }
}

/// Parses v2's `created_at` (`2021-06-01T11:32:18.000Z`) with Foundation's formatter, as an app would.
func foundationISODate(_ text: String) -> Date? {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return formatter.date(from: text)
}
