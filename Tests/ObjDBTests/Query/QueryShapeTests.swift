import Foundation
import TestSupport
import Testing

@testable import ObjDB

final class ShapeReading: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted(indexed: true) var group = 0
    @Persisted var count = 0
    @Persisted var lang = ""
}

/// A query of a shape that compiled before in the store's schema (the same paths, operators and
/// kinds of constants, other values) skips compiling its whole filter until it is used: each
/// query must still answer for its own constants.
@Suite("Queries: shapes compiled before")
struct QueryShapeTests {
    let directory = TemporaryDirectory()
    static let langs = ["en", "fr", "ja", "en-GB", ""]

    private func store(_ name: String = "shapes.objdb") throws -> Database {
        let db = try Database(path: directory.store(name), types: [ShapeReading.self])
        try db.write { transaction in
            for id in 0..<500 {
                let reading = ShapeReading()
                reading.id = id
                reading.group = id % 17
                reading.count = (id &* 31) % 23
                reading.lang = Self.langs[id % Self.langs.count]
                try transaction.add(reading)
            }
        }
        return db
    }

    private func expected(_ db: Database, _ isIncluded: (ShapeReading) -> Bool) throws -> [Int] {
        try db.read { view in view.objects(ShapeReading.self).filter(isIncluded).map(\.id).sorted() }
    }

    @Test func anIndexedEqualityWithEachConstantFindsThatConstantsObjects() throws {
        let db = try store()
        for group in [3, 0, 16, 3, 17, -1] {
            let closure = try db.read { view in
                view.objects(ShapeReading.self).where { $0.group == group }.map(\.id).sorted()
            }
            let argument = try db.read { view in
                try view.objects(ShapeReading.self).filter("group == %@", group).map(\.id).sorted()
            }
            let literal = try db.read { view in
                try view.objects(ShapeReading.self).filter("group == \(group)").map(\.id).sorted()
            }
            let truth = try expected(db) { $0.group == group }
            #expect(closure == truth, "group \(group)")
            #expect(argument == truth, "group \(group)")
            #expect(literal == truth, "group \(group)")
        }
    }

    @Test func aScanOfAShapeSeenBeforeTestsItsOwnConstants() throws {
        let db = try store()
        for (least, lang) in [(5, "en"), (20, "fr"), (0, ""), (5, "ja"), (22, "en-GB"), (5, "de")] {
            let counted = try db.read { view in
                try view.objects(ShapeReading.self).filter("count > %@ AND lang == %@", least, lang).count
            }
            let closure = try db.read { view in
                view.objects(ShapeReading.self).where { $0.count > least && $0.lang == lang }.map(\.id).sorted()
            }
            let truth = try expected(db) { $0.count > least && $0.lang == lang }
            #expect(counted == truth.count, "count > \(least) AND lang == \(lang)")
            #expect(closure == truth, "count > \(least) AND lang == \(lang)")
        }
    }

    @Test func anIndexLookupPlusAConditionAppliesBothConstants() throws {
        let db = try store()
        for (group, least) in [(4, 10), (4, 0), (9, 10), (16, 22)] {
            let found = try db.read { view in
                try view.objects(ShapeReading.self).filter("group == %@ AND count >= %@", group, least).map(\.id)
                    .sorted()
            }
            #expect(found == (try expected(db) { $0.group == group && $0.count >= least }))
        }
    }

    @Test func aRepeatedShapeWithAnIndexLookupSkipsTheWholeFiltersCompile() throws {
        let db = try store()
        let counter = QueryInstrumentation()
        let (first, second) = try QueryInstrumentation.$current.withValue(counter) {
            let first = try db.read { view in view.objects(ShapeReading.self).where { $0.group == 2 }.count }
            let compiledFirst = counter[.compilation]
            let second = try db.read { view in view.objects(ShapeReading.self).where { $0.group == 5 }.count }
            #expect(compiledFirst == 1)
            #expect(counter[.compilation] == compiledFirst, "the second query compiled its filter again")
            return (first, second)
        }
        #expect(first == (try expected(db) { $0.group == 2 }).count)
        #expect(second == (try expected(db) { $0.group == 5 }).count)
    }

    @Test func theWholeFilterOfARepeatedShapeIsCompiledWhenAWalkOfTheTableUsesIt() throws {
        let db = try store()
        _ = try db.read { view in try view.objects(ShapeReading.self).filter("id > %@", 400).count }
        // A primary-key range walks the table, testing the whole filter on each record.
        let ids = try db.read { view in
            try view.objects(ShapeReading.self).filter("id > %@", 450).map(\.id)
        }
        #expect(ids == Array(451..<500))
    }

    @Test func aFilterThatDoesNotCompileFailsEveryTime() throws {
        let db = try store()
        for _ in 0..<3 {
            #expect(throws: ObjDBError.self) {
                try db.read { view in _ = try view.objects(ShapeReading.self).filter("group == 'seven'") }
            }
            #expect(throws: ObjDBError.self) {
                try db.read { view in _ = try view.objects(ShapeReading.self).filter("lang == 7") }
            }
        }
    }

    @Test func likePatternsAreNotErased() throws {
        let db = try store()
        for pattern in ["e*", "?r", "*-*", "[", "*"] {
            let found = try db.read { view in
                try view.objects(ShapeReading.self).filter("lang LIKE %@", pattern).count
            }
            let regex = pattern.replacingOccurrences(of: "[", with: "\\[").replacingOccurrences(of: "*", with: ".*")
                .replacingOccurrences(of: "?", with: ".")
            let truth = try expected(db) { $0.lang.range(of: "^\(regex)$", options: .regularExpression) != nil }
            #expect(found == truth.count, "LIKE \(pattern)")
        }
    }

    @Test func aStoreOpenedAgainStartsWithNoShapes() throws {
        do {
            let db = try store()
            _ = try db.read { view in view.objects(ShapeReading.self).where { $0.group == 1 }.count }
        }
        let db = try Database(path: directory.store("shapes.objdb"), types: [ShapeReading.self])
        let counter = QueryInstrumentation()
        let count = try QueryInstrumentation.$current.withValue(counter) {
            try db.read { view in view.objects(ShapeReading.self).where { $0.group == 3 }.count }
        }
        #expect(counter[.compilation] == 1)
        #expect(count == (try expected(db) { $0.group == 3 }).count)
    }
}
