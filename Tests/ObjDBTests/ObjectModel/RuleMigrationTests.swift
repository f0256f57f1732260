import Foundation
import ObjDBInspection
import TestSupport
import Testing

@testable import ObjDB

// Versions of two model classes, named alike so they are stored as the same types.
enum RulesV1 {
    final class Shelf: Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted var books: List<Book>
    }
    final class Book: Object {
        @Persisted(primaryKey: true) var title = ""
        @Persisted var author = ""
        @Persisted var edition = 0
    }
}

enum RulesV2 {
    final class Shelf: Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted(deleteRule: .cascade) var books: List<Book>
    }
    final class Book: Object {
        @Persisted(primaryKey: true) var title = ""
        @Persisted var author = ""
        @Persisted var edition = 0
        override class var uniquenessConstraints: [[String]] { [["author", "edition"]] }
    }
}

/// A migration changes delete rules and uniqueness constraints (#30); without a new schema
/// version either change is a schema mismatch.
@Suite("Migrations: delete rules and uniqueness constraints")
struct RuleMigrationTests {
    let directory = TemporaryDirectory()

    private func open(_ types: [ObjectBase.Type], version: UInt64) throws -> Database {
        var configuration = Configuration(path: directory.store(), types: types)
        configuration.schemaVersion = version
        configuration.migration = { _, _ in }
        return try Database(configuration: configuration)
    }

    private func seed(editions: [Int]) throws {
        let db = try open([RulesV1.Shelf.self, RulesV1.Book.self], version: 1)
        try db.write { transaction in
            let shelf = try transaction.create(RulesV1.Shelf.self, value: ["id": 1])
            for (number, edition) in editions.enumerated() {
                shelf.books.append(
                    try transaction.create(
                        RulesV1.Book.self, value: ["title": "t\(number)", "author": "ada", "edition": edition]))
            }
        }
    }

    @Test func aChangedRuleOrConstraintWithoutANewVersionIsAMismatch() throws {
        try seed(editions: [1, 2])
        let error = #expect(throws: ObjDBError.self) { try open([RulesV2.Shelf.self, RulesV2.Book.self], version: 1) }
        #expect(error?.code == .schemaMismatch)
        #expect(error?.details.contains("Shelf.books: delete rule cascade declared, nullify stored") == true)
        #expect(error?.details.contains("Book: uniqueness constraints (author, edition) declared, none stored") == true)
    }

    @Test func aMigrationChangesTheRuleAndBuildsTheConstraintsIndex() throws {
        try seed(editions: [1, 2, 3])
        let db = try open([RulesV2.Shelf.self, RulesV2.Book.self], version: 2)
        #expect(throws: ObjDBError.self) {
            try db.write { try $0.create(RulesV2.Book.self, value: ["title": "x", "author": "ada", "edition": 2]) }
        }
        try db.read { view in
            let found = try view.objects(RulesV2.Book.self).filter("author == 'ada' AND edition == 3")
            #expect(try found.explain().contains("uniqueness constraint lookup"))
            #expect(found.map(\.title) == ["t2"])
        }
        try db.write { try $0.delete($0.object(ofType: RulesV2.Shelf.self, forPrimaryKey: 1)!) }
        #expect(try db.read { $0.objects(RulesV2.Book.self).count } == 0)
        #expect(try StoreCheck(database: db).problems() == [])
    }

    @Test func aMigrationToAConstraintTheObjectsBreakFailsAndLeavesTheStore() throws {
        try seed(editions: [1, 1])
        let error = #expect(throws: ObjDBError.self) { try open([RulesV2.Shelf.self, RulesV2.Book.self], version: 2) }
        #expect(error?.code == .uniqueConstraintViolated)
        let db = try open([RulesV1.Shelf.self, RulesV1.Book.self], version: 1)
        #expect(try db.read { $0.objects(RulesV1.Book.self).count } == 2)
    }

    @Test func aMigrationBackDropsTheRuleAndTheConstraint() throws {
        try seed(editions: [1, 2])
        _ = try open([RulesV2.Shelf.self, RulesV2.Book.self], version: 2)
        let db = try open([RulesV1.Shelf.self, RulesV1.Book.self], version: 3)
        try db.write { try $0.create(RulesV1.Book.self, value: ["title": "x", "author": "ada", "edition": 2]) }
        try db.write { try $0.delete($0.object(ofType: RulesV1.Shelf.self, forPrimaryKey: 1)!) }
        #expect(try db.read { $0.objects(RulesV1.Book.self).count } == 3)
        #expect(try StoreCheck(database: db).problems() == [])
    }
}
