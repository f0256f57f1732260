import Foundation
import TestSupport
import Testing

@testable import ObjDB

/// A `Results` compiles and plans its query once and runs it once per snapshot.
@Suite("Queries: prepared once")
struct PreparedQueryTests {
    let directory = TemporaryDirectory()

    private func popular(_ db: Database) throws -> Results<Tweet> {
        try db.view().objects(Tweet.self).filter("retweetCount >= 5")
    }

    private func seed(_ db: Database) throws {
        try db.write { transaction in
            for id in 1...10 {
                let tweet = makeTweet(Int64(id), "t\(id)")
                tweet.retweetCount = id
                try transaction.add(tweet)
            }
        }
    }

    @Test func aResultsCompilesItsFilterOnceHoweverOftenItIsRead() throws {
        let db = try makeDatabase(directory)
        try seed(db)
        let counter = QueryInstrumentation()
        try QueryInstrumentation.$current.withValue(counter) {
            let results = try popular(db)
            _ = results.count
            _ = results.first
            _ = results.map(\.id)
            _ = results[0]
        }
        #expect(counter[.compilation] == 1)
    }

    @Test func countingTwiceInOneSnapshotScansOnce() throws {
        let db = try makeDatabase(directory)
        try seed(db)
        let results = try popular(db)
        let counter = QueryInstrumentation()
        let counts = QueryInstrumentation.$current.withValue(counter) { [results.count, results.count] }
        #expect(counts == [6, 6])
        #expect(counter[.scan] == 1)
    }

    @Test func readingTheElementsAfterTheCountGivesTheCountedObjects() throws {
        let db = try makeDatabase(directory)
        try seed(db)
        let results = try popular(db)
        #expect(results.count == 6)
        #expect(results.map(\.id) == [5, 6, 7, 8, 9, 10])
    }

    @Test func aFilteredCountReportsADamagedRecordOnceAndReadsItAsZeroValues() throws {
        let faults = Guarded<[ObjDBError]>([])
        var configuration = Configuration(path: directory.store(), types: seedTypes)
        configuration.faultHandler = { error in faults.withLock { $0.append(error) } }
        let db = try Database(configuration: configuration)
        try seed(db)
        let key = ObjectKeyCodec.encode(.int(7))
        try db.environment.write { transaction in
            let table = try transaction.openDatabase(named: DatabaseNames.table("Tweet"))
            try key.withUnsafeBytes { key in
                try [UInt8](repeating: 0xFF, count: 5).withUnsafeBytes {
                    _ = try transaction.put($0, forKey: key, in: table)
                }
            }
        }
        let view = try db.view()
        #expect(try view.objects(Tweet.self).filter("retweetCount >= 5").count == 5)
        #expect(try view.objects(Tweet.self).filter("retweetCount == 0").count == 1)
        let reported = faults.withLock { $0 }
        #expect(reported.count == 1)
        #expect(reported.first?.code == .corruptRecord)
    }
}
