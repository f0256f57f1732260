import Foundation
import TestSupport
import Testing

@testable import ObjDB

/// Walking a `Results` with `for … in`.
@Suite("Queries: iteration")
struct ResultsIterationTests {
    let directory = TemporaryDirectory()

    private func seeded() throws -> Database {
        let db = try makeDatabase(directory)
        try db.write { transaction in
            for id in 1...6 {
                let tweet = makeTweet(Int64(id), "t\(id)")
                tweet.retweetCount = id % 3
                try transaction.add(tweet)
            }
        }
        return db
    }

    @Test func aLoopThatDeletesLaterObjectsSkipsThem() throws {
        let db = try seeded()
        var visited: [Int64] = []
        try db.write { transaction in
            for tweet in transaction.objects(Tweet.self).where({ $0.retweetCount != 5 }) {
                visited.append(tweet.id)
                if tweet.id == 2, let later = transaction.object(ofType: Tweet.self, forPrimaryKey: Int64(4)) {
                    try transaction.delete(later)
                }
            }
        }
        #expect(visited == [1, 2, 3, 5, 6])
    }

    @Test func aLoopReadsTheValuesItWroteEarlierInTheLoop() throws {
        let db = try seeded()
        var texts: [String] = []
        try db.write { transaction in
            for tweet in try transaction.objects(Tweet.self).filter("retweetCount >= 0") {
                if tweet.id == 1 { transaction.object(ofType: Tweet.self, forPrimaryKey: Int64(3))?.text = "edited" }
                texts.append(tweet.text)
            }
        }
        #expect(texts == ["t1", "t2", "edited", "t4", "t5", "t6"])
    }

    @Test func repeatedLookupValuesYieldEachObjectOnce() throws {
        let db = try seeded()
        let view = try db.view()
        #expect(try view.objects(Tweet.self).filter("id IN %@", [2, 2, 5, 2]).map(\.id) == [2, 5])
        let date = try #require(view.object(ofType: Tweet.self, forPrimaryKey: Int64(1))).createdAt
        let sameDay = try view.objects(Tweet.self).filter("createdAt IN %@", [date, date])
        #expect(sameDay.count == Set(sameDay.map(\.id)).count)
    }

    @Test func everyMatchIsVisitedInKeyOrder() throws {
        let db = try seeded()
        let ids = try db.view().objects(Tweet.self).filter("retweetCount == 1").map(\.id)
        #expect(ids == [1, 4])
    }

    /// Tweets 1…8: 2, 3, 5, 7 and 8 share one `createdAt` (an indexed property), the others do not.
    private func sharingADate() throws -> (Database, Date) {
        let db = try makeDatabase(directory)
        let shared = Date(timeIntervalSince1970: 1_300_000_000)
        try db.write { transaction in
            for id in Int64(1)...8 {
                let tweet = makeTweet(id, "t\(id)")
                tweet.createdAt = [2, 3, 5, 7, 8].contains(id) ? shared : shared.addingTimeInterval(Double(id))
                tweet.retweetCount = Int(id) * 10
                try transaction.add(tweet)
            }
        }
        return (db, shared)
    }

    @Test func anIndexLookupYieldsEveryObjectOfItsValueWithItsOwnValues() throws {
        let (db, shared) = try sharingADate()
        let found = try db.view().objects(Tweet.self).where { $0.createdAt == shared }
        #expect(found.map(\.id) == [2, 3, 5, 7, 8])
        #expect(found.map(\.retweetCount) == [20, 30, 50, 70, 80])
    }

    @Test func anIndexLookupCutByALimitYieldsOnlyTheFirstObjects() throws {
        let (db, shared) = try sharingADate()
        let found = try db.view().objects(Tweet.self).where { $0.createdAt == shared }.limit(2)
        #expect(found.map(\.id) == [2, 3])
        #expect(found.count == 2)
    }

    @Test func anIndexLookupWithAFurtherTestYieldsOnlyTheObjectsPassingIt() throws {
        let (db, shared) = try sharingADate()
        let found = try db.view().objects(Tweet.self).where { $0.createdAt == shared && $0.retweetCount > 40 }
        #expect(found.map(\.id) == [5, 7, 8])
    }
}
