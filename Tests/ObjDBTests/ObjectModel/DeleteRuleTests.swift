import Foundation
import ObjDBInspection
import TestSupport
import Testing

@testable import ObjDB

final class RuleBrewery: Object {
    @Persisted(primaryKey: true) var name = ""
    @Persisted(deleteRule: .cascade) var beers: List<RuleBeer>
    @Persisted(deleteRule: .cascade) var tap: MutableSet<RuleBeer>
    @Persisted(deleteRule: .cascade) var flagship: RuleBeer?
    @Persisted(deleteRule: .deny) var owner: RuleOwner?
    @Persisted(deleteRule: .cascade) var awards: Map<String, RuleBeer?>
    @Persisted var neighbour: RuleBrewery?
}

final class RuleBeer: Object {
    @Persisted(primaryKey: true) var name = ""
    @Persisted var brewery: RuleBrewery?
    @Persisted(deleteRule: .cascade) var reviews: List<RuleReview>
}

final class RuleReview: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted(deleteRule: .deny) var pinnedBy: RuleOwner?
}

final class RuleOwner: Object {
    @Persisted(primaryKey: true) var name = ""
}

/// A node that links to others under every rule: the model-based test's subject.
final class RuleNode: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted(deleteRule: .cascade) var children: List<RuleNode>
    @Persisted(deleteRule: .cascade) var parts: MutableSet<RuleNode>
    @Persisted(deleteRule: .cascade) var heir: RuleNode?
    @Persisted(deleteRule: .deny) var keeper: RuleNode?
    @Persisted var friend: RuleNode?
    @Persisted var others: List<RuleNode>
}

/// Delete rules on links (#30): cascade, nullify (the default) and deny, on to-one links, lists,
/// sets and maps.
@Suite("Objects: delete rules")
struct DeleteRuleTests {
    let directory = TemporaryDirectory()

    func breweries() throws -> Database {
        let db = try Database(
            path: directory.store(), types: [RuleBrewery.self, RuleBeer.self, RuleReview.self, RuleOwner.self])
        try db.write { transaction in
            let brewery = RuleBrewery()
            brewery.name = "Anchor"
            for name in ["Steam", "Porter", "Liberty"] {
                let beer = RuleBeer()
                beer.name = name
                beer.brewery = brewery
                let review = RuleReview()
                review.id = name.count
                beer.reviews.append(review)
                brewery.beers.append(beer)
            }
            let other = RuleBrewery()
            other.name = "Brooklyn"
            let lager = RuleBeer()
            lager.name = "Lager"
            other.beers.append(lager)
            brewery.neighbour = other
            try transaction.add(brewery)
        }
        return db
    }

    private func names<T: Object>(_ type: T.Type, in db: Database, _ key: KeyPath<T, String>) throws -> Set<String> {
        try db.read { Set($0.objects(type).map { $0[keyPath: key] }) }
    }

    @Test func cascadeDeletesTheObjectsAListLeadsToAndTheirs() throws {
        let db = try breweries()
        try db.write { try $0.delete($0.object(ofType: RuleBrewery.self, forPrimaryKey: "Anchor")!) }
        #expect(try names(RuleBrewery.self, in: db, \.name) == ["Brooklyn"])
        #expect(try names(RuleBeer.self, in: db, \.name) == ["Lager"])
        #expect(try db.read { $0.objects(RuleReview.self).count } == 0)
        #expect(try StoreCheck(database: db).problems() == [])
    }

