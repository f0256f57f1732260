import Foundation
import ObjDBInspection
import TestSupport
import Testing

@testable import ObjDB

/// Random sequences of writes, each checked against a plain in-memory model of
/// what the store must hold, and against the store's own consistency check.
@Suite("Objects: model-based")
struct ModelBasedTests {
    struct UserState: Equatable {
        var screenName: String
    }

    struct TweetState: Equatable {
        var text: String
        var retweetCount: Int
        var userID: Int64?
        var retweeters: [Int64]
    }

    struct Model: Equatable {
        var users: [Int64: UserState] = [:]
        var tweets: [Int64: TweetState] = [:]

        mutating func deleteUser(_ id: Int64) {
            users[id] = nil
            for key in tweets.keys {
                if tweets[key]!.userID == id { tweets[key]!.userID = nil }
                tweets[key]!.retweeters.removeAll { $0 == id }
            }
        }
    }

    /// The store's contents in the model's terms.
    func snapshot(_ db: Database) throws -> Model {
        try db.read { view in
            var model = Model()
            for user in view.objects(TwitterUser.self) { model.users[user.id] = UserState(screenName: user.screenName) }
            for tweet in view.objects(Tweet.self) {
                model.tweets[tweet.id] = TweetState(
                    text: tweet.text, retweetCount: tweet.retweetCount, userID: tweet.user?.id,
                    retweeters: tweet.retweetedBy.map(\.id))
            }
            // backlinks agree with links
            for user in view.objects(TwitterUser.self) {
                let linking = Set(user.tweets.map(\.id))
                let expected = Set(model.tweets.filter { $0.value.userID == user.id }.keys)
                #expect(linking == expected, "tweets of user \(user.id)")
            }
            return model
        }
    }

    @Test(arguments: [1, 2, 3, 4])
    func randomWritesMatchTheModel(seed: UInt64) throws {
        let directory = TemporaryDirectory()
        var db = try makeDatabase(directory)
        var model = Model()
        var random = SeededGenerator(seed: seed)
        let names = ["ada", "bob", "cy", "dee", "", "émile", "🐦"]

        for step in 0..<150 {
            var next = model
            let abort = Int.random(in: 0..<8, using: &random) == 0
            do {
                try db.write { transaction in
                    for _ in 0..<Int.random(in: 1...4, using: &random) {
                        let userID = Int64.random(in: 1...6, using: &random)
                        let tweetID = Int64.random(in: 1...12, using: &random)
                        switch Int.random(in: 0..<7, using: &random) {
                        case 0:
                            let name = names.randomElement(using: &random)!
                            try transaction.create(
                                TwitterUser.self, value: ["id": userID, "screenName": name], update: .modified)
                            let existing = next.users[userID]
                            next.users[userID] = UserState(screenName: name)
                            _ = existing
                        case 1:
                            guard next.tweets[tweetID] == nil else { continue }
                            let tweet = Tweet()
                            tweet.id = tweetID
                            tweet.text = "t\(step)"
                            tweet.user = transaction.object(ofType: TwitterUser.self, forPrimaryKey: userID)
                            try transaction.add(tweet)
                            next.tweets[tweetID] = TweetState(
                                text: tweet.text, retweetCount: 0, userID: tweet.user?.id, retweeters: [])
                        case 2:
                            let policy: UpdatePolicy = Bool.random(using: &random) ? .modified : .all
                            let tweet = Tweet()
                            tweet.id = tweetID
                            tweet.text = "upsert\(step)"
                            tweet.retweetCount = step
                            try transaction.add(tweet, update: policy)
                            next.tweets[tweetID] = TweetState(
                                text: tweet.text, retweetCount: step, userID: nil, retweeters: [])
                        case 3:
                            guard let tweet = transaction.object(ofType: Tweet.self, forPrimaryKey: tweetID) else {
                                continue
                            }
                            tweet.retweetCount += 1
                            tweet.user = transaction.object(ofType: TwitterUser.self, forPrimaryKey: userID)
                            next.tweets[tweetID]!.retweetCount += 1
                            next.tweets[tweetID]!.userID = tweet.user?.id
                        case 4:
                            guard let tweet = transaction.object(ofType: Tweet.self, forPrimaryKey: tweetID),
                                let user = transaction.object(ofType: TwitterUser.self, forPrimaryKey: userID)
                            else { continue }
                            tweet.retweetedBy.append(user)
                            next.tweets[tweetID]!.retweeters.append(userID)
                        case 5:
                            guard let user = transaction.object(ofType: TwitterUser.self, forPrimaryKey: userID) else {
                                continue
                            }
                            try transaction.delete(user)
                            next.deleteUser(userID)
                        default:
                            guard let tweet = transaction.object(ofType: Tweet.self, forPrimaryKey: tweetID) else {
                                continue
                            }
                            try transaction.delete(tweet)
                            next.tweets[tweetID] = nil
                        }
                    }
                    if abort { throw CancellationError() }
                }
                model = next
            } catch is CancellationError {
                // the model stays as it was
            }
            #expect(try snapshot(db) == model, "step \(step), seed \(seed)")
            #expect(try StoreCheck(database: db).problems() == [], "step \(step), seed \(seed)")
            if step % 50 == 49 {
                db = try makeDatabase(directory)
            }
        }
    }
}

/// A small deterministic generator, so a failing seed fails again.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 | 1 }
    mutating func next() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }
}
