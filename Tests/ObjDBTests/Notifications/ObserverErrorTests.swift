import Dispatch
import Foundation
import TestSupport
import Testing

@testable import ObjDB

@Suite("Observers hear their errors: once, and last")
struct ObserverErrorTests {
    let directory = TemporaryDirectory()

    /// Changes counter `id` and, in the same transaction, overwrites its record with bytes no
    /// reader accepts: the change log names it, and reading it throws `corruptRecord`.
    private func damage(_ database: Database, counter id: Int) throws {
        try database.write { transaction in
            transaction.object(ofType: Counter.self, forPrimaryKey: id)!.value = -1
            let raw = try #require(transaction.scope.snapshot.transaction)
            let table = try #require(try database.binding(for: Counter.self).table)
            let key = ObjectKeyCodec.encode(.int(Int64(id)))
            let garbage: [UInt8] = [0xFF]
            try key.withUnsafeBytes { key in try garbage.withUnsafeBytes { _ = try raw.put($0, forKey: key, in: table) }
            }
        }
    }

    private func seeded(_ name: String = "store.objdb", maxReaders: UInt32? = nil) throws -> Database {
        var configuration = Configuration(path: directory.store(name), types: [Counter.self, Unrelated.self])
        configuration.crossProcessNotificationInterval = .milliseconds(20)
        if let maxReaders { configuration.maxReaders = maxReaders }
        let database = try Database(configuration: configuration)
        try database.write { transaction in
            for id in 1...2 { try transaction.create(Counter.self, value: ["id": id, "value": id]) }
        }
        return database
    }

    /// Observes counter `id` on a queue of its own; the inbox gets "change", "deleted" or the error's code.
    private func observeCounter(_ database: Database, _ id: Int) throws -> (NotificationToken, Inbox<String>) {
        let queue = DispatchQueue(label: "observer \(id)")
        let inbox = Inbox<String>()
        let token = try onQueue(queue) {
            try database.view(queue: queue).object(ofType: Counter.self, forPrimaryKey: id)!.observe { change in
                switch change {
                case .change: inbox.append("change")
                case .deleted: inbox.append("deleted")
                case .error(let error): inbox.append("error \((error as? ObjDBError)?.code.rawValue ?? "\(error)")")
                }
            }
        }
        database.notifier.runRound()
        return (token, inbox)
    }

    @Test func anObjectObserverWhoseChangeCannotBeReadGetsTheErrorOnceAndStops() throws {
        let database = try seeded()
        let (token, inbox) = try observeCounter(database, 1)
        let (otherToken, other) = try observeCounter(database, 2)
        try damage(database, counter: 1)
        #expect(inbox.wait(for: 1) == ["error corruptRecord"])
        // The others go on; the failed one hears nothing more.
        try database.write { $0.object(ofType: Counter.self, forPrimaryKey: 2)!.value = 20 }
        try database.write { try $0.delete($0.object(ofType: Counter.self, forPrimaryKey: 2)!) }
        #expect(other.wait(for: 2) == ["change", "deleted"])
        database.notifier.runRound()
        #expect(inbox.values == ["error corruptRecord"])
        withExtendedLifetime((token, otherToken)) {}
    }

    @Test func aResultsObserverWhoseDiffFailsGetsTheErrorOnceAndStops() throws {
        let database = try seeded()
        let (token, inbox) = try observeCounters(in: database)
        #expect(inbox.wait(for: 1).first?.ids == [1, 2])
        try damage(database, counter: 2)
        let heard = inbox.wait(for: 2)
        #expect(heard.count == 2)
        #expect(heard.last?.error == "corruptRecord")
        try database.write { try $0.create(Counter.self, value: ["id": 3]) }
        database.notifier.runRound()
        #expect(inbox.values.count == 2)
        withExtendedLifetime(token) {}
    }

    @Test func anAsyncSequenceEndsWithTheError() async throws {
        let database = try seeded()
        let stream = try database.view().objects(Counter.self).changes
        var iterator = stream.makeAsyncIterator()
        guard case .initial? = await iterator.next() else { throw TestFailure("no initial results") }
        try damage(database, counter: 1)
        guard case .error(ObjDBError.corruptRecord)? = await iterator.next() else { throw TestFailure("no error") }
        #expect(await iterator.next() == nil)
    }

    @Test func aRoundThatFailsIsRetriedWithoutAnotherCommit() throws {
        let database = try seeded(maxReaders: 3)
        let (token, inbox) = try observeCounters(in: database)
        inbox.wait(for: 1)
        // Every reader slot taken: the notifier cannot begin its next round's snapshot.
        var held = try fillReaderTable(of: database)
        try database.write { $0.object(ofType: Counter.self, forPrimaryKey: 1)!.value = 10 }
        #expect(database.notifier.runRound() == false)
        held.removeLast().abort()
        #expect(inbox.wait(for: 2).last == Delivery(isInitial: false, ids: [1, 2], modifications: [0]))
        held.forEach { $0.abort() }
        withExtendedLifetime(token) {}
    }

    @Test func observersAreToldWhenRoundsKeepFailing() throws {
        let database = try seeded(maxReaders: 4)
        let (token, inbox) = try observeCounters(in: database)
        let (objectToken, objectInbox) = try observeCounter(database, 2)
        inbox.wait(for: 1)
        let held = try fillReaderTable(of: database)
        try database.write { $0.object(ofType: Counter.self, forPrimaryKey: 1)!.value = 10 }
        // Failing for ten cross-process intervals (200 ms here), the rounds give up.
        #expect(inbox.wait(for: 2).last?.error == "lmdb \(LMDBResultCode.readersFull)")
        #expect(objectInbox.wait(for: 1) == ["error lmdb"])
        held.forEach { $0.abort() }
        try database.write { $0.object(ofType: Counter.self, forPrimaryKey: 2)!.value = 20 }
        #expect(database.notifier.runRound())
        #expect(inbox.values.count == 2)
        #expect(objectInbox.values.count == 1)
        withExtendedLifetime((token, objectToken)) {}
    }

    /// Begins read transactions until the reader table is full; returns them.
    private func fillReaderTable(of database: Database) throws -> [Transaction] {
        var held: [Transaction] = []
        while true {
            do {
                held.append(try database.environment.beginRead())
            } catch LMDBResultCode.readersFull {
                return held
            }
        }
    }
}
