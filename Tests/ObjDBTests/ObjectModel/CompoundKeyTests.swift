import Foundation
import ObjDBInspection
import TestSupport
import Testing

@testable import ObjDB

/// An enrollment is unique by (student, course), and by (student, seat) when it has a seat.
final class Enrollment: Object {
    @Persisted var student = ""
    @Persisted var course = 0
    @Persisted var grade = 0
    @Persisted var seat: Int?
    override class var uniquenessConstraints: [[String]] { [["student", "course"], ["student", "seat"]] }
}

/// A type with a primary key and a constraint besides it.
final class Badge: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var owner = ""
    @Persisted var kind = ""
    override class var uniquenessConstraints: [[String]] { [["owner", "kind"]] }
}

/// Uniqueness constraints over several properties (#30): enforced in the write, an upsert by
/// them, and queries on them planned as one index lookup.
@Suite("Objects: compound unique keys")
struct CompoundKeyTests {
    let directory = TemporaryDirectory()

    private func store() throws -> Database {
        try Database(path: directory.store(), types: [Enrollment.self, Badge.self])
    }

    private func enrollment(_ student: String, _ course: Int, grade: Int = 0, seat: Int? = nil) -> Enrollment {
        let enrollment = Enrollment()
        enrollment.student = student
        enrollment.course = course
        enrollment.grade = grade
        enrollment.seat = seat
        return enrollment
    }

