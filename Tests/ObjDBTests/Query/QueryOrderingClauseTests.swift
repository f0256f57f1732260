import Foundation
import TestSupport
import Testing

@testable import ObjDB

/// `SORT(…)`, `DISTINCT(…)` and `LIMIT(n)` after a string predicate (#17.5): applied in the order
/// written, as Realm applies them, each to what the one before left.
@Suite("Queries: SORT, DISTINCT and LIMIT in the predicate")
struct QueryOrderingClauseTests: EverythingFixture {
    let directory = TemporaryDirectory()

    /// People as `(name, age, score)`, stored in this order (their keys ascend with it).
    static let people: [(String, Int, Double)] = [
        ("ann", 30, 1), ("bob", 20, 2), ("cat", 30, 3), ("dan", 20, 4), ("eve", 40, 5), ("ann", 20, 6),
    ]

    private func store(_ people: [(String, Int, Double)] = people) throws -> Results<Everything> {
        try database(people).view().objects(Everything.self)
    }

    private func database(_ people: [(String, Int, Double)] = people) throws -> Database {
        let db = try makeDatabase(directory)
        try db.write { transaction in
            for (position, person) in people.enumerated() {
                let object = Everything()
                object.key = UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", position))!
                (object.string, object.int, object.double) = person
                try transaction.add(object)
            }
        }
        return db
    }

    // MARK: Each step as its method

    @Test func aSortInThePredicateOrdersAsTheMethodDoes() throws {
        let all = try store()
        let written = try all.filter("TRUEPREDICATE SORT(int DESC)")
        let called = try all.filter("TRUEPREDICATE").sorted(byKeyPath: "int", ascending: false)
        #expect(positions(written) == [4, 0, 2, 1, 3, 5])
        #expect(positions(written) == positions(called))
        #expect(try written.explain() == called.explain())
    }

    @Test func aSortTakesSeveralKeysTheFirstDecidingFirst() throws {
        let all = try store()
        #expect(positions(try all.filter("int > 0 SORT(int ASC, string DESC)")) == [3, 1, 5, 2, 0, 4])
    }

    @Test func aSortOnAnIndexedPropertyPlansAsTheMethodDoes() throws {
        let db = try makeDatabase(directory)
        try db.write { transaction in
            for id in 1...5 {
                let tweet = makeTweet(Int64(id), "t\(id)")
                tweet.createdAt = Date(timeIntervalSince1970: Double(10 - id))
                try transaction.add(tweet)
            }
        }
        let tweets = try db.view().objects(Tweet.self)
        let written = try tweets.filter("retweetCount >= 0 SORT(createdAt DESC) LIMIT(2)")
        let called = try tweets.filter("retweetCount >= 0").sorted(byKeyPath: "createdAt", ascending: false).limit(2)
        #expect(written.map(\.id) == [1, 2])
        #expect(try written.explain() == called.explain())
        #expect(try written.explain().contains("sorted by the scan"))
    }

    @Test func aLimitKeepsTheFirstObjectsAsTheMethodDoes() throws {
        let all = try store()
        let written = try all.filter("TRUEPREDICATE SORT(double DESC) LIMIT(2)")
        let called = try all.filter("TRUEPREDICATE").sorted(byKeyPath: "double", ascending: false).limit(2)
        #expect(positions(written) == [5, 4])
        #expect(try written.explain() == called.explain())
    }

    @Test func aDistinctKeepsTheFirstOfEachAsTheMethodDoes() throws {
        let all = try store()
        let written = try all.filter("TRUEPREDICATE DISTINCT(string)")
        #expect(positions(written) == [0, 1, 2, 3, 4])
        #expect(try written.explain() == all.filter("TRUEPREDICATE").distinct(by: ["string"]).explain())
    }

