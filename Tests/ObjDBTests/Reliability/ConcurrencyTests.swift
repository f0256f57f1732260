import Dispatch
import Foundation
import ObjDBInspection
import Synchronization
import TestSupport
import Testing

@testable import ObjDB

/// The concurrency suite's model; the child process declares the same one (TransferWorkload.swift).
final class Account: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var balance = 0
}

final class Transfer: Object {
    @Persisted(primaryKey: true) var id = ""
    @Persisted(indexed: true) var sequence = 0
    @Persisted var amount = 0
}

final class TransferLedger: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var transfers = 0
}

/// Counts shared by the readers and writers of one test.
final class Tally: Sendable {
    let violations = Atomic<Int>(0)
    let reads = Atomic<Int>(0)
    let done = Atomic<Bool>(false)
}

/// Threads, tasks and processes reading and writing one store at once. Every transaction moves an
/// amount between two accounts, appends a Transfer and counts it, so a reader that saw part of a
/// transaction would see a total other than the initial one, or a count that differs from the ledger's.
@Suite("Concurrency")
struct ConcurrencyTests {
    let directory = TemporaryDirectory()
    static let accounts = 10
    static let total = 10 * 1_000

    func makeBank() throws -> Database {
        let database = try Database(path: directory.store(), types: [Account.self, Transfer.self, TransferLedger.self])
        try database.write { transaction in
            for id in 0..<Self.accounts { try transaction.create(Account.self, value: ["id": id, "balance": 1_000]) }
            try transaction.create(TransferLedger.self, value: ["id": 0, "transfers": 0])
        }
        return database
    }

    /// One transfer, in the transaction `transaction`.
    static func transfer(in transaction: WriteTransaction, name: String, random: inout SeededGenerator) throws {
        let from = transaction.object(
            ofType: Account.self, forPrimaryKey: Int.random(in: 0..<accounts, using: &random))!
        let to = transaction.object(ofType: Account.self, forPrimaryKey: Int.random(in: 0..<accounts, using: &random))!
        let amount = Int.random(in: 1...100, using: &random)
        from.balance -= amount
        to.balance += amount
        let ledger = transaction.object(ofType: TransferLedger.self, forPrimaryKey: 0)!
        ledger.transfers += 1
        try transaction.create(Transfer.self, value: ["id": name, "sequence": ledger.transfers, "amount": amount])
    }

    /// `count` transfers with the blocking `write { }`, one transaction each.
    static func writeSynchronously(_ count: Int, to database: Database) throws {
        var random = SeededGenerator(seed: 9)
        for number in 0..<count {
            try database.write { try Self.transfer(in: $0, name: "sync-\(number)", random: &random) }
        }
    }

    /// What a consistent snapshot shows: the initial total, and as many transfers as the ledger counts.
    static func invariantHolds(
        balances: some Sequence<Int>, transfers: Int, ledger: Int
    ) -> Bool {
        balances.reduce(0, +) == total && transfers == ledger
    }