    @Test func cascadeFollowsToOneLinksSetsAndMaps() throws {
        let db = try breweries()
        try db.write { transaction in
            let brooklyn = transaction.object(ofType: RuleBrewery.self, forPrimaryKey: "Brooklyn")!
            let extra = ["Pils", "Ale", "Stout"].map { name in
                let beer = RuleBeer()
                beer.name = name
                return beer
            }
            brooklyn.flagship = extra[0]
            brooklyn.tap.insert(extra[1])
            brooklyn.awards["gold"] = extra[2]
            brooklyn.beers.removeAll()
        }
        try db.write { try $0.delete($0.object(ofType: RuleBrewery.self, forPrimaryKey: "Brooklyn")!) }
        #expect(try names(RuleBeer.self, in: db, \.name) == ["Steam", "Porter", "Liberty", "Lager"])
        // Nullify: Anchor's link to its neighbour is cleared, Anchor stays.
        #expect(try db.read { $0.object(ofType: RuleBrewery.self, forPrimaryKey: "Anchor")?.neighbour } == nil)
    }

    @Test func denyThrowsAndNothingIsDeleted() throws {
        let db = try breweries()
        try db.write { transaction in
            let owner = RuleOwner()
            owner.name = "Fritz"
            transaction.object(ofType: RuleBrewery.self, forPrimaryKey: "Anchor")!.owner = owner
        }
        let error = #expect(throws: ObjDBError.self) {
            try db.write { transaction in
                try transaction.delete(transaction.object(ofType: RuleBeer.self, forPrimaryKey: "Lager")!)
                try transaction.delete(transaction.object(ofType: RuleBrewery.self, forPrimaryKey: "Anchor")!)
            }
        }
        #expect(error?.code == .deleteDenied)
        #expect(error?.typeName == "RuleBrewery" && error?.propertyName == "owner")
        // The write rolled back: the delete before the denied one too.
        #expect(try names(RuleBeer.self, in: db, \.name) == ["Steam", "Porter", "Liberty", "Lager"])
        #expect(try names(RuleBrewery.self, in: db, \.name) == ["Anchor", "Brooklyn"])
    }

    @Test func aDenialCaughtInTheWriteLeavesNothingHalfDeleted() throws {
        let db = try breweries()
        try db.write { transaction in
            let keeper = RuleOwner()
            keeper.name = "Keeper"
            transaction.object(ofType: RuleReview.self, forPrimaryKey: 6)!.pinnedBy = keeper  // Porter's review
        }
        try db.write { transaction in
            // Anchor cascades to Porter, whose review is pinned (deny): the whole delete is refused.
            #expect(throws: ObjDBError.self) {
                try transaction.delete(transaction.object(ofType: RuleBrewery.self, forPrimaryKey: "Anchor")!)
            }
        }
        #expect(try names(RuleBeer.self, in: db, \.name) == ["Steam", "Porter", "Liberty", "Lager"])
        #expect(try db.read { $0.objects(RuleReview.self).count } == 3)
        #expect(try StoreCheck(database: db).problems() == [])
    }

    @Test func aDenyingLinkToAnObjectTheSameDeleteRemovesDoesNotDeny() throws {
        let db = try Database(path: directory.store(), types: [RuleNode.self])
        try db.write { transaction in
            let root = try transaction.create(RuleNode.self, value: ["id": 1])
            let child = try transaction.create(RuleNode.self, value: ["id": 2])
            root.children.append(child)
            root.keeper = child  // deny, but the cascade deletes it too
        }
        try db.write { try $0.delete($0.object(ofType: RuleNode.self, forPrimaryKey: 1)!) }
        #expect(try db.read { $0.objects(RuleNode.self).count } == 0)
    }

    @Test func aCycleOfCascadesEnds() throws {
        let db = try Database(path: directory.store(), types: [RuleNode.self])
        try db.write { transaction in
            let nodes = try (1...5).map { try transaction.create(RuleNode.self, value: ["id": $0]) }
            for (index, node) in nodes.enumerated() { node.children.append(nodes[(index + 1) % nodes.count]) }
            nodes[2].heir = nodes[0]
            try transaction.create(RuleNode.self, value: ["id": 6])
        }
        try db.write { try $0.delete($0.object(ofType: RuleNode.self, forPrimaryKey: 3)!) }
        #expect(try db.read { $0.objects(RuleNode.self).map(\.id) } == [6])
        #expect(try StoreCheck(database: db).problems() == [])
    }

    @Test func deletingAnObjectACascadeDeletedInTheSameWriteIsNoError() throws {
        let db = try breweries()
        try db.write { transaction in
            let beers = Array(transaction.objects(RuleBeer.self))
            try transaction.delete(transaction.object(ofType: RuleBrewery.self, forPrimaryKey: "Anchor")!)
            try transaction.delete(beers)
            try transaction.deleteAll(RuleReview.self)
        }
        #expect(try db.read { $0.objects(RuleBeer.self).count } == 0)
    }

    @Test func cascadedDeletionsAreInTheChangeSets() throws {
        let db = try breweries()
        let queue = DispatchQueue(label: "observer")
        let inbox = Inbox<[Int]>()
        let token = try onQueue(queue) {
            try db.view(queue: queue).objects(RuleBeer.self).sorted(byKeyPath: "name").observe { change in
                switch change {
                case .initial: inbox.append([])
                case .update(_, let deletions, _, _): inbox.append(deletions)
                case .error: break
                }
            }
        }
        inbox.wait(for: 1)  // the initial results, before the write
        try db.write { try $0.delete($0.object(ofType: RuleBrewery.self, forPrimaryKey: "Anchor")!) }
        // Sorted by name: Lager, Liberty, Porter, Steam; the last three were Anchor's.
        #expect(inbox.wait(for: 2) == [[], [1, 2, 3]])
        withExtendedLifetime(token) {}
    }

    @Test func theRulesAreStoredInTheSchema() throws {
        let db = try breweries()
        let brewery = try #require(db.schema["RuleBrewery"])
        #expect(brewery["beers"]?.deleteRule == .cascade)
        #expect(brewery["owner"]?.deleteRule == .deny)
        #expect(brewery["neighbour"]?.deleteRule == nil)
        let json = try db.environment.read { transaction in
            try StoredSchema.read(in: transaction)
        }
        #expect(json?["RuleBrewery"]?["tap"]?.deleteRule == .cascade)
    }

    @Test func aRuleOnAPropertyThatIsNoLinkIsRefused() throws {
        final class Wrong: Object {
            @Persisted(primaryKey: true) var id = 0
            @Persisted(deleteRule: .cascade) var name: String
        }
        let error = #expect(throws: ObjDBError.self) {
            _ = try Database(path: directory.store(), types: [Wrong.self])
        }
        #expect(error?.code == .invalidSchema)
        #expect(error?.message.contains("only links to objects") == true)
    }
}

