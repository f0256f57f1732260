import Dispatch
import Foundation
import TestSupport
import Testing

@testable import ObjDB

/// Sectioned live results (#30): a table of sections is kept in step over random write rounds by
/// applying only the change sets the observer delivers, as a `UITableView` applies them, and
/// checked against the sections worked out in plain Swift from the same writes.
@Suite("Live results: sections", .timeLimit(.minutes(5)))
struct SectionedResultsTests {
    let directory = TemporaryDirectory()

    /// A counter as a table row shows it.
    struct Row: Equatable, Sendable, CustomStringConvertible {
        var id: Int
        var value: Int
        var label: String
        var description: String { "\(id):\(value)\(label)" }
    }

    struct Section: Equatable, Sendable {
        var key: String
        var rows: [Row]
    }

    /// One way of sectioning the counters: observed through the API, and the same in plain Swift.
    struct Variant: Sendable, CustomTestStringConvertible {
        let name: String
        let observe: @Sendable (Results<Counter>, Table) throws -> NotificationToken
        let expected: @Sendable ([Row]) -> [Section]
        var testDescription: String { name }
    }

    static let variants: [Variant] = [
        Variant(
            name: "by label (key path)",
            observe: { results, table in
                try results.sectioned(by: \.label).observe { apply($0, to: table) { $0 } }
            },
            expected: { rows in group(rows.sorted { ($0.label, $0.id) < ($1.label, $1.id) }) { $0.label } }),
        Variant(
            name: "by value bucket, descending",
            observe: { results, table in
                try results.sectioned(by: { $0.value / 50 }, sortedBy: [SortKey("value", ascending: false)])
                    .observe { apply($0, to: table) { String($0) } }
            },
            expected: { rows in
                group(rows.sorted { $0.value != $1.value ? $0.value > $1.value : $0.id < $1.id }) {
                    String($0.value / 50)
                }
            }),
        Variant(
            name: "by value mod 3, interleaved",
            observe: { results, table in
                try results.sectioned(by: { String($0.value % 3) }, sortedBy: [SortKey("id")])
                    .observe { apply($0, to: table) { $0 } }
            },
            expected: { rows in group(rows.sorted { $0.id < $1.id }) { String($0.value % 3) } }),
        Variant(
            name: "filtered, by label key path string, descending",
            observe: { results, table in
                try results.filter("value >= 100").sectioned(byKeyPath: "label", ascending: false)
                    .observe { apply($0, to: table) { "\($0)" } }
            },
            expected: { rows in
                group(
                    rows.filter { $0.value >= 100 }.sorted {
                        $0.label != $1.label ? $0.label > $1.label : $0.id < $1.id
                    }
                ) { "\(StoredValue.string($0.label))" }
            }),
    ]

    /// Rows grouped by `key`, sections in the order of their first row.
    static func group(_ rows: [Row], by key: (Row) -> String) -> [Section] {
        var sections: [Section] = []
        var index: [String: Int] = [:]
        for row in rows {
            let key = key(row)
            if let existing = index[key] {
                sections[existing].rows.append(row)
            } else {
                index[key] = sections.count
                sections.append(Section(key: key, rows: [row]))
            }
        }
        return sections
    }

    /// What an observer's table holds, changed only by the deliveries.
    final class Table: @unchecked Sendable {
        // @unchecked: touched on the observer's queue only (the test reads it there with sync).
        var sections: [Section] = []
        var deliveries = 0
        var problems: [String] = []
    }

    static func row(_ counter: Counter) -> Row { Row(id: counter.id, value: counter.value, label: counter.label) }

    static func sections<Key>(of sectioned: SectionedResults<Key, Counter>, _ name: (Key) -> String) -> [Section] {
        sectioned.map { Section(key: name($0.key), rows: $0.map(row)) }
    }

    /// Applies one delivery to the table as a table view does: rows and sections out, sections
    /// and rows in, rows reloaded, each new row read from the delivered sections.
    static func apply<Key>(
        _ change: SectionedResultsChange<SectionedResults<Key, Counter>>, to table: Table, _ name: (Key) -> String
    ) {
        switch change {
        case .initial(let sectioned):
            table.sections = sections(of: sectioned, name)
        case .update(let sectioned, let deletions, let insertions, let modifications, let inserted, let deleted):
            for path in deletions.reversed() { table.sections[path[0]].rows.remove(at: path[1]) }
            for section in deleted.reversed() { table.sections.remove(at: section) }
            for section in inserted {
                let new = Section(key: name(sectioned[section].key), rows: sectioned[section].map(row))
                table.sections.insert(new, at: section)
            }
            for path in insertions { table.sections[path[0]].rows.insert(row(sectioned[path]), at: path[1]) }
            for path in modifications { table.sections[path[0]].rows[path[1]] = row(sectioned[path]) }
            let delivered = sections(of: sectioned, name)
            if table.sections != delivered {
                table.problems.append("after delivery \(table.deliveries): \(table.sections) ≠ \(delivered)")
            }
        case .error(let error):
            table.problems.append("error: \(error)")
        }
        table.deliveries += 1
    }