    @Test func readersOfLiveFrozenAndReferencedSnapshotsNeverSeeAPartialTransaction() async throws {
        let database = try makeBank()
        let writes = 150 * stressScale
        let tally = Tally()
        // Two writers: a thread writing synchronously, and tasks writing with group commit.
        let writer = Thread {
            var random = SeededGenerator(seed: 41)
            for number in 0..<writes {
                try! database.write { try Self.transfer(in: $0, name: "sync-\(number)", random: &random) }
            }
        }
        writer.start()
        async let asyncWrites: Void = withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                group.addTask {
                    var random = SeededGenerator(seed: UInt64(task))
                    for number in 0..<(writes / 4) {
                        let seed = random.next()
                        try await database.write { transaction in
                            var random = SeededGenerator(seed: seed)
                            try Self.transfer(in: transaction, name: "task\(task)-\(number)", random: &random)
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        // Readers: live views on threads, frozen snapshots and thread-safe references crossing into tasks.
        let readers = (0..<3).map { _ in
            Thread {
                while !tally.done.load(ordering: .acquiring) {
                    guard let view = try? database.view() else { continue }
                    let balances = view.objects(Account.self).map(\.balance)
                    let ledger = view.object(ofType: TransferLedger.self, forPrimaryKey: 0)?.transfers ?? -1
                    if !Self.invariantHolds(
                        balances: balances, transfers: view.objects(Transfer.self).count, ledger: ledger)
                    {
                        tally.violations.add(1, ordering: .relaxed)
                    }
                    tally.reads.add(1, ordering: .relaxed)
                }
            }
        }
        readers.forEach { $0.start() }
        for _ in 0..<(20 * stressScale) {
            let view = try database.view()
            let frozen = try view.freeze()
            let reference = try ThreadSafeReference(to: view.objects(Account.self))
            let ledgerReference = try ThreadSafeReference(
                to: view.object(ofType: TransferLedger.self, forPrimaryKey: 0)!)
            try await Task.detached {
                let balances = try frozen.objects(Account.self).map { $0.balance }
                let ledger = try frozen.object(ofType: TransferLedger.self, forPrimaryKey: 0)?.transfers ?? -1
                if try !Self.invariantHolds(
                    balances: balances, transfers: frozen.objects(Transfer.self).count, ledger: ledger)
                {
                    tally.violations.add(1, ordering: .relaxed)
                }
                // A resolved reference shows at least the version it was made at, consistently.
                let there = try database.view()
                let accounts = try there.resolve(reference) ?? there.objects(Account.self)
                let ledgerThere = try there.resolve(ledgerReference)?.transfers ?? -1
                if !Self.invariantHolds(
                    balances: accounts.map(\.balance), transfers: there.objects(Transfer.self).count,
                    ledger: ledgerThere)
                {
                    tally.violations.add(1, ordering: .relaxed)
                }
                tally.reads.add(2, ordering: .relaxed)
            }.value
        }
        try await asyncWrites
        while writer.isExecuting || !writer.isFinished { try await Task.sleep(for: .milliseconds(5)) }
        tally.done.store(true, ordering: .releasing)
        while readers.contains(where: { !$0.isFinished }) { try await Task.sleep(for: .milliseconds(5)) }
        let view = try database.view()
        #expect(view.object(ofType: TransferLedger.self, forPrimaryKey: 0)?.transfers == writes + writes / 4 * 4)
        #expect(tally.violations.load(ordering: .relaxed) == 0)
        #expect(tally.reads.load(ordering: .relaxed) > 40)
        #expect(try StoreCheck(database: database).problems() == [])
    }

    @Test func severalProcessesWritingOneFileLoseNothingAndTearNothing() throws {
        let database = try makeBank()
        let perWriter = 60 * stressScale
        let processes = try (0..<3).map { writer in
            let process = Process()
            process.executableURL = builtProductsDirectory().appendingPathComponent("objdb-test-child")
            process.arguments = ["transfer-writer", directory.store(), "child\(writer)", "\(perWriter)"]
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            return process
        }
        var random = SeededGenerator(seed: 7)
        var number = 0
        var violations = 0
        while processes.contains(where: \.isRunning) {
            try database.write { try Self.transfer(in: $0, name: "parent-\(number)", random: &random) }
            number += 1
            let view = try database.view()
            let ledger = view.object(ofType: TransferLedger.self, forPrimaryKey: 0)!.transfers
            if !Self.invariantHolds(
                balances: view.objects(Account.self).map(\.balance), transfers: view.objects(Transfer.self).count,
                ledger: ledger)
            {
                violations += 1
            }
        }
        for process in processes { process.waitUntilExit() }
        #expect(processes.allSatisfy { $0.terminationStatus == 0 })
        let view = try database.view()
        #expect(view.object(ofType: TransferLedger.self, forPrimaryKey: 0)?.transfers == 3 * perWriter + number)
        #expect(view.objects(Transfer.self).count == 3 * perWriter + number)
        #expect(violations == 0)
        #expect(try StoreCheck(database: database).problems() == [])
    }

    @Test func everyCommitIsDeliveredOnceAndInOrderFromThreadsTasksAndProcesses() async throws {
        let database = try makeBank()
        let queue = DispatchQueue(label: "observer")
        let delivered = Lock<[[Int]]>([])
        let token = try queue.sync {
            try database.view(queue: queue).objects(Transfer.self).sorted(byKeyPath: "sequence").observe { change in
                guard case .update(let results, let deletions, let insertions, _) = change else { return }
                let sequences = insertions.map { results[$0].sequence }
                delivered.withLock { $0.append(sequences + deletions.map { -1 - $0 }) }
            }
        }
        let child = Process()
        child.executableURL = builtProductsDirectory().appendingPathComponent("objdb-test-child")
        let childWrites = 40 * stressScale
        child.arguments = ["transfer-writer", directory.store(), "child", "\(childWrites)"]
        child.standardOutput = FileHandle.nullDevice
        try child.run()
        let taskWrites = 40 * stressScale
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                group.addTask {
                    for number in 0..<(taskWrites / 4) {
                        try await database.write { transaction in
                            var random = SeededGenerator(seed: UInt64(task * 1_000 + number))
                            try Self.transfer(in: transaction, name: "task\(task)-\(number)", random: &random)
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        try Self.writeSynchronously(20 * stressScale, to: database)
        child.waitUntilExit()
        let expected = childWrites + taskWrites + 20 * stressScale
        let deadline = ContinuousClock.now + .seconds(20)
        while delivered.withLock({ $0.joined().count }) < expected, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        token.invalidate()
        let rounds = delivered.withLock { $0 }
        let all = rounds.joined()
        // Every transfer's sequence number once, no deletion, and each round after the one before.
        #expect(all.sorted() == Array(1...expected))
        #expect(Array(all) == all.sorted())
        #expect(rounds.allSatisfy { !$0.isEmpty })
    }
}
