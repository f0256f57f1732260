import Foundation
import TestSupport
import Testing

@testable import ObjDB

@Suite("Queries")
struct QueryTests {
    let directory = TemporaryDirectory()

    /// Tweets 1…50 by users 1…5 (tweet n by user n % 5 + 1), retweetCount n % 13.
    func seedTweets() throws -> Database {
        let db = try makeDatabase(directory)
        try db.write { transaction in
            for id in 1...5 {
                try transaction.add(makeUser(Int64(id), ["swiftlang", "jack", "Ada", "ådå", "bob"][id - 1]))
            }
            for id in 1...50 {
                let tweet = makeTweet(
                    Int64(id), id % 2 == 0 ? "Swift \(id)" : "objc \(id)",
                    by: transaction.object(ofType: TwitterUser.self, forPrimaryKey: Int64(id % 5 + 1)))
                tweet.retweetCount = id % 13
                tweet.createdAt = Date(timeIntervalSince1970: TimeInterval(1_000 * id))
                try transaction.add(tweet)
            }
        }
        return db
    }

    // MARK: The seed apps' queries

    @Test func newestAndOldestTweetByIdWithALimitOfOne() throws {
        let tweets = try seedTweets().view().objects(Tweet.self)
        #expect(try tweets.sorted(byKeyPath: "id", ascending: false).limit(1).map(\.id) == [50])
        #expect(try tweets.sorted(byKeyPath: "id").limit(1).map(\.id) == [1])
        #expect(try tweets.sorted(byKeyPath: "id").limit(1).explain().contains("sorted by the scan"))
    }

    @Test func photosTaggedWithATagSortedByTitleCaseInsensitively() throws {
        let db = try makeDatabase(directory)
        try db.write { transaction in
            let sunset = try transaction.create(Tag.self, value: ["name": "sunset"])
            let city = try transaction.create(Tag.self, value: ["name": "city"])
            for (id, title, tags) in [
                ("1", "beach", [sunset]), ("2", "Alps", [sunset, city]), ("3", "Zoo", [city]), ("4", "alley", [sunset]),
            ] {
                let photo = try transaction.create(Photo.self, value: ["id": id, "title": title])
                photo.tags.insert(contentsOf: tags)
            }
        }
        let view = try db.view()
        let sunset = try #require(view.object(ofType: Tag.self, forPrimaryKey: "sunset"))
        let photos = try view.objects(Photo.self).filter("%@ IN tags", sunset)
            .sorted(by: [SortKey("title", options: .caseInsensitive)])
        #expect(photos.map(\.title) == ["alley", "Alps", "beach"])
        let byName = try view.objects(Photo.self).filter("ANY tags.name == 'sunset'")
        #expect(Set(byName.map(\.id)) == ["1", "2", "4"])
    }

    @Test func recentsSortedByLastViewedDescending() throws {
        let db = try makeDatabase(directory)
        try db.write { transaction in
            for second in [5, 1, 9, 3] {
                let recent = Recent()
                recent.lastViewed = Date(timeIntervalSince1970: TimeInterval(second))
                try transaction.add(recent)
            }
        }
        let recents = try db.view().objects(Recent.self).sorted(byKeyPath: "lastViewed", ascending: false)
        #expect(recents.map(\.lastViewed.timeIntervalSince1970) == [9, 5, 3, 1])
        #expect(try recents.explain().contains("index order scan on lastViewed (descending)"))
    }

    @Test func beersOfAStyle() throws {
        let db = try makeDatabase(directory)
        try db.write { transaction in
            let lambic = try transaction.create(BeerStyle.self, value: ["name": "Lambic"])
            let stout = try transaction.create(BeerStyle.self, value: ["name": "Stout"])
            try transaction.create(Beer.self, value: ["name": "Kriek", "style": lambic])
            try transaction.create(Beer.self, value: ["name": "Guinness", "style": stout])
            try transaction.create(Beer.self, value: ["name": "Geuze", "style": lambic])
        }
        let view = try db.view()
        let lambic = try #require(view.object(ofType: BeerStyle.self, forPrimaryKey: "Lambic"))
        #expect(try view.objects(Beer.self).filter("style == %@", lambic).map(\.name) == ["Geuze", "Kriek"])
        #expect(try view.objects(Beer.self).filter("style.name == 'Stout'").map(\.name) == ["Guinness"])
        #expect(view.objects(Beer.self).where { $0.style.name == "Lambic" }.map(\.name) == ["Geuze", "Kriek"])
    }