/// Random graphs of nodes linked under every rule, random deletes, each checked against a plain
/// model of what the rules say (#30).
@Suite("Objects: delete rules (model-based)")
struct DeleteRuleModelTests {
    struct Node: Equatable {
        var children: [Int] = []
        var parts: Set<Int> = []
        var heir: Int?
        var keeper: Int?
        var friend: Int?
        var others: [Int] = []
    }

    /// What deleting `id` does, by the rules: the nodes deleted, or `nil` when a deny refuses it.
    static func delete(_ id: Int, from nodes: inout [Int: Node]) -> Set<Int>? {
        var planned: Set<Int> = [id]
        var pending = [id]
        while let next = pending.popLast() {
            guard let node = nodes[next] else { continue }
            for target in node.children + Array(node.parts) + [node.heir].compactMap({ $0 })
            where nodes[target] != nil && planned.insert(target).inserted {
                pending.append(target)
            }
        }
        for deleted in planned {
            if let keeper = nodes[deleted]?.keeper, nodes[keeper] != nil, !planned.contains(keeper) { return nil }
        }
        for deleted in planned { nodes[deleted] = nil }
        for key in nodes.keys {
            nodes[key]!.children.removeAll { planned.contains($0) }
            nodes[key]!.parts.subtract(planned)
            nodes[key]!.others.removeAll { planned.contains($0) }
            if let heir = nodes[key]!.heir, planned.contains(heir) { nodes[key]!.heir = nil }
            if let keeper = nodes[key]!.keeper, planned.contains(keeper) { nodes[key]!.keeper = nil }
            if let friend = nodes[key]!.friend, planned.contains(friend) { nodes[key]!.friend = nil }
        }
        return planned
    }

