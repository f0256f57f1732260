import Foundation
import TestSupport
import Testing

@testable import ObjDB

/// Objects added to a type with no objects yet are held and stored in key order at commit
/// (``BulkLoad``); inside the write they must behave as if each had been stored at once.
@Suite("Objects: a first bulk insert")
struct BulkInsertTests {
    let directory = TemporaryDirectory()

    @Test func objectsAddedInRandomOrderAreFoundByKeyAndByQueryInTheWrite() throws {
        let db = try makeDatabase(directory)
        var generator = SeededGenerator(seed: 31)
        let ids = (1...500).map(Int64.init).shuffled(using: &generator)
        try db.write { transaction in
            for id in ids { try transaction.add(makeTweet(id, "tweet \(id)")) }
            for id in ids { #expect(transaction.object(ofType: Tweet.self, forPrimaryKey: id)?.text == "tweet \(id)") }
            #expect(try transaction.objects(Tweet.self).filter("id > 250").count == 250)
            #expect(transaction.objects(Tweet.self).map(\.id) == Array(1...500))
        }
        #expect(try db.view().objects(Tweet.self).map(\.id) == Array(1...500))
    }

    @Test func aPrimaryKeyAddedTwiceInTheFirstWriteFailsAtTheSecondAdd() throws {
        let db = try makeDatabase(directory)
        try db.write { transaction in
            try transaction.add(makeTweet(7, "first"))
            #expect(throws: ObjDBError.primaryKeyExists(type: "Tweet", key: "7")) {
                try transaction.add(makeTweet(7, "second"))
            }
            try transaction.add(makeTweet(8, "other"))
        }
        let view = try db.view()
        #expect(view.object(ofType: Tweet.self, forPrimaryKey: Int64(7))?.text == "first")
        #expect(view.objects(Tweet.self).count == 2)
    }

    @Test func anUpsertOfAnObjectAddedEarlierInTheWriteUpdatesIt() throws {
        let db = try makeDatabase(directory)
        try db.write { transaction in
            try transaction.add(makeTweet(2, "added"))
            try transaction.add(makeTweet(1, "other"))
            try transaction.add(makeTweet(2, "updated"), update: .modified)
        }
        let view = try db.view()
        #expect(view.objects(Tweet.self).map(\.text) == ["other", "updated"])
    }

    @Test func anObjectAddedAndDeletedInTheWriteIsGone() throws {
        let db = try makeDatabase(directory)
        try db.write { transaction in
            let kept = makeTweet(1, "kept")
            let deleted = makeTweet(2, "deleted")
            try transaction.add(deleted)
            try transaction.add(kept)
            try transaction.delete(deleted)
        }
        #expect(try db.view().objects(Tweet.self).map(\.text) == ["kept"])
    }

    @Test func puttingHeldObjectsMakesCachedRecordsStale() throws {
        let db = try makeDatabase(directory)
        try db.write { transaction in
            let tweet = makeTweet(2, "held")
            try transaction.add(tweet)
            try transaction.add(makeTweet(1, "other"))
            #expect(tweet.text == "held")
            let snapshot = try #require(tweet.accessor?.snapshot)
            let before = snapshot.generation
            #expect(transaction.objects(Tweet.self).count == 2)
            #expect(snapshot.generation != before)
            #expect(tweet.text == "held")
        }
    }

    @Test func aCancelledFirstWriteLeavesTheTypeEmpty() throws {
        let db = try makeDatabase(directory)
        let write = try db.beginWrite()
        for id in Int64(1)...100 { try write.add(makeTweet(id, "cancelled")) }
        write.cancel()
        #expect(try db.view().objects(Tweet.self).count == 0)
        try db.write { try $0.add(makeTweet(1, "committed")) }
        #expect(try db.view().objects(Tweet.self).map(\.text) == ["committed"])
    }
}