    // MARK: Front-ends agree

    @Test func theThreeFrontEndsGiveTheSameResults() throws {
        let tweets = try seedTweets().view().objects(Tweet.self)
        let string = try tweets.filter("retweetCount > 5 AND user.screenName == 'swiftlang'").map(\.id)
        let typed = tweets.where { $0.retweetCount > 5 && $0.user.screenName == "swiftlang" }.map(\.id)
        let foundation = try tweets.filter(
            #Predicate<Tweet> { $0.retweetCount > 5 && $0.user?.screenName == "swiftlang" }
        ).map(\.id)
        #expect(!string.isEmpty)
        #expect(string == typed)
        #expect(string == foundation)
        #expect(string == tweets.filter { $0.retweetCount > 5 && $0.user?.screenName == "swiftlang" }.map(\.id))
    }

    @Test func stringOperatorsAndModifiers() throws {
        let users = try seedTweets().view().objects(TwitterUser.self)
        #expect(try users.filter("screenName BEGINSWITH 'sw'").map(\.id) == [1])
        #expect(try users.filter("screenName ==[c] 'ADA'").map(\.id) == [3])
        #expect(try users.filter("screenName ==[cd] 'ADA'").map(\.id) == [3, 4])
        #expect(try users.filter("screenName LIKE '?a*'").map(\.id) == [2])
        #expect(try users.filter("screenName ENDSWITH 'ob' OR screenName CONTAINS[c] 'LANG'").map(\.id) == [1, 5])
        #expect(try users.filter("screenName IN {'bob', 'jack', 'nobody'}").map(\.id) == [2, 5])
        #expect(users.where { $0.screenName.starts(with: "SW", options: .caseInsensitive) }.map(\.id) == [1])
    }

    @Test func numbersRangesNilAndCollections() throws {
        let db = try seedTweets()
        let tweets = try db.view().objects(Tweet.self)
        #expect(try tweets.filter("retweetCount BETWEEN {11, 12}").map(\.id) == [11, 12, 24, 25, 37, 38, 50])
        #expect(try tweets.filter("user == nil").isEmpty)
        #expect(try tweets.filter("NOT (retweetCount < 12)").map(\.id) == [12, 25, 38])
        #expect(try tweets.filter("id > 48 || id <= 1").map(\.id) == [1, 49, 50])
        let users = try db.view().objects(TwitterUser.self)
        #expect(try users.filter("tweets.@count == 10").count == 5)
        #expect(try users.filter("ANY tweets.retweetCount == 12").map(\.id) == [1, 3, 4])
        #expect(try users.filter("ALL tweets.retweetCount < 12").map(\.id) == [2, 5])
        #expect(users.where { $0.tweets.count > 9 }.count == 5)
        #expect(try tweets.filter("TRUEPREDICATE").count == 50)
        #expect(try tweets.filter("FALSEPREDICATE").isEmpty)
    }

    @Test func aggregatesDistinctAndSorts() throws {
        let tweets = try seedTweets().view().objects(Tweet.self)
        #expect(try tweets.max(ofProperty: "retweetCount") == .int(12))
        #expect(try tweets.min(ofProperty: "retweetCount") == .int(0))
        #expect(try tweets.sum(ofProperty: "retweetCount") == Double((1...50).map { $0 % 13 }.reduce(0, +)))
        #expect(try tweets.filter("id <= 4").average(ofProperty: "id") == 2.5)
        #expect(try tweets.distinct(by: ["user.screenName"]).map(\.id) == [1, 2, 3, 4, 5])
        let sorted = try tweets.sorted(by: [SortKey("retweetCount", ascending: false), SortKey("id")])
        #expect(sorted.prefix(3).map(\.id) == [12, 25, 38])
        #expect(try tweets.sorted(byKeyPath: "user.screenName").first?.user?.screenName == "Ada")
    }

