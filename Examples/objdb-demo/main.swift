import Foundation
import ObjDB

// The demo grows with the product. Today: a Twitter timeline cache. It declares two
// models, imports pages of tweets finding or creating their users by id, pages by
// since_id/max_id, queries three ways, and leaves the store for objdb-inspect.

final class TwitterUser: Object {
    @Persisted(primaryKey: true) var id: Int64
    @Persisted var name = ""
    @Persisted(indexed: true) var screenName = ""
    @Persisted(originProperty: "user") var tweets: LinkingObjects<Tweet>
}

final class Tweet: Object {
    @Persisted(primaryKey: true) var id: Int64
    @Persisted var text = ""
    @Persisted(indexed: true) var createdAt = Date()
    @Persisted var retweetCount = 0
    @Persisted var user: TwitterUser?
    @Persisted var retweetedBy: List<TwitterUser>
}

let path = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "demo.objdb"
try? FileManager.default.removeItem(atPath: path)
try? FileManager.default.removeItem(atPath: path + "-lock")

do {
    let db = try Database(path: path, types: [Tweet.self, TwitterUser.self])
    print("Created \(path)")

    let handles = ["jack", "biz", "ev", "swiftlang", "ada", "grace", "linus", "guido"]
    var generator = DemoRandom()
    for page in 0..<5 {
        try db.write { transaction in
            for offset in 0..<40 {
                let id = Int64(1_000 + page * 40 + offset)
                let userID = Int64(id % Int64(handles.count) + 1)
                let user =
                    try transaction.object(ofType: TwitterUser.self, forPrimaryKey: userID)
                    ?? (try transaction.create(
                        TwitterUser.self,
                        value: [
                            "id": userID, "screenName": handles[Int(userID) - 1],
                            "name": handles[Int(userID) - 1].capitalized,
                        ]))
                let tweet = Tweet()
                tweet.id = id
                tweet.text =
                    "tweet \(id) about \(["Swift", "LMDB", "coffee", "objects"].randomElement(using: &generator)!)"
                tweet.createdAt = Date(timeIntervalSince1970: 1_700_000_000 + Double(id) * 60)
                tweet.retweetCount = Int.random(in: 0...100, using: &generator)
                tweet.user = user
                try transaction.add(tweet, update: .modified)
            }
        }
    }
    let view = try db.view()
    let tweets = view.objects(Tweet.self)
    print("Imported \(tweets.count) tweets by \(view.objects(TwitterUser.self).count) users in 5 pages")
    let newest = tweets.sorted(by: \.id, ascending: false).limit(1).first
    print("Paging: since_id = \(newest?.id ?? 0), max_id = \((tweets.first?.id ?? 1) - 1)")

    let popular = try tweets.filter("retweetCount > %@ AND user.screenName == %@", 50, "swiftlang")
    let typed = tweets.where { $0.retweetCount > 50 && $0.user.screenName == "swiftlang" }
    print("Popular tweets by @swiftlang: \(popular.count) (string predicate), \(typed.count) (where)")
    print("Plan: \(try view.objects(TwitterUser.self).filter("screenName == 'jack'").explain())")
    let jack = view.object(ofType: TwitterUser.self, forPrimaryKey: Int64(handles.firstIndex(of: "jack")! + 1))
    print("@jack has \(jack?.tweets.count ?? 0) tweets; the first says \"\(jack?.tweets.first?.text ?? "")\"")
} catch {
    FileHandle.standardError.write(Data("objdb-demo: \(error)\n".utf8))
    exit(1)
}

/// A seeded generator, so the demo's store (and the README's session on it) is the same on every run.
struct DemoRandom: RandomNumberGenerator {
    private var state: UInt64 = 0x2545_F491_4F6C_DD1D
    mutating func next() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }
}