    @Test func aSecondObjectWithTheSameValuesIsRefusedAndTheWriteRollsBack() throws {
        let db = try store()
        try db.write { try $0.add(enrollment("ada", 1)) }
        let error = #expect(throws: ObjDBError.self) {
            try db.write { transaction in
                try transaction.add(enrollment("bob", 1))
                try transaction.add(enrollment("ada", 1, grade: 5))
            }
        }
        #expect(error?.code == .uniqueConstraintViolated)
        #expect(error?.message.contains("(student, course)") == true)
        #expect(try db.read { $0.objects(Enrollment.self).count } == 1)
    }

    @Test func valuesThatDifferInOnePropertyAreAllowed() throws {
        let db = try store()
        try db.write { transaction in
            try transaction.add(enrollment("ada", 1))
            try transaction.add(enrollment("ada", 2))
            try transaction.add(enrollment("bob", 1))
        }
        #expect(try db.read { $0.objects(Enrollment.self).count } == 3)
    }

    @Test func nilInAConstrainedPropertyIsNotConstrained() throws {
        let db = try store()
        try db.write { transaction in
            try transaction.add(enrollment("ada", 1))
            try transaction.add(enrollment("ada", 2))  // both without a seat
        }
        #expect(throws: ObjDBError.self) {
            try db.write { transaction in
                try transaction.add(enrollment("ada", 3, seat: 7))
                try transaction.add(enrollment("ada", 4, seat: 7))
            }
        }
    }

    @Test func changingAManagedObjectIntoAnotherOnesValuesFailsTheWrite() throws {
        let db = try store()
        try db.write { transaction in
            try transaction.add(enrollment("ada", 1))
            try transaction.add(enrollment("ada", 2))
        }
        #expect(throws: ObjDBError.self) {
            try db.write { transaction in
                transaction.objects(Enrollment.self).filter { $0.course == 2 }.first!.course = 1
            }
        }
        #expect(try db.read { Set($0.objects(Enrollment.self).map(\.course)) } == [1, 2])
        // Freed values may be taken: the old entry left the index.
        try db.write { transaction in
            transaction.objects(Enrollment.self).filter { $0.course == 2 }.first!.course = 3
            try transaction.add(enrollment("ada", 2))
        }
        #expect(try db.read { Set($0.objects(Enrollment.self).map(\.course)) } == [1, 2, 3])
    }

    @Test func addWithUpdateModifiedUpdatesTheObjectWithTheSameValues() throws {
        let db = try store()
        try db.write { try $0.add(enrollment("ada", 1, grade: 3)) }
        try db.write { try $0.add(enrollment("ada", 1, grade: 5), update: .modified) }
        try db.write {
            _ = try $0.create(Enrollment.self, value: ["student": "ada", "course": 1, "grade": 6], update: .all)
        }
        let grades = try db.read { $0.objects(Enrollment.self).map(\.grade) }
        #expect(grades == [6])
    }

    @Test func aTypeWithAPrimaryKeyUpsertsByItAndStillChecksTheConstraint() throws {
        let db = try store()
        try db.write { try $0.create(Badge.self, value: ["id": 1, "owner": "ada", "kind": "gold"]) }
        try db.write {
            _ = try $0.create(Badge.self, value: ["id": 1, "owner": "ada", "kind": "silver"], update: .modified)
        }
        let error = #expect(throws: ObjDBError.self) {
            try db.write { try $0.create(Badge.self, value: ["id": 2, "owner": "ada", "kind": "silver"]) }
        }
        #expect(error?.code == .uniqueConstraintViolated)
    }

    @Test func aQueryOnEveryConstrainedPropertyIsAnIndexLookup() throws {
        let db = try store()
        try db.write { transaction in
            for student in ["ada", "bob", "cy"] {
                for course in 1...20 { try transaction.add(enrollment(student, course, grade: course)) }
            }
        }
        try db.read { view in
            let found = try view.objects(Enrollment.self).filter(
                "course == %@ AND student == %@ AND grade > 2", 7, "bob")
            #expect(try found.explain().contains("uniqueness constraint lookup on (student, course)"))
            #expect(found.map(\.grade) == [7])
            let none = try view.objects(Enrollment.self).filter("student == 'bob' AND course == 7 AND grade < 2")
            #expect(none.count == 0)
            // A double is not the stored kind: the filter answers, without the index.
            let loose = try view.objects(Enrollment.self).filter("student == 'bob' AND course == 7.0")
            #expect(loose.count == 1)
            #expect(try !view.objects(Enrollment.self).filter("student == 'bob'").explain().contains("uniqueness"))
        }
    }

    @Test func theSchemaNamesTheConstraintsAndRefusesBadOnes() throws {
        let db = try store()
        #expect(db.schema["Enrollment"]?.uniquenessConstraints == [["student", "course"], ["student", "seat"]])
        final class OneProperty: Object {
            @Persisted var name = ""
            override class var uniquenessConstraints: [[String]] { [["name"]] }
        }
        final class ListInside: Object {
            @Persisted var name = ""
            @Persisted var tags: List<String>
            override class var uniquenessConstraints: [[String]] { [["name", "tags"]] }
        }
        final class Unknown: Object {
            @Persisted var name = ""
            override class var uniquenessConstraints: [[String]] { [["name", "nope"]] }
        }
        for type in [OneProperty.self, ListInside.self, Unknown.self] as [Object.Type] {
            let error = #expect(throws: ObjDBError.self) {
                _ = try Database(path: directory.store("\(type).objdb"), types: [type])
            }
            #expect(error?.code == .invalidSchema)
        }
    }
}

/// Random adds, upserts, changes and deletes of enrollments, each checked against a plain model
/// of the two constraints (#30).
@Suite("Objects: compound unique keys (model-based)")
struct CompoundKeyModelTests {
    struct Row: Hashable, Comparable {
        var student: String
        var course: Int
        var grade: Int
        var seat: Int?

        static func < (left: Row, right: Row) -> Bool {
            (left.student, left.course, left.grade, left.seat ?? -1)
                < (right.student, right.course, right.grade, right.seat ?? -1)
        }

        /// Whether the two rows clash on a constraint: (student, course), or (student, seat) with a seat.
        func clashes(with other: Row) -> Bool {
            student == other.student && (course == other.course || (seat != nil && seat == other.seat))
        }
    }

