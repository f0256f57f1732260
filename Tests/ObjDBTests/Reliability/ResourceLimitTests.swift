import Dispatch
import Foundation
import ObjDBInspection
import TestSupport
import Testing

@testable import ObjDB

/// Each limit ends in a typed error and leaves the store readable and consistent.
@Suite("Resource limits")
struct ResourceLimitTests {
    let directory = TemporaryDirectory()

    func configuration(_ change: (inout Configuration) -> Void = { _ in }) -> Configuration {
        var configuration = Configuration(
            path: directory.store(), types: [Account.self, Transfer.self, TransferLedger.self])
        change(&configuration)
        return configuration
    }

    /// Writes `count` transfers of `padding` bytes each in one transaction.
    static func writeTransfers(_ database: Database, from start: Int, count: Int, padding: Int) throws {
        try database.write { transaction in
            for number in start..<(start + count) {
                try transaction.create(
                    Transfer.self,
                    value: ["id": "\(number)-" + String(repeating: "p", count: padding), "sequence": number])
            }
        }
    }

    @Test func theMapGrowsUnderConcurrentWriters() async throws {
        let database = try Database(configuration: configuration { $0.initialMapSize = 256 << 10 })
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                group.addTask {
                    for block in 0..<10 {
                        try await database.write { transaction in
                            for number in 0..<20 {
                                try transaction.create(
                                    Transfer.self,
                                    value: ["id": "t\(task)-\(block)-\(number)-" + String(repeating: "x", count: 300)])
                            }
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(database.environment.mapSize > 256 << 10)
        #expect(try database.view().objects(Transfer.self).count == 800)
        #expect(try StoreCheck(database: database).problems() == [])
    }

    @Test func aFullMapWithAnObservedViewIsMapFullAndTheStoreStaysReadable() throws {
        let database = try Database(
            configuration: configuration {
                $0.initialMapSize = 1 << 20
                $0.maxMapSize = 1 << 30
            })
        try Self.writeTransfers(database, from: 0, count: 10, padding: 10)
        let queue = DispatchQueue(label: "observer")
        let token = try queue.sync {
            try database.view(queue: queue).objects(Transfer.self).observe { _ in }
        }
        // While the observed view holds its snapshot the map cannot grow: a write too large fails.
        #expect {
            try Self.writeTransfers(database, from: 100, count: 3_000, padding: 400)
        } throws: { error in
            guard let error = error as? ObjDBError, error.code == .mapFull else { return false }
            return (error.figures[.openReaders] ?? 0) > 0
        }
        #expect(try database.view().objects(Transfer.self).count == 10)
        #expect(try StoreCheck(database: database).problems() == [])
        token.invalidate()
        queue.sync {}
        // Once nothing holds a snapshot, the map grows and the same write succeeds.
        var written = false
        for _ in 0..<50 where !written {
            do {
                try Self.writeTransfers(database, from: 100, count: 3_000, padding: 400)
                written = true
            } catch let error as ObjDBError where error.code == .mapFull {
                Thread.sleep(forTimeInterval: 0.02)
            }
        }
        #expect(written)
        #expect(try database.view().objects(Transfer.self).count == 3_010)
        #expect(try StoreCheck(database: database).problems() == [])
    }

    @Test func aFullReaderTableIsATypedErrorAndRecoversWhenAReaderEnds() throws {
        let database = try Database(configuration: configuration { $0.maxReaders = 4 })
        try Self.writeTransfers(database, from: 0, count: 5, padding: 1)
        var views = try (0..<4).map { _ in try database.view() }
        #expect {
            _ = try database.view()
        } throws: { error in
            (error as? ObjDBError)?.resultCode == .readersFull
        }
        views.removeLast()
        #expect(try database.view().objects(Transfer.self).count == 5)
        try Self.writeTransfers(database, from: 5, count: 5, padding: 1)
        #expect(views.allSatisfy { $0.objects(Transfer.self).count == 5 })
        views.removeAll()
        #expect(try StoreCheck(database: database).problems() == [])
    }

    @Test func readersOfKilledProcessesAreClearedWhenTheTableIsFull() throws {
        let database = try Database(configuration: configuration { $0.maxReaders = 3 })
        try Self.writeTransfers(database, from: 0, count: 5, padding: 1)
        var children: [Process] = []
        for _ in 0..<3 {
            let child = Process()
            child.executableURL = builtProductsDirectory().appendingPathComponent("objdb-test-child")
            child.arguments = ["hold-reader", directory.store()]
            let output = Pipe()
            child.standardOutput = output
            try child.run()
            _ = output.fileHandleForReading.availableData  // "ready": its reader slot is taken
            children.append(child)
        }
        for child in children {
            kill(child.processIdentifier, SIGKILL)
            child.waitUntilExit()
        }
        // The table is full of dead readers: the next read clears them and begins.
        var views = try (0..<3).map { _ in try database.view() }
        #expect(views.allSatisfy { $0.objects(Transfer.self).count == 5 })
        views.removeAll()
        #expect(try StoreCheck(database: database).problems() == [])
    }

    @Test func aDiskThatFillsUpIsATypedErrorAndLosesNoCommit() throws {
        let path = directory.store()
        let run = try TestSupport.run("objdb-test-child", ["fill-disk", path, "\(2 << 20)"])
        let lines = run.output.split(separator: "\n")
        let committed = lines.last { $0.hasPrefix("committed ") }.flatMap { Int($0.split(separator: " ")[1]) } ?? 0
        #expect(run.status == 0, "\(run.error)")
        #expect(
            lines.last?.hasPrefix("error lmdb") == true || lines.last?.hasPrefix("error mapFull") == true,
            "\(lines.last ?? "")")
        #expect(committed > 5)
        // Reopened in a child (the crash model's classes live there), the store holds every commit and checks clean.
        let verify = try TestSupport.run("objdb-test-child", ["check-files", path])
        #expect(verify.output.contains("ok"), "\(verify.output)")
        let ledger = try TestSupport.run("objdb-test-child", ["crash-ledger", path])
        #expect(ledger.output.trimmingCharacters(in: .whitespacesAndNewlines) == "\(committed)")
    }

    @Test func theLiveVersionCapIsATypedErrorAndTheStoreStaysUsable() throws {
        let database = try Database(configuration: configuration { $0.maximumLiveVersions = 2 })
        try Self.writeTransfers(database, from: 0, count: 1, padding: 1)
        let first = try database.view()
        try Self.writeTransfers(database, from: 1, count: 1, padding: 1)
        let second = try database.view()
        try Self.writeTransfers(database, from: 2, count: 1, padding: 1)
        #expect {
            _ = try database.view()
        } throws: { error in
            (error as? ObjDBError)?.code == .tooManyLiveVersions
        }
        #expect(first.objects(Transfer.self).count == 1)
        #expect(second.objects(Transfer.self).count == 2)
        try Self.writeTransfers(database, from: 3, count: 1, padding: 1)
        _ = consume second
        #expect(try database.view().objects(Transfer.self).count == 4)
        #expect(try StoreCheck(database: database).problems() == [])
    }
}