    @Test func keywordsAndDirectionsTakeAnyCase() throws {
        let all = try store()
        #expect(
            positions(try all.filter("TRUEPREDICATE sort(int ascending, double Descending) limit(3)")) == [5, 3, 1])
    }

    // MARK: In the order written

    @Test func aLimitBeforeASortSortsTheObjectsItKept() throws {
        let all = try store()
        #expect(positions(try all.filter("TRUEPREDICATE LIMIT(3) SORT(int ASC)")) == [1, 0, 2])
        #expect(positions(try all.filter("TRUEPREDICATE SORT(int ASC) LIMIT(3)")) == [1, 3, 5])
    }

    @Test func aDistinctBeforeASortKeepsTheFirstInStoredOrder() throws {
        let all = try store()
        // ann first at 0 (30), so DISTINCT then SORT keeps 0; SORT then DISTINCT keeps ann at 5 (20).
        #expect(positions(try all.filter("TRUEPREDICATE DISTINCT(string) SORT(int ASC)")) == [1, 3, 0, 2, 4])
        #expect(positions(try all.filter("TRUEPREDICATE SORT(int ASC) DISTINCT(string)")) == [1, 3, 5, 2, 4])
    }

    @Test func aLaterSortDecidesFirstAndTheEarlierBreaksItsTies() throws {
        let all = try store()
        #expect(positions(try all.filter("TRUEPREDICATE SORT(double DESC) SORT(int ASC)")) == [5, 3, 1, 2, 0, 4])
    }

    @Test func aSortAfterADistinctKeepsTiesInTheOrderItFinds() throws {
        let all = try store()
        // SORT(double DESC) → 5 4 3 2 1 0; DISTINCT(int) keeps 5 (20), 4 (40), 2 (30); SORT(string ASC)
        // → ann(5), cat(2), eve(4). Then by int: ties none.
        #expect(
            positions(try all.filter("TRUEPREDICATE SORT(double DESC) DISTINCT(int) SORT(string ASC)")) == [5, 2, 4])
    }

    @Test func twoDistinctsApplyOneAfterTheOther() throws {
        let all = try store([("a", 1, 2), ("a", 2, 1), ("b", 2, 1)])
        // DISTINCT(string) keeps 0 and 2; DISTINCT(double) then keeps both (2 and 1 differ).
        #expect(positions(try all.filter("TRUEPREDICATE DISTINCT(string) DISTINCT(double)")) == [0, 2])
        #expect(positions(try all.filter("TRUEPREDICATE DISTINCT(double)")) == [0, 1])
    }

    @Test func theSmallerOfTwoLimitsCuts() throws {
        let all = try store()
        #expect(positions(try all.filter("TRUEPREDICATE LIMIT(5) LIMIT(2)")) == [0, 1])
        #expect(positions(try all.filter("TRUEPREDICATE LIMIT(2) LIMIT(5)")) == [0, 1])
    }

    @Test func aLimitOfZeroKeepsNothing() throws {
        let all = try store()
        #expect(try all.filter("TRUEPREDICATE LIMIT(0)").isEmpty)
    }

    @Test func realmsDocumentedExampleRunsAsRealmDescribesIt() throws {
        let all = try store([
            ("x", 1, 0), ("ali", 3, 0), ("ali", 9, 0), ("bo", 5, 0), ("ali", 9, 0), ("cy", 7, 0), ("dee", 2, 0),
        ])
        let results = try all.filter("string != 'x' SORT(int DESC) DISTINCT(string) LIMIT(3)")
        #expect(positions(results) == [2, 5, 3])
    }

    // MARK: With the methods

    @Test func aTrailerAppliesAfterTheResultsOwnSort() throws {
        let all = try store()
        let results = try all.sorted(byKeyPath: "double", ascending: false).filter("int == 20 LIMIT(2)")
        #expect(positions(results) == [5, 3])
    }

    @Test func aMethodAfterATrailerAppliesToWhatTheTrailerLeft() throws {
        let all = try store()
        let trailed = try all.filter("TRUEPREDICATE LIMIT(3) SORT(int ASC)")
        #expect(positions(try trailed.sorted(byKeyPath: "double", ascending: false)) == [2, 1, 0])
        #expect(positions(trailed.limit(2)) == [1, 0])
        #expect(positions(try trailed.distinct(by: ["int"])) == [1, 0])
    }

    @Test func countAndFirstHonourTheWholeTrailer() throws {
        let all = try store()
        let results = try all.filter("TRUEPREDICATE LIMIT(3) SORT(int DESC)")
        #expect(results.count == 3)
        #expect(results.first.map { Int($0.key.uuidString.suffix(12))! } == 0)
    }

    @Test func theDynamicAPISortsAndLimitsWhatTheTrailerLeft() throws {
        let db = try database()
        let objects = try db.view().dynamicObjects(
            "Everything", filter: "TRUEPREDICATE SORT(int ASC) LIMIT(3)",
            sortedBy: [SortKey("double", ascending: false)],
            limit: 2)
        // SORT(int ASC) LIMIT(3) keeps 1, 3, 5 (scores 2, 4, 6); then by score, descending, two.
        #expect(objects.map { $0["double"] } == [.double(6), .double(4)])
    }

    // MARK: Live

    @Test(.timeLimit(.minutes(5))) func liveResultsKeepTheTrailerAcrossCommits() throws {
        let database = try counterStore(directory)
        try database.write { transaction in
            for id in 1...4 { try transaction.create(Counter.self, value: ["id": id, "value": id * 10]) }
        }
        // The two smallest values, largest first.
        let (token, inbox) = try observeCounters(in: database) {
            try $0.filter("value > 0 SORT(value ASC) LIMIT(2) SORT(value DESC)")
        }
        #expect(inbox.wait(for: 1).first?.ids == [2, 1])
        try database.write { transaction in
            try transaction.create(Counter.self, value: ["id": 5, "value": 5])
        }
        #expect(inbox.wait(for: 2).last?.ids == [1, 5])
        try database.write { transaction in
            transaction.object(ofType: Counter.self, forPrimaryKey: 5)!.value = 25
        }
        #expect(inbox.wait(for: 3).last?.ids == [2, 1])
        token.invalidate()
    }

    // MARK: Errors

    @Test(arguments: [
        ("age > 1 SORT(age)", 16), ("SORT(age ASC)", 4), ("age > 1 LIMIT(-1)", 14), ("age > 1 LIMIT(2.5)", 14),
        ("age > 1 LIMIT(0x10)", 14), ("age > 1 LIMIT(word)", 14), ("age > 1 LIMIT(1, 1)", 15),
        ("age > 1 LIMIT()", 14), ("age > 1 SORT()", 13), ("age > 1 DISTINCT()", 17), ("age > 1 sort age desc", 13),
        ("age > 1 SORT(age ASC", 20), ("age > 1 SORT(age DESC name ASC)", 22), ("age > 1 DISTINCT(a b)", 19),
        ("age > 1 LIMIT(1) && age < 5", 17), ("age > 1 LIMIT", 13),
    ])
    func aMalformedTrailerIsASyntaxErrorAtItsMistake(predicate: String, position: Int) throws {
        #expect(try syntaxError(predicate)?.position == position)
    }

    @Test func aSortByAnUnknownPropertyIsAnInvalidQuery() throws {
        let all = try store()
        #expect(throws: ObjDBError.self) { try all.filter("TRUEPREDICATE LIMIT(2) SORT(nothing ASC)") }
        do {
            _ = try all.filter("TRUEPREDICATE DISTINCT(string) DISTINCT(nothing)")
            Issue.record("accepted")
        } catch let error as ObjDBError {
            #expect(error.code == .invalidQuery)
            #expect(error.message.contains("nothing"))
        }
    }
}
