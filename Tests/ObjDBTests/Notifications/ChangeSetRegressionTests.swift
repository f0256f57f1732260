import Foundation
import TestSupport
import Testing

@testable import ObjDB

/// Regression tests for change sets a review found wrong: each commit's change set, applied to
/// the old keys, must give the query's fresh answer.
@Suite("Live results: change-set regressions")
struct ChangeSetRegressionTests {
    let directory = TemporaryDirectory()

    private func store() throws -> Database {
        let database = try Database(path: directory.store(), types: [Employee.self, Post.self, Author.self])
        #expect(try database.environment.startWatchingChanges())
        return database
    }

    /// Runs `write` between two snapshots and checks the diff of `results` against a fresh run.
    private func checkDiff<T: Object>(
        _ database: Database, _ query: (ReadView) throws -> Results<T>, write: (WriteTransaction) throws -> Void
    ) throws -> ResultsDiff {
        let oldView = try database.view()
        let old = Snapshot(owner: database, frozenAt: try oldView.snapshot.shareTransaction())
        let results = try query(oldView)
        let differ = ResultsDiffer(query: results.query, database: database)
        let before = try differ.keys(in: old)
        try database.write(write)
        let newView = try database.view()
        let new = Snapshot(owner: database, frozenAt: try newView.snapshot.shareTransaction())
        let changes = try ChangeLog.changes(
            after: old.readTransaction().id, in: new.readTransaction(), log: database.changeLog!, meta: database.meta!)
        let diff = try differ.diff(from: before, changes: changes, old: old, new: new) ?? ResultsDiff(newKeys: before)
        let expected = Array(try differ.keys(in: new))
        #expect(Array(diff.newKeys) == expected)
        #expect(ChangeSetDifferentialTests.apply(diff, to: before) == expected)
        #expect(Set(expected).count == expected.count, "no key twice")
        return diff
    }

    @Test func tiesFoundThroughAnIndexKeepTableKeyOrder() throws {
        let database = try store()
        try database.write { transaction in
            // Index order (by age) differs from key order among the ties in `city`.
            for (id, age) in [(1, 50), (2, 40), (3, 45)] {
                try transaction.create(Employee.self, value: ["id": id, "age": age, "city": "Oslo"])
            }
        }
        let diff = try checkDiff(
            database, { try $0.objects(Employee.self).filter("age > 30").sorted(byKeyPath: "city") }
        ) {
            $0.object(ofType: Employee.self, forPrimaryKey: 3)!.name = "renamed"
        }
        #expect(diff.deletions.isEmpty && diff.insertions.isEmpty && diff.modifications == [2])
    }

    @Test func aLinkBackToTheSameTypeIsFollowed() throws {
        let database = try store()
        try database.write { transaction in
            let boss = try transaction.create(Employee.self, value: ["id": 1, "age": 30])
            for id in 2...3 { try transaction.create(Employee.self, value: ["id": id, "age": 20, "manager": boss]) }
        }
        let diff = try checkDiff(database, { try $0.objects(Employee.self).filter("manager.age > 40") }) {
            $0.object(ofType: Employee.self, forPrimaryKey: 1)!.age = 50
        }
        #expect(diff.insertions == [0, 1])
    }

    @Test func aSortThroughALinkMovesObjectsWhoseRecordsDidNotChange() throws {
        let database = try store()
        try database.write { transaction in
            for (id, name) in [(1, "a"), (2, "b"), (3, "c")] {
                let author = try transaction.create(Author.self, value: ["id": id, "name": name])
                try transaction.create(Post.self, value: ["id": id, "author": author])
            }
        }
        let diff = try checkDiff(database, { try $0.objects(Post.self).sorted(byKeyPath: "author.name") }) {
            $0.object(ofType: Author.self, forPrimaryKey: 1)!.name = "d"
        }
        #expect(!diff.isEmpty)
    }
}
