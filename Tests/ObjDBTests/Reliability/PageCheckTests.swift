import CLMDB
import Foundation
import ObjDBInspection
import TestSupport
import Testing

@testable import ObjDB

@Suite("Page check")
struct PageCheckTests {
    let directory = TemporaryDirectory()

    @Test func aSoundStoreWithEveryPageShapeHasNoProblems() throws {
        try makeVariedStore(at: directory.store())
        let environment = try Environment.open(path: directory.store())
        let statistics = try environment.read { transaction in
            try transaction.statistics(of: try transaction.openDatabase(named: "plain"))
        }
        #expect(statistics.depth >= 2)
        #expect(statistics.overflowPages > 0)
        #expect(try PageCheck(environment: environment).problems() == [])
        #expect(try PageCheck.problems(path: directory.store()) == [])
    }

    @Test func aStoreOfObjectsHasNoProblems() throws {
        let database = try Database(path: directory.store(), types: [Tweet.self, TwitterUser.self])
        try database.write { transaction in
            for number in 0..<500 {
                let user = try transaction.create(
                    TwitterUser.self, value: ["id": number % 20, "screenName": "u\(number % 20)"], update: .modified)
                let tweet = Tweet()
                tweet.id = Int64(number)
                tweet.text = String(repeating: "x", count: number % 50 == 0 ? 9_000 : 80)
                tweet.user = user
                try transaction.add(tweet)
            }
        }
        try database.write { transaction in
            for tweet in transaction.objects(Tweet.self).filter({ $0.id % 4 == 0 }) { try transaction.delete(tweet) }
        }
        #expect(try PageCheck(environment: database.environment).problems() == [])
        #expect(try StoreCheck(database: database).problems() == [])
    }

    @Test func aTruncatedStoreIsRefusedOnOpen() throws {
        try makeVariedStore(at: directory.store())
        let size = try FileManager.default.attributesOfItem(atPath: directory.store())[.size] as! Int
        for length in [size - 4096, size / 2, 3 * 4096] {
            try editFile(directory.store()) { $0.removeLast($0.count - length) }
            #expect {
                try StoreFormat.open(path: directory.store())
            } throws: { error in
                guard let error = error as? ObjDBError, error.code == .damagedStore else { return false }
                return error.message.contains("truncated")
            }
            #expect(try PageCheck.problems(path: directory.store()).contains { $0.message.contains("past the end") })
        }
    }

    @Test func aMetaPageWithAnImpossiblePageSizeIsRefused() throws {
        try makeVariedStore(at: directory.store())
        // The free database's md_pad in meta page 0 is the page size.
        try editFile(directory.store()) { $0[16 + 24] = 0x33 }
        #expect(throws: ObjDBError.self) { try StoreFormat.open(path: directory.store()) }
        #expect(try !PageCheck.problems(path: directory.store()).isEmpty)
    }

    @Test func aDamagedBranchPageIsReportedWithItsPageAndDatabase() throws {
        try makeVariedStore(at: directory.store())
        // Every branch page, in use or free: the check reports those in use.
        var damaged: Set<Int> = []
        try editFile(directory.store()) { bytes in
            for page in 2..<(bytes.count / 4096) {
                let header = Array(bytes[(page * 4096)..<(page * 4096 + 16)])
                guard header.uint64(at: 0) == UInt64(page), header.uint16(at: 10) == PageCheck.branchFlag else {
                    continue
                }
                bytes[page * 4096 + 14] ^= 0x10
                damaged.insert(page)
            }
        }
        let problems = try PageCheck.problems(path: directory.store())
        #expect(!damaged.isEmpty)
        #expect(problems.contains { damaged.contains($0.page ?? -1) && $0.message.contains("mp_upper") })
        #expect(
            problems.allSatisfy {
                $0.database == "plain" || $0.database == "(free)" || $0.database.hasPrefix("duplicates")
            })
    }
}
