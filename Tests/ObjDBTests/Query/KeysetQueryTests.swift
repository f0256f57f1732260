import Foundation
import TestSupport
import Testing

@testable import ObjDB

/// Keyset paging (the inspector's pager): every walk visits each match once, in table-key order,
/// forward and backward, wherever the matches lie in the table.
@Suite("Queries: keyset pages")
struct KeysetQueryTests {
    private let directory = TemporaryDirectory()

    /// 3,000 tweets whose indexed `createdAt` is `stamp(id)` seconds after 1970, and whose text
    /// says whether the id is even.
    private func store(_ stamp: (Int) -> Int) throws -> Database {
        let database = try Database(path: directory.store(), types: [Tweet.self, TwitterUser.self])
        try database.write { transaction in
            for id in 1...3000 {
                let tweet = Tweet()
                tweet.id = Int64(id)
                tweet.createdAt = Date(timeIntervalSince1970: Double(stamp(id)))
                tweet.text = id % 2 == 0 ? "even" : "odd"
                try transaction.add(tweet)
            }
        }
        return database
    }

    /// Every page of `filter` at `limit` a page, forward then backward, as object ids.
    private func pages(_ database: Database, _ filter: String, limit: Int, tableProbe: Int) throws
        -> (forward: [Int64], backward: [Int64], walk: String)
    {
        try database.read { view in
            let query = try KeysetQuery(type: "Tweet", filter: filter, sorts: [], in: view, tableProbe: tableProbe)
            let source = try view.recordSource()
            func id(_ key: [UInt8]) -> Int64 {
                guard case .int(let id) = key.withUnsafeBytes({ ObjectKeyCodec.decode($0, primaryKeyType: .int) })
                else { return -1 }
                return id
            }
            var forward: [Int64] = []
            var bound: KeysetQuery.Bound?
            while true {
                let page = try query.matches(after: bound, backward: false, want: limit, in: source, deadline: nil)
                forward += page.map { id($0.key) }
                guard page.count == limit, let last = page.last else { break }
                bound = last
            }
            var backward: [Int64] = []
            bound = nil
            while true {
                let page = try query.matches(after: bound, backward: true, want: limit, in: source, deadline: nil)
                backward = page.reversed().map { id($0.key) } + backward
                guard page.count == limit, let last = page.last else { break }
                bound = last
            }
            return (forward, backward, query.walk.description)
        }
    }

    @Test func anIndexRangeWhoseMatchesComeLastPagesThroughTheIndex() throws {
        // Time order is key order: the newer half lies past every record a short table walk reads.
        let database = try store { 1_300_000_000 + $0 }
        let found = try pages(database, "createdAt > T1300002000:0", limit: 7, tableProbe: 100)
        #expect(found.walk.contains("index range"))
        #expect(found.forward == Array(2001...3000))
        #expect(found.backward == Array(2001...3000))
    }

    @Test func anIndexRangeWhoseMatchesAreScatteredPagesAlongTheTable() throws {
        // 7919 is prime to 3000: the stamps are a permutation, so matches lie everywhere.
        let database = try store { 1_300_000_000 + ($0 * 7919) % 3000 }
        let expected = (1...3000).filter { ($0 * 7919) % 3000 > 1500 }.map(Int64.init)
        for probe in [100, 4096] {
            let found = try pages(database, "createdAt > T1300001500:0", limit: 9, tableProbe: probe)
            #expect(found.forward == expected, "probe \(probe)")
            #expect(found.backward == expected, "probe \(probe)")
        }
    }

    @Test func anIndexRangeTestsTheRestOfTheFilterOnTheRecords() throws {
        let database = try store { 1_300_000_000 + $0 }
        let found = try pages(database, "createdAt > T1300002900:0 AND text == 'even'", limit: 5, tableProbe: 100)
        #expect(found.walk.contains("index range"))
        #expect(found.forward == Array(stride(from: 2902, through: 3000, by: 2)).map(Int64.init))
        #expect(found.backward == found.forward)
    }
}
