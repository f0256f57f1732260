import Foundation
import ObjDB
import Testing

@testable import ObjDBSync

/// Payloads the project generates: the shapes and sizes the recorded ones lack.
@Suite("Twitter: generated payloads")
struct TwitterImportTests {
    @Test func twoHundredStatusPagesStoreEveryStatusAndUserOnce() throws {
        var generator = TwitterPayloadGenerator(seed: 7)
        let store = try SyncStore()
        var statuses = Set<Int64>()
        var users = Set<Int64>()
        for page in 0..<3 {
            let data = generator.timeline(count: 200, newestID: 9_000_000_000_000_000_000 - Int64(page) * 10_000_000)
            let facts = try TwitterPayloadFacts(data)
            statuses.formUnion(facts.statusIDs)
            users.formUnion(facts.userIDs)
            let imported = try store.twitter.importPage(data, timeline: "home")
            #expect(imported.statusIDs.count == 200)
        }
        let counts = try store.counts()
        #expect(counts["Tweet"] == statuses.count)
        #expect(counts["TwitterUser"] == users.count)
        let home = try #require(try store.database.view().object(ofType: Timeline.self, forPrimaryKey: "home"))
        #expect(home.entries.count == 600)
    }

    @Test func aPageImportedTwiceReportsEverythingUnchanged() throws {
        var generator = TwitterPayloadGenerator(seed: 8)
        let data = generator.timeline(count: 200, newestID: 1_500_000_000_000_000_000)
        let store = try SyncStore()
        let first = try store.twitter.importPage(data, timeline: "home")
        let second = try store.twitter.importPage(data, timeline: "home")
        for name in ["Tweet", "TwitterUser", "Timeline"] {
            #expect(second.summary[name].unchanged == first.summary[name].inserted, "\(name)")
            #expect(second.summary[name].changed == 0, "\(name)")
        }
    }

    @Test func pagesOlderAndNewerMergeIntoOneTimelineNewestFirst() throws {
        var generator = TwitterPayloadGenerator(seed: 9)
        let store = try SyncStore()
        let middle = generator.timeline(count: 20, newestID: 5_000_000)
        let older = generator.timeline(count: 20, newestID: 4_000_000)
        let newer = generator.timeline(count: 20, newestID: 6_000_000)
        var own: [Int64] = []
        for page in [middle, older, newer, middle] {
            own += try TwitterPayloadFacts(page).ownStatusIDs
            try store.twitter.importPage(page, timeline: "home")
        }
        let home = try #require(try store.database.view().object(ofType: Timeline.self, forPrimaryKey: "home"))
        #expect(home.entries.map(\.id) == Array(Set(own)).sorted(by: >))
        #expect(home.newestId == 6_000_000)
        #expect(home.oldestId == Int64(3_981_000))
    }

    @Test func retweetedAndQuotedOriginalsNeverMoveATimelinesCursors() throws {
        var generator = TwitterPayloadGenerator(seed: 10)
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        // Originals with IDs above and below the page's own: only own entries are cursors.
        let newerOriginal = generator.status(id: 900, date: date)
        let olderQuoted = generator.status(id: 5, date: date)
        let page = [
            generator.status(id: 500, date: date, retweeting: newerOriginal),
            generator.status(id: 400, date: date, quoting: olderQuoted),
        ]
        let store = try SyncStore()
        try store.twitter.importPage(Data("[\(page.map(\.json).joined(separator: ","))]".utf8), timeline: "home")
        let view = try store.database.view()
        let home = try #require(view.object(ofType: Timeline.self, forPrimaryKey: "home"))
        #expect(home.entries.map(\.id) == [500, 400])
        #expect(home.newestId == 500)
        #expect(home.oldestId == 400)
        #expect(view.object(ofType: Tweet.self, forPrimaryKey: 900)?.timelines.isEmpty == true)
        #expect(view.objects(Tweet.self).count == 4)
    }

