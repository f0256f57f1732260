import Foundation
import Synchronization
import TestSupport
import Testing

@testable import ObjDB

@Suite("Snapshot isolation (MVCC)")
struct SnapshotIsolationTests {
    let directory = TemporaryDirectory()

    @Test func aReaderKeepsItsSnapshotWhileAWriterCommits() throws {
        let (environment, records) = try makeStore(in: directory)
        try environment.write { try $0.put("before", forKey: "k", in: records) }
        let reader = try environment.beginRead()
        try environment.write { transaction in
            try transaction.put("after", forKey: "k", in: records)
            try transaction.put("new", forKey: "n", in: records)
        }
        #expect(try reader.string(forKey: "k", in: records) == "before")
        #expect(try reader.string(forKey: "n", in: records) == nil)
        reader.abort()
        #expect(try environment.read { try $0.string(forKey: "k", in: records) } == "after")
    }

    @Test func aReaderKeepsItsSnapshotWhileAnotherThreadCommits() throws {
        let (environment, records) = try makeStore(in: directory)
        try environment.write { try $0.put("before", forKey: "k", in: records) }
        let reader = try environment.beginRead()
        let failure = runOnAnotherThread {
            _ = try environment.write { try $0.put("after", forKey: "k", in: records) }
        }
        #expect(failure == nil)
        #expect(try reader.string(forKey: "k", in: records) == "before")
        reader.abort()
    }

    @Test func aReaderOnAnotherThreadSeesOnlyCommittedWrites() throws {
        let (environment, records) = try makeStore(in: directory)
        try environment.write { try $0.put("committed", forKey: "k", in: records) }
        let writer = try environment.beginWrite()
        try writer.put("uncommitted", forKey: "k", in: records)
        let seen = Lock<String?>(nil)
        let failure = runOnAnotherThread {
            let value = try environment.read { try $0.string(forKey: "k", in: records) }
            seen.withLock { $0 = value }
        }
        try writer.commit()
        #expect(failure == nil)
        #expect(seen.withLock { $0 } == "committed")
    }

    @Test func aReadTransactionMayMoveBetweenThreads() throws {
        let (environment, records) = try makeStore(in: directory)
        try environment.write { try $0.put("v", forKey: "k", in: records) }
        // MDB_NOTLS: a read transaction is not tied to the thread that began it.
        let failure = runOnAnotherThread {
            let reader = try environment.beginRead()
            _ = try reader.string(forKey: "k", in: records)
            let moved = runOnAnotherThread {
                let value = try environment.read { try $0.string(forKey: "k", in: records) }
                if value != "v" { throw TestFailure("read \(value ?? "nil")") }
            }
            if let moved { throw moved }
            reader.abort()
        }
        #expect(failure == nil)
    }

    @Test func manyReadersOnManyThreadsSeeConsistentSnapshots() throws {
        let (environment, records) = try makeStore(in: directory)
        try environment.write { transaction in
            try transaction.put("0", forKey: "a", in: records)
            try transaction.put("0", forKey: "b", in: records)
        }
        let mismatches = Lock(0)
        let group = DispatchGroup()
        for _ in 0..<4 {
            DispatchQueue.global().async(group: group) {
                for _ in 0..<200 {
                    let pair = try? environment.read {
                        (try $0.string(forKey: "a", in: records), try $0.string(forKey: "b", in: records))
                    }
                    if pair?.0 != pair?.1 { mismatches.withLock { $0 += 1 } }
                }
            }
        }
        for step in 1...200 {
            try environment.write { transaction in
                try transaction.put("\(step)", forKey: "a", in: records)
                try transaction.put("\(step)", forKey: "b", in: records)
            }
        }
        group.wait()
        #expect(mismatches.withLock { $0 } == 0)
    }
}

/// Runs `body` on a new thread and waits for it; returns what it threw.
func runOnAnotherThread(_ body: @escaping @Sendable () throws -> Void) -> (any Error)? {
    let failure = Lock<(any Error)?>(nil)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        do { try body() } catch { failure.withLock { $0 = error } }
        done.signal()
    }
    thread.start()
    done.wait()
    return failure.withLock { $0 }
}