    static func snapshot(_ db: Database) throws -> [Int: Node] {
        try db.read { view in
            var nodes: [Int: Node] = [:]
            for node in view.objects(RuleNode.self) {
                nodes[node.id] = Node(
                    children: node.children.map(\.id), parts: Set(node.parts.map(\.id)), heir: node.heir?.id,
                    keeper: node.keeper?.id, friend: node.friend?.id, others: node.others.map(\.id))
            }
            return nodes
        }
    }

    @Test(arguments: [UInt64(1), 2, 3, 4, 5])
    func randomDeletesFollowTheRules(seed: UInt64) throws {
        let directory = TemporaryDirectory()
        let db = try Database(path: directory.store(), types: [RuleNode.self])
        var random = SeededGenerator(seed: seed)
        var model: [Int: Node] = [:]
        var nextID = 1
        for step in 0..<60 {
            // Grow the graph: new nodes, random links among the live ones.
            try db.write { transaction in
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    try transaction.create(RuleNode.self, value: ["id": nextID])
                    model[nextID] = Node()
                    nextID += 1
                }
                let ids = model.keys.sorted()
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    let from = ids.randomElement(using: &random)!
                    let to = ids.randomElement(using: &random)!
                    let node = transaction.object(ofType: RuleNode.self, forPrimaryKey: from)!
                    let target = transaction.object(ofType: RuleNode.self, forPrimaryKey: to)!
                    switch Int.random(in: 0..<10, using: &random) {
                    case 0...2:
                        node.children.append(target)
                        model[from]!.children.append(to)
                    case 3:
                        node.parts.insert(target)
                        model[from]!.parts.insert(to)
                    case 4:
                        node.heir = target
                        model[from]!.heir = to
                    case 5:
                        node.keeper = target
                        model[from]!.keeper = to
                    case 6, 7:
                        node.friend = target
                        model[from]!.friend = to
                    default:
                        node.others.append(target)
                        model[from]!.others.append(to)
                    }
                }
            }
            // Delete one, as the rules say.
            guard let victim = model.keys.sorted().randomElement(using: &random) else { continue }
            var expected = model
            let deleted = Self.delete(victim, from: &expected)
            do {
                try db.write { transaction in
                    try transaction.delete(transaction.object(ofType: RuleNode.self, forPrimaryKey: victim)!)
                }
                #expect(deleted != nil, "step \(step): node \(victim) was deleted though a keeper denies it")
                if deleted != nil { model = expected }
            } catch let error as ObjDBError where error.code == .deleteDenied {
                #expect(
                    deleted == nil, "step \(step): deleting \(victim) was denied, the model deletes \(deleted ?? [])")
            }
            #expect(try Self.snapshot(db) == model, "step \(step), seed \(seed)")
            if try Self.snapshot(db) != model { break }
        }
        #expect(try StoreCheck(database: db).problems() == [])
    }
}

extension DeleteRuleTests {
    @Test func deletingEverythingIgnoresTheRules() throws {
        let db = try breweries()
        try db.write { transaction in
            let owner = RuleOwner()
            owner.name = "Fritz"
            transaction.object(ofType: RuleBrewery.self, forPrimaryKey: "Anchor")!.owner = owner
        }
        try db.write { try $0.deleteAll() }
        #expect(try db.read { $0.objects(RuleBrewery.self).count + $0.objects(RuleOwner.self).count } == 0)
        #expect(try StoreCheck(database: db).problems() == [])
    }

    @Test func deletingEveryObjectOfOneTypeFollowsTheRules() throws {
        let db = try breweries()
        try db.write { try $0.deleteAll(RuleBrewery.self) }
        #expect(try db.read { $0.objects(RuleBeer.self).count + $0.objects(RuleReview.self).count } == 0)
    }
}
