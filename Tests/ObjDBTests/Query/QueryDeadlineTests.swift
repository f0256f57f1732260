import Foundation
import Synchronization
import TestSupport
import Testing

@testable import ObjDB

/// Queries stop at their deadline, or when cancelled, with a typed error (#28, #30).
/// 3,000 tweets by 30 users; every tweet links to its user, and every user's tweets link back.
@Suite("Queries: deadlines and cancellation")
struct QueryDeadlineTests {
    private let directory = TemporaryDirectory()
    private let database: Database

    init() throws {
        database = try Database(path: directory.store(), types: [Tweet.self, TwitterUser.self])
        try database.write { transaction in
            let users = (1...30).map { id in
                let user = TwitterUser()
                user.id = Int64(id)
                user.screenName = "user\(id)"
                return user
            }
            for user in users { try transaction.add(user) }
            for id in 1...3000 {
                let tweet = Tweet()
                tweet.id = Int64(id)
                tweet.text = id % 7 == 0 ? "about swift" : "about lmdb"
                tweet.retweetCount = id % 100
                tweet.user = users[id % 30]
                try transaction.add(tweet)
            }
        }
    }

    /// The code of the error `body` throws; `nil` when it throws none.
    private func code(_ body: () throws -> Any) -> ObjDBError.Code? {
        do {
            _ = try body()
            return nil
        } catch {
            return (error as? ObjDBError)?.code
        }
    }

    /// A deadline that passed before the query began.
    private var passed: QueryDeadline { QueryDeadline(.now - .seconds(1)) }

    @Test func aQueryWithinItsDeadlineAnswersAsWithout() throws {
        let tweets = try database.view().objects(Tweet.self).filter("text CONTAINS 'swift'")
        let generous = QueryDeadline.after(.seconds(60))
        #expect(try tweets.count(deadline: generous) == 428)
        let evaluated = try database.view().objects(Tweet.self).filter("retweetCount > 95")
            .sorted(byKeyPath: "text").evaluated(deadline: generous)
        #expect(evaluated.count == 120)
        // "about lmdb" before "about swift", ties in key order.
        let ids = (1...3000).map(Int64.init).filter { $0 % 100 > 95 }
        #expect(evaluated.map(\.id) == ids.filter { $0 % 7 != 0 } + ids.filter { $0 % 7 == 0 })
    }

    @Test func aScanPastItsDeadlineThrowsQueryTimedOut() throws {
        let tweets = try database.view().objects(Tweet.self).filter("text CONTAINS 'swift'")
        do {
            _ = try tweets.count(deadline: passed)
            Issue.record("the count finished")
        } catch let error as ObjDBError {
            #expect(error.code == .queryTimedOut)
            #expect(error.typeName == "Tweet")
            #expect(error.figures[.objectsRead] ?? .max < QueryBudget.stride)
            #expect(error.message.contains("time limit"))
        }
    }

    @Test func aStoppedEvaluationLeavesTheResultsAsTheyWere() throws {
        let tweets = try database.view().objects(Tweet.self).filter("retweetCount >= 50")
        #expect(code { try tweets.evaluated(deadline: passed) } == .queryTimedOut)
        #expect(tweets.count == 1500)
        #expect(try tweets.evaluated(deadline: .after(.seconds(60))).count == 1500)
    }

    @Test func aLongScanStopsSoonAfterItsDeadline() throws {
        // Each tweet's filter walks to its user and back through every tweet of that user:
        // 3,000 × 100 objects read, far more than 5 ms allows on any machine.
        let tweets = try database.view().objects(Tweet.self).filter("ANY user.tweets.retweetCount == -1")
        let start = ContinuousClock.now
        do {
            _ = try tweets.count(deadline: .after(.milliseconds(5)))
            Issue.record("the count finished")
        } catch let error as ObjDBError {
            #expect(error.code == .queryTimedOut)
            #expect(error.figures[.timeLimit] == 5 || error.figures[.timeLimit] == 4)
        }
        #expect(ContinuousClock.now - start < .seconds(2))
    }

