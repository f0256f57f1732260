import TestSupport
import Testing

@testable import ObjDB

/// A write's gets leave a cursor at the key they found, and a replacing put of that key goes
/// through it (`MDB_CURRENT`): whatever happens between the get and the put, the put must
/// land on its own key, and nested transactions must see and undo it as any other put.
@Suite("Updates through the cursor a get left")
struct UpdateCursorTests {
    let directory = TemporaryDirectory()

    @Test(arguments: [1, 2, 3] as [UInt64])
    func randomGetsPutsAndDeletesMatchAModel(seed: UInt64) throws {
        let (environment, records) = try makeStore(in: directory, name: "store-\(seed).objdb")
        var generator = SeededGenerator(seed: seed)
        var model: [String: String] = [:]
        for _ in 0..<8 {
            try environment.write { transaction in
                for _ in 0..<150 {
                    if Int.random(in: 0..<20, using: &generator) == 0 {
                        try Self.nestedSteps(transaction, records, &model, &generator)
                    } else {
                        try Self.step(transaction, records, &model, &generator)
                    }
                }
            }
            let stored = try environment.read { try $0.entries(in: records) }
            #expect(stored == model.keys.sorted().map { "\($0)=\(model[$0]!)" }, "seed \(seed)")
        }
    }

    @Test func aPutAfterTheKeyWasDeletedAndInsertedAgainReplacesTheNewValue() throws {
        let (environment, records) = try makeStore(in: directory)
        try environment.write { transaction in
            for key in ["a", "b", "c"] { try transaction.put("old \(key)", forKey: key, in: records) }
        }
        try environment.write { transaction in
            #expect(try transaction.string(forKey: "b", in: records) == "old b")
            try transaction.delete("b", in: records)
            try transaction.put("inserted", forKey: "ab", in: records, options: .noOverwrite)
            try transaction.put("again", forKey: "b", in: records, options: .noOverwrite)
            try transaction.put("replaced", forKey: "b", in: records)
            #expect(try transaction.string(forKey: "c", in: records) == "old c")
            try transaction.put("longer than the value it replaces", forKey: "c", in: records)
        }
        let stored = try environment.read { try $0.entries(in: records) }
        #expect(stored == ["a=old a", "ab=inserted", "b=replaced", "c=longer than the value it replaces"])
    }

    @Test func anAbortedChildLeavesTheParentsUpdateWhereItWas() throws {
        let (environment, records) = try makeStore(in: directory)
        try withAChildThatPutK(environment, records) { transaction, child in
            try child.delete("k", in: records)
            child.abort()
            try transaction.put("parent", forKey: "k", in: records)
        }
        #expect(try environment.read { try $0.entries(in: records) } == ["k=parent"])
    }

    @Test func theParentCannotReadOrWriteWhileAChildIsOpen() throws {
        let (environment, records) = try makeStore(in: directory)
        try withAChildThatPutK(environment, records) { transaction, child in
            // LMDB moved the parent's cursor to the child: through it the parent would see the child.
            #expect(throws: ObjDBError.self) { try transaction.string(forKey: "k", in: records) }
            #expect(throws: ObjDBError.self) { try transaction.put("parent", forKey: "k", in: records) }
            try child.commit()
            #expect(try transaction.string(forKey: "k", in: records) == "in the child")
        }
    }

    // MARK: - Steps

    /// Stores `k` = "first", then, in a write whose get left its cursor at `k`, runs `body` with a
    /// child that put "in the child" there.
    private func withAChildThatPutK(
        _ environment: Environment, _ records: DatabaseHandle, _ body: (Transaction, Transaction) throws -> Void
    ) throws {
        try environment.write { try $0.put("first", forKey: "k", in: records) }
        try environment.write { transaction in
            #expect(try transaction.string(forKey: "k", in: records) == "first")
            let child = try transaction.beginChild()
            try child.put("in the child", forKey: "k", in: records)
            try body(transaction, child)
        }
    }

    private static let keys = (0..<24).map { "key \($0)" }

    private static func step(
        _ transaction: Transaction, _ records: DatabaseHandle, _ model: inout [String: String],
        _ generator: inout SeededGenerator
    ) throws {
        let key = keys.randomElement(using: &generator)!
        switch Int.random(in: 0..<10, using: &generator) {
        case 0..<4:
            #expect(try transaction.string(forKey: key, in: records) == model[key])
        case 4..<7:
            let value = randomValue(&generator)
            try transaction.put(value, forKey: key, in: records)
            model[key] = value
        case 7:
            let value = randomValue(&generator)
            let inserted = try transaction.put(value, forKey: key, in: records, options: .noOverwrite)
            #expect(inserted == (model[key] == nil))
            if inserted { model[key] = value }
        default:
            #expect(try transaction.delete(key, in: records) == (model.removeValue(forKey: key) != nil))
        }
    }

    /// A few steps in a child transaction, which commits or aborts.
    private static func nestedSteps(
        _ transaction: Transaction, _ records: DatabaseHandle, _ model: inout [String: String],
        _ generator: inout SeededGenerator
    ) throws {
        let child = try transaction.beginChild()
        var childModel = model
        for _ in 0..<Int.random(in: 1...6, using: &generator) {
            try step(child, records, &childModel, &generator)
        }
        if Bool.random(using: &generator) {
            try child.commit()
            model = childModel
        } else {
            child.abort()
        }
    }

    /// Values from a byte to past a page, so that puts change sizes and use overflow pages.
    private static func randomValue(_ generator: inout SeededGenerator) -> String {
        let length = [1, 10, 200, 1_500, 5_000].randomElement(using: &generator)!
        return String(repeating: "v", count: length + Int.random(in: 0..<5, using: &generator))
    }
}
