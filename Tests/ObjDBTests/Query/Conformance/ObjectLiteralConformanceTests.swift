import Foundation
import TestSupport
import Testing

@testable import ObjDB

final class LiteralOwner: Object {
    @Persisted var name = ""
}

final class LiteralTag: Object {
    @Persisted(primaryKey: true) var id = 0
}

final class LiteralPet: Object {
    @Persisted var name = ""
    @Persisted var owner: LiteralOwner?
    @Persisted var friends: List<LiteralOwner>
    @Persisted var tag: LiteralTag?
}

/// Realm's `O<n>` object literal (query_flex.ll's `O[0-9]+`, an `ObjKey`): a link to the object
/// whose key is `n`, of the type the compared link leads to. ObjDB's keys are internal IDs (from 1,
/// in insertion order) or integer primary keys; a key no object has is the null link, as
/// realm-core's `ObjectLiteral` of a missing key compares (#30).
@Suite("Query conformance: O<n> object literals")
struct ObjectLiteralConformanceTests {
    let directory = TemporaryDirectory()

    private func pets() throws -> Database {
        let db = try Database(path: directory.store(), types: [LiteralOwner.self, LiteralTag.self, LiteralPet.self])
        try db.write { transaction in
            let owners = try ["ann", "bo", "cy"].map { try transaction.create(LiteralOwner.self, value: ["name": $0]) }
            let tags = try [7, 8].map { try transaction.create(LiteralTag.self, value: ["id": $0]) }
            let rex = try transaction.create(LiteralPet.self, value: ["name": "rex"])
            rex.owner = owners[0]
            rex.friends.append(contentsOf: [owners[1], owners[2]])
            rex.tag = tags[0]
            let tom = try transaction.create(LiteralPet.self, value: ["name": "tom"])
            tom.owner = owners[1]
            tom.friends.append(owners[2])
            tom.tag = tags[1]
            try transaction.create(LiteralPet.self, value: ["name": "kit"])
        }
        return db
    }

    @Test(arguments: [
        ("owner == O1", ["rex"]), ("owner == O2", ["tom"]), ("owner != O1", ["tom", "kit"]),
        ("owner == O99", ["kit"]), ("owner IN {O1, O2}", ["rex", "tom"]), ("O3 IN friends", ["rex", "tom"]),
        ("ANY friends == O2", ["rex"]), ("tag == O7", ["rex"]), ("tag == O9", ["kit"]),
        ("owner == O1 OR tag == O8", ["rex", "tom"]),
    ])
    func aLiteralIsTheObjectWithThatKey(query: String, expected: [String]) throws {
        let db = try pets()
        let names = try db.read { try $0.objects(LiteralPet.self).filter(query).map(\.name) }
        #expect(names == expected, "\(query)")
    }
}
