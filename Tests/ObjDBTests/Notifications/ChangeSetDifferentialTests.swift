import Foundation
import TestSupport
import Testing

@testable import ObjDB

/// Random writes; after each batch, every query's change set must turn the old results into
/// the new ones, and name exactly the objects that changed.
@Suite("Live results: change sets (differential)")
struct ChangeSetDifferentialTests {
    let directory = TemporaryDirectory()

    static let queries: [(filter: String?, sorts: [SortKey], observed: [String]?)] = [
        (nil, [], nil),
        ("value > 150", [], nil),
        (nil, [SortKey("value")], nil),
        ("label BEGINSWITH 'a'", [SortKey("value", ascending: false)], nil),
        (nil, [SortKey("label"), SortKey("value")], ["value"]),
        ("value < 200 OR label BEGINSWITH 'b'", [SortKey("label", ascending: false)], ["label"]),
    ]

    @Test(arguments: [1, 2, 3])
    func changeSetsTurnTheOldResultsIntoTheNew(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let database = try watchedCounterStore()
        var checked = 0
        var step = 0
        for _ in 0..<60 {
            let old = try snapshot(database)
            let before = try Self.queries.map { query in try differ(database, query).keys(in: old) }
            let commits = random.next(upTo: 3) + 1
            for _ in 0..<commits {
                step += 1
                try randomWrite(database, &random, step: step)
            }
            let new = try snapshot(database)
            let changes = try ChangeLog.changes(
                after: old.readTransaction().id, in: new.readTransaction(), log: database.changeLog!,
                meta: database.meta!)
            #expect(changes != nil, "the log covers every commit since the old snapshot")
            for (index, query) in Self.queries.enumerated() {
                let differ = try differ(database, query)
                let expected = try differ.keys(in: new)
                for (changes, oldContext) in [(changes, old as Snapshot?), (nil, old), (changes, nil)] {
                    let diff = try differ.diff(from: before[index], changes: changes, old: oldContext, new: new)
                    let result = diff ?? ResultsDiff(newKeys: before[index])
                    #expect(result.newKeys == expected, "query \(index): new keys")
                    #expect(
                        Self.apply(result, to: before[index]) == Array(expected), "query \(index): applying the indices"
                    )
                    let changed = try changedKeys(
                        differ, old: old, new: new, before: before[index], after: expected)
                    let modified = Set(result.modifications.map { expected[$0] })
                    let moved = Set(result.deletions.map { before[index][$0] }).intersection(
                        result.insertions.map { expected[$0] })
                    #expect(moved.isSubset(of: changed.any), "query \(index): only changed objects move")
                    if changes != nil || oldContext != nil {
                        #expect(modified == changed.observed.subtracting(moved), "query \(index): modifications")
                    }
                    checked += 1
                }
            }
        }
        #expect(checked == 60 * Self.queries.count * 3)
    }

    @Test func aRolledBackWriteLogsNothing() throws {
        let database = try watchedCounterStore()
        try database.write { try $0.create(Counter.self, value: ["id": 1]) }
        let old = try snapshot(database)
        struct Abort: Error {}
        _ = try? database.write { transaction in
            try transaction.create(Counter.self, value: ["id": 2])
            throw Abort()
        }
        let new = try snapshot(database)
        let changes = try ChangeLog.changes(
            after: old.readTransaction().id, in: new.readTransaction(), log: database.changeLog!, meta: database.meta!)
        #expect(changes?.isEmpty == true)
    }

    @Test func theLogNamesInsertedModifiedAndDeletedObjectsWithTheirProperties() throws {
        let database = try watchedCounterStore()
        try database.write { transaction in
            try transaction.create(Counter.self, value: ["id": 1])
            try transaction.create(Counter.self, value: ["id": 2])
        }
        let old = try snapshot(database)
        try database.write { transaction in
            transaction.object(ofType: Counter.self, forPrimaryKey: 1)!.label = "x"
            try transaction.delete(transaction.object(ofType: Counter.self, forPrimaryKey: 2)!)
            try transaction.create(Counter.self, value: ["id": 3])
        }
        let new = try snapshot(database)
        let changes = try #require(
            try ChangeLog.changes(
                after: old.readTransaction().id, in: new.readTransaction(), log: database.changeLog!,
                meta: database.meta!))
        let counters = try #require(changes.types["Counter"])
        let label = try database.binding(for: Counter.self)["label"]!.schema.id
        let key = { (id: Int) in ObjectKeyCodec.encode(.int(Int64(id))) }
        #expect(
            counters.objects[key(1)]
                == LoggedObjectChange(existedBefore: true, existsAfter: true, properties: [label], allProperties: false)
        )
        #expect(counters.objects[key(2)]?.existsAfter == false)
        #expect(counters.objects[key(3)]?.existedBefore == false)
        #expect(changes.types["Unrelated"] == nil)
    }

    @Test func writesNobodyWatchesKeepNoLog() throws {
        let database = try counterStore(directory)
        for id in 0..<5 { try database.write { try $0.create(Counter.self, value: ["id": id]) } }
        let entries = try database.environment.read { try ChangeLog.extent(in: $0, log: database.changeLog!).entries }
        #expect(entries == 0)
    }

    @Test func theLogIsTrimmedOnceNoReaderNeedsIt() throws {
        let database = try watchedCounterStore()
        for id in 0..<(ChangeLog.trimInterval * 2) {
            try database.write { try $0.create(Counter.self, value: ["id": id]) }
        }
        let entries = try database.environment.read { try ChangeLog.extent(in: $0, log: database.changeLog!).entries }
        #expect(entries < ChangeLog.trimInterval)
        // A reader pins its version: the log keeps everything after it.
        let pinned = try database.view()
        let pinnedVersion = pinned.version
        for id in 100..<(100 + ChangeLog.trimInterval * 2) {
            try database.write { try $0.create(Counter.self, value: ["id": id]) }
        }
        let oldest = try database.environment.read { try ChangeLog.extent(in: $0, log: database.changeLog!).oldest }
        #expect(oldest == pinnedVersion + 1)
        withExtendedLifetime(pinned) {}
    }

    // MARK: - Helpers

    /// A store whose writes keep the change log: as when an observer watches it.
    private func watchedCounterStore() throws -> Database {
        let database = try counterStore(directory)
        #expect(try database.environment.startWatchingChanges())
        return database
    }

    private func snapshot(_ database: Database) throws -> Snapshot {
        let view = try database.view()
        return Snapshot(owner: database, frozenAt: try view.snapshot.shareTransaction())
    }

    private func differ(_ database: Database, _ query: (filter: String?, sorts: [SortKey], observed: [String]?))
        throws -> ResultsDiffer
    {
        let binding = try database.binding(for: Counter.self)
        var spec = QuerySpec()
        if let filter = query.filter {
            var parser = try PredicateParser(filter, arguments: [])
            spec.filter = try parser.parse()
        }
        spec.sorts = query.sorts
        return try ResultsDiffer(
            binding: binding, spec: spec, database: database,
            observed: try ObservedKeyPaths(keyPaths: query.observed, binding: binding, database: database))
    }

    /// Values and labels only ever move forward with `step`, so a property written twice between
    /// two snapshots never ends where it began: a changed value is exactly a logged change.
    /// Values of one step tie often, to exercise sorting ties.
    private func randomWrite(_ database: Database, _ random: inout SeededRandom, step: Int) throws {
        let labels = ["a", "b", "bb", "c"].map { "\($0)\(step)" }
        func value() -> Int { step * 3 + random.next(upTo: 3) }
        try database.write { transaction in
            for _ in 0..<(random.next(upTo: 4) + 1) {
                let id = random.next(upTo: 30)
                let existing = transaction.object(ofType: Counter.self, forPrimaryKey: id)
                switch (random.next(upTo: 5), existing) {
                case (0, let object?): try transaction.delete(object)
                case (1, let object?): object.value = value()
                case (2, let object?): object.label = labels[random.next(upTo: labels.count)]
                case (3, let object?):
                    // Deleted and made again: the log calls every property changed, so make them differ.
                    try transaction.delete(object)
                    try transaction.create(Counter.self, value: ["id": id, "value": value(), "label": "again \(step)"])
                case (_, nil):
                    try transaction.create(
                        Counter.self,
                        value: ["id": id, "value": value(), "label": labels[random.next(upTo: 4)]])
                default: break
                }
            }
        }
    }

    /// The keys in both results whose properties changed: any property, and the observed ones.
    private func changedKeys(
        _ differ: ResultsDiffer, old: Snapshot, new: Snapshot, before: KeyChunks, after: KeyChunks
    ) throws -> (any: Set<[UInt8]>, observed: Set<[UInt8]>) {
        var any = Set<[UInt8]>()
        var observed = Set<[UInt8]>()
        for key in Set(before).intersection(after) {
            let a = old.values(of: try old.record(in: differ.binding, key: key)!, in: differ.binding)
            let b = new.values(of: try new.record(in: differ.binding, key: key)!, in: differ.binding)
            let changed = differ.binding.properties.filter { a[$0.position] != b[$0.position] }.map(\.schema.id)
            if !changed.isEmpty { any.insert(key) }
            if changed.contains(where: { differ.observedProperties?.contains($0) ?? true }) { observed.insert(key) }
        }
        return (any, observed)
    }

    /// Applies deletions (old indices), then insertions (new indices, taking the new keys).
    static func apply(_ diff: ResultsDiff, to old: KeyChunks) -> [[UInt8]] {
        var list = Array(old)
        for index in diff.deletions.reversed() { list.remove(at: index) }
        for index in diff.insertions { list.insert(diff.newKeys[index], at: index) }
        return list
    }
}

/// A small deterministic generator (SplitMix64), so failures replay.
struct SeededRandom {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next(upTo bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}
