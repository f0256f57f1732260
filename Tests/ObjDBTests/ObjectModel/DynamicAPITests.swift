import Foundation
import TestSupport
import Testing

@testable import ObjDB

@Suite("Dynamic API")
struct DynamicAPITests {
    let directory = TemporaryDirectory()

    func seed() throws {
        let db = try makeDatabase(directory)
        try db.write { transaction in
            try transaction.add(makeTweet(1, "hello", by: makeUser(7, "ada")))
            try transaction.add(
                makeTweet(2, "again", by: transaction.object(ofType: TwitterUser.self, forPrimaryKey: Int64(7))))
        }
    }

    @Test func aStoreOpensWithoutItsClassesAndReadsByName() throws {
        try seed()
        let db = try Database(path: directory.store())
        #expect(db.schema["Tweet"]?["text"]?.type == .string)
        let view = try db.view()
        let tweets = try view.dynamicObjects("Tweet")
        #expect(tweets.map { $0["text"] } == [.string("hello"), .string("again")])
        #expect(tweets[0]["user"] == .link(type: "TwitterUser", key: .int(7)))
        #expect(try tweets[0].linkedObject("user")?["screenName"] == .string("ada"))
        let ada = try #require(try view.dynamicObject("TwitterUser", forPrimaryKey: .int(7)))
        #expect(try ada.linkingObjects("tweets").map(\.objectKey) == [.int(1), .int(2)])
        #expect(try view.count("Tweet") == 2)
    }

    @Test func theDynamicAPIWritesToo() throws {
        try seed()
        let db = try Database(path: directory.store())
        try db.write { transaction in
            let tweet = try transaction.dynamicCreate("Tweet", value: ["id": 3, "text": "dynamic", "user": 7])
            try tweet.setValue(42, forKey: "retweetCount")
            try transaction.delete(try #require(transaction.dynamicObjects("Tweet").first))
        }
        let typed = try makeDatabase(directory)
        let tweets = try typed.view().objects(Tweet.self)
        #expect(tweets.map(\.id) == [2, 3])
        #expect(tweets.last?.retweetCount == 42)
        #expect(tweets.last?.user?.screenName == "ada")
        #expect(try StoreCheck(database: typed).problems() == [])
    }

    @Test func unknownNamesAreTypedErrors() throws {
        try seed()
        let db = try Database(path: directory.store())
        let view = try db.view()
        #expect(throws: ObjDBError.unknownType("Toot")) { try view.dynamicObjects("Toot") }
        let tweet = try #require(try view.dynamicObjects("Tweet").first)
        #expect(throws: ObjDBError.unknownProperty(type: "Tweet", property: "body")) { try tweet.value(forKey: "body") }
        #expect(tweet.objectSchema["body"] == nil)
    }

    @Test func aReadOnlyOpenReadsButRefusesWrites() throws {
        try seed()
        var configuration = Configuration(path: directory.store(), types: seedTypes)
        configuration.readOnly = true
        let db = try Database(configuration: configuration)
        #expect(try db.view().objects(Tweet.self).count == 2)
        #expect(throws: ObjDBError.readOnly(path: directory.store(), operation: "begin a write transaction")) {
            try db.write { _ in }
        }
    }
}