    @Test func linkWalksCountAgainstTheDeadline() throws {
        // The primary key finds one tweet at once; only its filter's walk through links reads more.
        let view = try database.view()
        let one = try view.objects(Tweet.self).filter("id == 7 AND ANY user.tweets.text == 'x'")
        do {
            _ = try one.count(deadline: passed)
            Issue.record("the count finished")
        } catch let error as ObjDBError {
            #expect(error.code == .queryTimedOut)
        }
        #expect(try one.count(deadline: .after(.seconds(60))) == 0)
    }

    @Test func aCancelledHandleStopsTheQueryWithQueryCancelled() throws {
        let cancellation = QueryCancellation()
        let tweets = try database.view().objects(Tweet.self).filter("text CONTAINS 'swift'")
        #expect(try tweets.count(deadline: .never(cancellation: cancellation)) == 428)
        cancellation.cancel()
        #expect(cancellation.isCancelled)
        let again = try database.view().objects(Tweet.self).filter("text CONTAINS 'lmdb'")
        do {
            _ = try again.evaluated(deadline: .after(.seconds(60), cancellation: cancellation))
            Issue.record("the query ran")
        } catch let error as ObjDBError {
            #expect(error.code == .queryCancelled)
            #expect(error.message.contains("cancelled"))
        }
    }

    @Test func aCancellationFromAnotherThreadStopsARunningQuery() throws {
        let cancellation = QueryCancellation()
        let database = self.database
        let started = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let outcome = Mutex<ObjDBError.Code?>(nil)
        // Threads of their own, not tasks: on a loaded machine the cooperative pool can hold a
        // task's wake-up back for longer than the query runs.
        Thread.detachNewThread {
            defer { finished.signal() }
            do {
                let tweets = try database.view().objects(Tweet.self)
                    .filter("ANY user.tweets.user.tweets.retweetCount == -1")
                started.signal()
                // The query runs again until the cancellation stops it, so however late the
                // cancel comes, it meets a running query.
                let giveUp = ContinuousClock.now + .seconds(30)
                while ContinuousClock.now < giveUp {
                    _ = try tweets.count(deadline: .never(cancellation: cancellation))
                }
            } catch let error as ObjDBError {
                outcome.withLock { $0 = error.code }
            } catch {}
        }
        started.wait()
        Thread.sleep(forTimeInterval: 0.02)
        cancellation.cancel()
        finished.wait()
        #expect(outcome.withLock { $0 } == .queryCancelled)
    }

    @Test func aCancelledTaskStopsItsQuery() async throws {
        let database = self.database
        let task = Task.detached { () -> ObjDBError.Code? in
            while !Task.isCancelled { await Task.yield() }
            do {
                _ = try database.view().objects(Tweet.self).filter("text CONTAINS 'swift'")
                    .count(deadline: .never())
                return nil
            } catch let error as ObjDBError {
                return error.code
            }
        }
        task.cancel()
        #expect(try await task.value == .queryCancelled)
    }

    @Test func everyObjectOfATypeCountsAtOnceWhateverTheDeadline() throws {
        #expect(try database.view().objects(Tweet.self).count(deadline: passed) == 3000)
    }

    @Test func theDynamicAPITakesADeadline() throws {
        let view = try database.view()
        let found = try view.dynamicObjects(
            "Tweet", filter: "retweetCount == 42", sortedBy: [SortKey("id", ascending: false)],
            deadline: .after(.seconds(60)))
        #expect(found.map(\.objectKey) == stride(from: 2942, through: 42, by: -100).map { .int(Int64($0)) })
        #expect(
            code { try view.dynamicObjects("Tweet", filter: "retweetCount == 42", deadline: passed) } == .queryTimedOut)
    }

    @Test func hasExpiredSaysWhatTheQueryWouldSee() {
        #expect(passed.hasExpired)
        #expect(!QueryDeadline.after(.seconds(60)).hasExpired)
        let cancellation = QueryCancellation()
        #expect(!QueryDeadline.never(cancellation: cancellation).hasExpired)
        cancellation.cancel()
        #expect(QueryDeadline.never(cancellation: cancellation).hasExpired)
    }
}