    @Test(arguments: variants, [UInt64(1), 2, 3])
    func aSectionedTableStaysInStepByApplyingOnlyTheChangeSets(variant: Variant, seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let database = try counterStore(directory)
        var model: [Int: Row] = [:]
        try database.write { transaction in
            for id in 0..<30 {
                let row = Row(id: id, value: random.next(upTo: 300), label: ["a", "b", "c", ""][random.next(upTo: 4)])
                model[id] = row
                try transaction.create(Counter.self, value: ["id": id, "value": row.value, "label": row.label])
            }
        }
        let queue = DispatchQueue(label: "table")
        let table = Table()
        let observe = variant.observe
        let token = try onQueue(queue) { try observe(database.view(queue: queue).objects(Counter.self), table) }
        var nextID = 30
        for round in 0..<30 {
            for _ in 0..<(random.next(upTo: 3) + 1) {
                try database.write { transaction in
                    for _ in 0..<(random.next(upTo: 4) + 1) {
                        try Self.randomChange(transaction, &model, &random, &nextID)
                    }
                }
            }
            let expected = variant.expected(Array(model.values))
            let deadline = ContinuousClock.now + .seconds(20)
            while queue.sync(execute: { table.sections }) != expected && ContinuousClock.now < deadline {
                Thread.sleep(forTimeInterval: 0.005)
            }
            let held = queue.sync { table.sections }
            #expect(held == expected, "round \(round): the table is out of step")
            if held != expected { break }
        }
        #expect(queue.sync { table.problems } == [])
        #expect(queue.sync { table.deliveries } > 1)
        withExtendedLifetime(token) {}
    }

    private static func randomChange(
        _ transaction: WriteTransaction, _ model: inout [Int: Row], _ random: inout SeededRandom, _ nextID: inout Int
    ) throws {
        let ids = model.keys.sorted()
        switch random.next(upTo: 5) {
        case 0:
            let row = Row(id: nextID, value: random.next(upTo: 300), label: ["a", "b", "c", "d"][random.next(upTo: 4)])
            nextID += 1
            model[row.id] = row
            try transaction.create(Counter.self, value: ["id": row.id, "value": row.value, "label": row.label])
        case 1 where !ids.isEmpty:
            let id = ids[random.next(upTo: ids.count)]
            model[id] = nil
            try transaction.delete(transaction.object(ofType: Counter.self, forPrimaryKey: id)!)
        case 2 where !ids.isEmpty:
            let id = ids[random.next(upTo: ids.count)]
            let label = ["a", "b", "c", "d", ""][random.next(upTo: 5)]
            model[id]!.label = label
            transaction.object(ofType: Counter.self, forPrimaryKey: id)!.label = label
        default:
            guard !ids.isEmpty else { return }
            let id = ids[random.next(upTo: ids.count)]
            let value = random.next(upTo: 300)
            model[id]!.value = value
            transaction.object(ofType: Counter.self, forPrimaryKey: id)!.value = value
        }
    }

    @Test func sectionsHaveTheirKeysAndCountsInOrder() throws {
        let database = try counterStore(directory)
        try database.write { transaction in
            for (id, label) in ["b", "a", "b", "c", "a", "b"].enumerated() {
                try transaction.create(Counter.self, value: ["id": id, "value": id * 10, "label": label])
            }
        }
        let counters = try database.view().objects(Counter.self)
        let byLabel = counters.sectioned(by: \.label)
        #expect(byLabel.allKeys == ["a", "b", "c"])
        #expect(byLabel.map(\.count) == [2, 3, 1])
        #expect(byLabel[1].map(\.id) == [0, 2, 5])
        #expect(byLabel[IndexPath(indexes: [2, 0])].id == 3)
        let descending = counters.sectioned(by: \.label, ascending: false)
        #expect(descending.allKeys == ["c", "b", "a"])
        let byTens = try counters.sectioned(by: { $0.value >= 30 }, sortedBy: [SortKey("value", ascending: false)])
        #expect(byTens.allKeys == [true, false])
        #expect(byTens.map(\.count) == [3, 3])
        let dynamic = try counters.filter("id > 0").sectioned(byKeyPath: "label")
        #expect(dynamic.allKeys == [.string("a"), .string("b"), .string("c")])
        #expect(dynamic.map(\.count) == [2, 2, 1])
    }

    @Test func sectionsFollowTheViewAsItMoves() throws {
        let database = try counterStore(directory)
        try database.write { try $0.create(Counter.self, value: ["id": 1, "label": "x"]) }
        let view = try database.view()
        let sections = view.objects(Counter.self).sectioned(by: \.label)
        #expect(sections.allKeys == ["x"])
        try database.write { try $0.create(Counter.self, value: ["id": 2, "label": "w"]) }
        try view.refresh()
        #expect(sections.allKeys == ["w", "x"])
    }

    @Test func aSectionThatMovesAmongTheOthersIsDeletedAndInserted() throws {
        let diff = SectionDiff(
            old: layout([("a", [1]), ("b", [2]), ("c", [3])]), new: layout([("b", [2]), ("a", [1]), ("c", [3])]),
            deletions: [], insertions: [], modifications: [])
        #expect(diff.sectionsToDelete.count == 1)
        #expect(diff.sectionsToInsert.count == 1)
        #expect(diff.deletions.isEmpty && diff.insertions.isEmpty)
    }

    private func layout(_ sections: [(String, [Int])]) -> SectionLayout<String> {
        var layout = SectionLayout<String>()
        for (key, ids) in sections {
            let start = layout.objectKeys.count
            layout.objectKeys += ids.map { ObjectKeyCodec.encode(.int(Int64($0))) }
            layout.sections.append(.init(key: key, positions: Array(start..<layout.objectKeys.count)))
        }
        return layout
    }
}