    @Test func aPartialUserFromAMentionNeverOverwritesAFullOne() throws {
        var generator = TwitterPayloadGenerator(seed: 11)
        let author = generator.users[0]
        let store = try SyncStore()
        // The full user first, then mentioned under another name.
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        let full = generator.status(id: 100, date: date, author: author, mentioning: [])
        try store.twitter.importPage(Data("[\(full.json)]".utf8))
        let mention = generator.status(id: 101, date: date, author: generator.users[1], mentioning: [author])
        let renamed = mention.json.replacingOccurrences(
            of: "\"name\":\(jsonLiteral(author.name))", with: "\"name\":\"Someone Else\"")
        let summary = try store.twitter.importPage(Data("[\(renamed)]".utf8)).summary
        let view = try store.database.view()
        let stored = try #require(view.object(ofType: TwitterUser.self, forPrimaryKey: author.id))
        #expect(stored.name == author.name)
        #expect(stored.followersCount == author.followers)
        #expect(stored.createdAt != nil)
        #expect(summary[TwitterUser.self].updated == 0)
        #expect(view.object(ofType: Tweet.self, forPrimaryKey: 101)?.mentions.first?.user?.id == author.id)
    }

    @Test func aUserFirstSeenInAMentionIsCompletedByItsFullCopy() throws {
        var generator = TwitterPayloadGenerator(seed: 12)
        let bystander = generator.bystanders[0]
        let store = try SyncStore()
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        let mention = generator.status(id: 200, date: date, mentioning: [bystander])
        try store.twitter.importPage(Data("[\(mention.json)]".utf8))
        let partial = try #require(
            try store.database.view().object(ofType: TwitterUser.self, forPrimaryKey: bystander.id))
        #expect(partial.screenName == bystander.screenName)
        #expect(partial.createdAt == nil)
        let own = generator.status(id: 201, date: date, author: bystander)
        try store.twitter.importPage(Data("[\(own.json)]".utf8))
        let full = try #require(try store.database.view().object(ofType: TwitterUser.self, forPrimaryKey: bystander.id))
        #expect(full.followersCount == bystander.followers)
        #expect(full.createdAt != nil)
    }

    @Test func inOnePageTheFullCopyOfAUserWinsOverAMentionWhicheverComesFirst() throws {
        var generator = TwitterPayloadGenerator(seed: 13)
        let author = generator.users[2]
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        let mention = generator.status(id: 301, date: date, author: generator.users[3], mentioning: [author])
        let own = generator.status(id: 300, date: date, author: author, mentioning: [])
        let store = try SyncStore()
        let page = Data("[\(mention.json),\(own.json)]".utf8)
        let first = try store.twitter.importPage(page)
        #expect(try store.database.view().object(ofType: TwitterUser.self, forPrimaryKey: author.id)?.createdAt != nil)
        let again = try store.twitter.importPage(page)
        #expect(first.summary[TwitterUser.self].inserted == 2)
        #expect(!again.summary.changedAnything)
    }

    @Test func deepRetweetAndQuoteChainsStoreEveryLevelLinked() throws {
        var generator = TwitterPayloadGenerator(seed: 14)
        let store = try SyncStore()
        let data = generator.chain(depth: 60, newestID: 10_000)
        let page = try store.twitter.importPage(data, timeline: "home")
        #expect(page.statusIDs == [10_000])
        let view = try store.database.view()
        #expect(view.objects(Tweet.self).count == 61)
        var tweet = view.object(ofType: Tweet.self, forPrimaryKey: 10_000)
        var depth = 0
        while let next = tweet?.retweetedStatus ?? tweet?.quotedStatus {
            depth += 1
            tweet = next
        }
        #expect(depth == 60)
        let home = try #require(view.object(ofType: Timeline.self, forPrimaryKey: "home"))
        #expect(home.entries.map(\.id) == [10_000])
    }

    @Test func aChainDeeperThanTheSessionAllowsFailsAndStoresNothing() throws {
        var generator = TwitterPayloadGenerator(seed: 15)
        let store = try SyncStore()
        let error = try #require(throws: SyncError.self) {
            try store.twitter.importPage(generator.chain(depth: 240, newestID: 100_000))
        }
        #expect(error.code == .limitExceeded)
        #expect(try store.counts().values.allSatisfy { $0 == 0 })
    }

    @Test func usersShowLinksTheEmbeddedStatusToItsUser() throws {
        var generator = TwitterPayloadGenerator(seed: 16)
        let store = try SyncStore()
        let data = generator.userShow(index: 4, statusID: 777)
        let page = try store.twitter.importPage(data)
        #expect(page.statusIDs == [777])
        let tweet = try #require(try store.database.view().object(ofType: Tweet.self, forPrimaryKey: 777))
        #expect(tweet.user?.id == generator.users[4].id)
        #expect(!(try store.twitter.importPage(data)).summary.changedAnything)
    }

    @Test func theRateLimitBodyIsARateLimitError() throws {
        let store = try SyncStore()
        let error = try #require(throws: SyncError.self) {
            try store.twitter.importPage(TwitterPayloadGenerator.rateLimitBody, timeline: "home")
        }
        #expect(error.code == .rateLimited)
        #expect(error.apiMessages == [SyncError.APIMessage(code: "88", message: "Rate limit exceeded")])
    }

    @Test func everyErrorBodyShapeBecomesATypedErrorWithItsMessagesAndCodes() throws {
        let store = try SyncStore()
        let cases: [(String, SyncError.Code, [SyncError.APIMessage])] = [
            (
                #"{"errors":[{"code":215,"message":"Bad Authentication data."}]}"#, .apiError,
                [.init(code: "215", message: "Bad Authentication data.")]
            ),
            (
                #"{"errors":[{"message":"Sorry, that page does not exist","code":34}]}"#, .apiError,
                [.init(code: "34", message: "Sorry, that page does not exist")]
            ),
            (
                #"{"errors":[{"code":88,"message":"Rate limit exceeded"},{"code":130,"message":"Over capacity"}]}"#,
                .rateLimited,
                [.init(code: "88", message: "Rate limit exceeded"), .init(code: "130", message: "Over capacity")]
            ),
            (
                #"{"errors":"Missing or invalid url parameter."}"#, .apiError,
                [.init(code: nil, message: "Missing or invalid url parameter.")]
            ),
            (
                #"{"request":"/1.1/statuses/user_timeline.json","error":"Not authorized."}"#, .apiError,
                [.init(code: nil, message: "Not authorized.")]
            ),
            (
                #"{"title":"Unauthorized","type":"about:blank","status":401,"detail":"Unauthorized"}"#, .apiError,
                [.init(code: "401", message: "Unauthorized")]
            ),
            (
                #"{"title":"Too Many Requests","detail":"Too Many Requests","type":"about:blank","status":429}"#,
                .rateLimited, [.init(code: "429", message: "Too Many Requests")]
            ),
        ]
        for (body, code, messages) in cases {
            let error = try #require(throws: SyncError.self) { try store.twitter.importPage(Data(body.utf8)) }
            #expect(error.code == code, "\(body)")
            #expect(error.apiMessages == messages, "\(body)")
        }
    }

    @Test func anUnknownTimelineNameIsRefused() throws {
        let store = try SyncStore()
        for name in ["", "homes", "user:", "search:", "list:swift"] {
            let error = try #require(throws: SyncError.self) {
                try store.twitter.importPage(Data("[]".utf8), timeline: name)
            }
            #expect(error.code == .invalidArgument)
        }
    }

    @Test func anObjectOfNoKnownShapeIsRefusedNamingItsKeys() throws {
        let store = try SyncStore()
        let error = try #require(throws: SyncError.self) {
            try store.twitter.importPage(Data(#"{"data": [], "meta": {}}"#.utf8))
        }
        #expect(error.code == .unexpectedPayload)
        #expect(error.message.contains("data, meta"))
    }
}