    /// The model's answer to an add: the rows after it, or `nil` when a constraint refuses it.
    static func add(_ row: Row, upsert: Bool, to rows: [Row]) -> [Row]? {
        var rows = rows
        if upsert {
            // The first constraint whose values an object already holds picks the object to update.
            let target =
                rows.firstIndex { $0.student == row.student && $0.course == row.course }
                ?? rows.firstIndex { row.seat != nil && $0.student == row.student && $0.seat == row.seat }
            if let target { rows.remove(at: target) }
        }
        guard !rows.contains(where: { $0.clashes(with: row) }) else { return nil }
        rows.append(row)
        return rows
    }

    static func rows(in db: Database) throws -> [Row] {
        try db.read { view in
            view.objects(Enrollment.self).map {
                Row(student: $0.student, course: $0.course, grade: $0.grade, seat: $0.seat)
            }
            .sorted()
        }
    }

    @Test(arguments: [UInt64(11), 12, 13, 14])
    func randomWritesKeepTheConstraints(seed: UInt64) throws {
        let directory = TemporaryDirectory()
        let db = try Database(path: directory.store(), types: [Enrollment.self])
        var random = SeededGenerator(seed: seed)
        var model: [Row] = []
        func randomRow() -> Row {
            Row(
                student: ["ada", "bob", "cy"].randomElement(using: &random)!,
                course: Int.random(in: 1...6, using: &random),
                grade: Int.random(in: 0...9, using: &random),
                seat: Bool.random(using: &random) ? nil : Int.random(in: 1...4, using: &random))
        }
        for step in 0..<150 {
            let row = randomRow()
            let operation = Int.random(in: 0..<10, using: &random)
            var expected: [Row]?
            do {
                switch operation {
                case 0...3, 4...5:
                    let upsert = operation >= 4
                    expected = Self.add(row, upsert: upsert, to: model)
                    try db.write { transaction in
                        let object = Enrollment()
                        object.student = row.student
                        object.course = row.course
                        object.grade = row.grade
                        object.seat = row.seat
                        try transaction.add(object, update: upsert ? .modified : .error)
                    }
                case 6, 7:
                    // Move a stored enrollment to another course and seat.
                    guard let old = model.randomElement(using: &random) else { continue }
                    let moved = Row(student: old.student, course: row.course, grade: old.grade, seat: row.seat)
                    var others = model
                    others.remove(at: others.firstIndex(of: old)!)
                    expected = others.contains { $0.clashes(with: moved) } ? nil : others + [moved]
                    try db.write { transaction in
                        let object = try transaction.objects(Enrollment.self)
                            .filter("student == %@ AND course == %@", old.student, old.course).first!
                        object.course = moved.course
                        object.seat = moved.seat
                    }
                default:
                    guard let old = model.randomElement(using: &random) else { continue }
                    expected = model.filter { $0 != old }
                    try db.write { transaction in
                        try transaction.delete(
                            transaction.objects(Enrollment.self)
                                .filter("student == %@ AND course == %@", old.student, old.course))
                    }
                }
                #expect(expected != nil, "step \(step): the write passed, the model refuses it")
                if let expected { model = expected }
            } catch let error as ObjDBError where error.code == .uniqueConstraintViolated {
                #expect(expected == nil, "step \(step): \(error.message)")
            }
            let stored = try Self.rows(in: db)
            #expect(stored == model.sorted(), "step \(step), seed \(seed)")
            if stored != model.sorted() { break }
            // Every stored pair is found by its lookup, and one not stored is not.
            let probe = randomRow()
            let found = try db.read { view in
                try view.objects(Enrollment.self).filter("student == %@ AND course == %@", probe.student, probe.course)
                    .count
            }
            #expect(found == model.filter { $0.student == probe.student && $0.course == probe.course }.count)
        }
        #expect(try StoreCheck(database: db).problems() == [])
    }
}