    // MARK: Plans

    @Test func explainShowsPrimaryKeyAndIndexUse() throws {
        let view = try seedTweets().view()
        let tweets = view.objects(Tweet.self)
        #expect(try tweets.filter("id == 7").explain().contains("primary key lookup (1 key)"))
        #expect(try tweets.filter("id IN {1, 2, 3}").explain().contains("primary key lookup (3 keys)"))
        #expect(try tweets.filter("id > 40").explain().contains("primary key range scan"))
        let since = Date(timeIntervalSince1970: 45_000)
        #expect(try tweets.filter("createdAt >= %@", since).explain().contains("index range scan on createdAt"))
        let users = view.objects(TwitterUser.self)
        #expect(try users.filter("screenName == 'jack'").explain().contains("index lookup on screenName (1 key)"))
        #expect(
            try users.filter("screenName IN {'jack', 'bob'}").explain().contains("index lookup on screenName (2 keys)"))
        #expect(try users.filter("screenName BEGINSWITH 'ja'").explain().contains("index range scan on screenName"))
        #expect(try tweets.filter("retweetCount == 3").explain().contains("full scan"))
        // the plans find what a scan finds
        #expect(try tweets.filter("id > 40").map(\.id) == Array(41...50))
        #expect(try tweets.filter("createdAt >= %@", since).map(\.id) == Array(45...50))
        #expect(try users.filter("screenName IN {'jack', 'bob'}").map(\.id) == [2, 5])
        #expect(try users.filter("screenName BEGINSWITH 'ja'").map(\.id) == [2])
    }

    @Test func aQueryReadsTheSnapshotOfItsView() throws {
        let db = try seedTweets()
        let view = try db.view()
        let popular = try view.objects(Tweet.self).filter("retweetCount == 12")
        #expect(popular.count == 3)
        try db.write { try $0.create(Tweet.self, value: ["id": 100, "retweetCount": 12]) }
        #expect(popular.count == 3)
        try view.refresh()
        #expect(popular.count == 4)
    }

    // MARK: Errors

    @Test func syntaxErrorsPointAtTheirPosition() throws {
        let tweets = try seedTweets().view().objects(Tweet.self)
        #expect(
            throws: ObjDBError.predicateSyntax(
                predicate: "retweetCount >> 5", position: 14, message: "expected a key path or a value, found '>'")
        ) { try tweets.filter("retweetCount >> 5") }
        #expect { try tweets.filter("(id == 1") } throws: { error in
            guard let error = error as? ObjDBError, error.code == .predicateSyntax else { return false }
            let position = error.position
            let message = error.message
            return position == 8 && message.contains("closing parenthesis")
        }
        #expect { try tweets.filter("text == 'open") } throws: { error in
            guard let error = error as? ObjDBError, error.code == .predicateSyntax else { return false }
            let position = error.position
            return position == 8
        }
        #expect(throws: ObjDBError.self) { try tweets.filter("id == %@") }
    }

    @Test func unknownPropertiesAndMeaninglessComparisonsAreTypedErrors() throws {
        let tweets = try seedTweets().view().objects(Tweet.self)
        #expect(throws: ObjDBError.invalidQuery(type: "Tweet", reason: "Tweet has no property body (at position 0)")) {
            try tweets.filter("body == 'x'")
        }
        #expect(throws: ObjDBError.self) { try tweets.filter("text > 5") }
        #expect(throws: ObjDBError.self) { try tweets.filter("retweetCount BEGINSWITH 'x'") }
    }

    @Test func untranslatablePredicatesAreErrorsNotWrongResults() throws {
        let tweets = try seedTweets().view().objects(Tweet.self)
        #expect {
            try tweets.filter(#Predicate<Tweet> { $0.retweetCount + 1 > 5 })
        } throws: { error in
            guard let error = error as? ObjDBError, error.code == .invalidQuery else { return false }
            let reason = error.message
            return reason.contains("cannot translate")
        }
    }
}
