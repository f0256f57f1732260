import Dispatch
import Foundation
import TestSupport
import Testing

@testable import ObjDB

@Suite("Threads: freezing, references, async writes, misuse")
struct ThreadingTests {
    let directory = TemporaryDirectory()

    @Test func aFrozenViewIsReadableFromOtherTasksAndKeepsItsVersion() async throws {
        let database = try counterStore(directory)
        try syncWrite(database) { try $0.create(Counter.self, value: ["id": 1, "value": 10]) }
        let frozen = try database.view().freeze()
        try syncWrite(database) { $0.object(ofType: Counter.self, forPrimaryKey: 1)!.value = 20 }
        let values = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<4 {
                group.addTask { try frozen.objects(Counter.self).reduce(0) { $0 + $1.value } }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(values == [10, 10, 10, 10])
        #expect(try database.view().object(ofType: Counter.self, forPrimaryKey: 1)?.value == 20)
    }

    @Test func aStaleViewFreezesAtItsOwnVersion() throws {
        let database = try counterStore(directory)
        try database.write { try $0.create(Counter.self, value: ["id": 1, "value": 1]) }
        let view = try database.view()
        try database.write { $0.object(ofType: Counter.self, forPrimaryKey: 1)!.value = 2 }
        let frozen = try view.freeze()
        #expect(frozen.version == view.version)
        #expect(try frozen.object(ofType: Counter.self, forPrimaryKey: 1)?.value == 1)
    }

    @Test func frozenObjectsAndResultsCrossTasks() async throws {
        let database = try counterStore(directory)
        try syncWrite(database) { try $0.create(Counter.self, value: ["id": 3, "label": "three"]) }
        let view = try database.view()
        let object = try view.object(ofType: Counter.self, forPrimaryKey: 3)!.freeze()
        let results = try view.objects(Counter.self).freeze()
        let label = await Task.detached { object.label }.value
        let count = await Task.detached { results.count }.value
        #expect(label == "three")
        #expect(count == 1)
    }

    @Test func writingThroughAFrozenViewStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            let database = try counterStore(TemporaryDirectory())
            let view = ReadView(snapshot: try database.view().freeze().snapshot)
            #expect(view.isFrozen)
            try view.write { _ in }
        }
    }

    @Test func observingAFrozenViewStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            let database = try counterStore(TemporaryDirectory())
            let view = ReadView(snapshot: try database.view().freeze().snapshot)
            _ = try view.objects(Counter.self).observe { _ in }
        }
    }

    @Test func aThreadSafeReferenceResolvesOnceInAnotherTask() async throws {
        let database = try counterStore(directory)
        try syncWrite(database) { try $0.create(Counter.self, value: ["id": 5, "value": 50]) }
        let view = try database.view()
        let reference = try ThreadSafeReference(to: view.object(ofType: Counter.self, forPrimaryKey: 5)!)
        let results = try ThreadSafeReference(to: view.objects(Counter.self).filter("value > 10"))
        let (value, count) = try await Task.detached {
            let other = try database.view()
            let value = try other.resolve(reference)?.value
            // Both forms are optional, as in Realm: the same optional chaining reads either.
            let count = try other.resolve(results)?.count
            #expect(throws: ObjDBError.self) { try other.resolve(reference) }
            return (value, count)
        }.value
        #expect(value == 50)
        #expect(count == 1)
    }

    @Test func aReferenceFromAnotherDatabaseIsAnError() throws {
        let first = try counterStore(directory, name: "first.objdb")
        let second = try counterStore(directory, name: "second.objdb")
        try first.write { try $0.create(Counter.self, value: ["id": 1]) }
        let reference = try ThreadSafeReference(to: first.view().object(ofType: Counter.self, forPrimaryKey: 1)!)
        #expect(throws: ObjDBError.self) { try second.view().resolve(reference) }
    }

    @Test func aViewUsedOffItsThreadStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            let database = try counterStore(TemporaryDirectory())
            // A view made on a plain thread belongs to it; smuggled elsewhere, it refuses to be used.
            let held = Held<ReadView>()
            let made = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                held.value = try? database.view()
                made.signal()
            }
            made.wait()
            try held.value?.refresh()
        }
    }

    @Test func makingAQueueViewOffTheQueueStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            let database = try counterStore(TemporaryDirectory())
            _ = try database.view(queue: DispatchQueue(label: "elsewhere"))
        }
    }

    @Test func observingAViewWithoutAQueueStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            let database = try counterStore(TemporaryDirectory())
            let view = try database.view()
            _ = try view.objects(Counter.self).observe { _ in }
        }
    }

    @Test func asyncWritesFromManyTasksCommitTogetherAndFailAlone() async throws {
        let database = try counterStore(directory)
        let before = try database.view().version
        // Hold the write lock so every async write queues, then let them go as one batch.
        let release = DispatchSemaphore(value: 0)
        let holding = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = try? database.write { transaction in
                try transaction.create(Counter.self, value: ["id": 0])
                holding.signal()
                release.wait()
            }
        }
        holding.wait()
        struct Refused: Error {}
        let outcomes = await withTaskGroup(of: (Int, Bool).self) { group in
            for id in 1...8 {
                group.addTask {
                    do {
                        try await database.write { transaction in
                            _ = try transaction.create(Counter.self, value: ["id": id])
                            if id == 4 { throw Refused() }
                        }
                        return (id, true)
                    } catch {
                        return (id, false)
                    }
                }
            }
            try? await Task.sleep(for: .milliseconds(200))
            release.signal()
            return await group.reduce(into: [Int: Bool]()) { $0[$1.0] = $1.1 }
        }
        #expect(outcomes[4] == false)
        #expect(outcomes.filter(\.value).count == 7)
        let view = try database.view()
        #expect(view.objects(Counter.self).map(\.id) == [0, 1, 2, 3, 5, 6, 7, 8])
        // The held write, then the queued ones: fewer commits than writes.
        #expect(view.version - before < 8)
    }

    @Test func aWriteThatFailsInABatchLeavesNothingInTheChangeLog() async throws {
        let database = try counterStore(directory)
        #expect(try database.environment.startWatchingChanges())
        let before = try database.view().version
        let release = DispatchSemaphore(value: 0)
        let holding = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = try? database.write { _ in
                holding.signal()
                release.wait()
            }
        }
        holding.wait()
        struct Refused: Error {}
        await withTaskGroup(of: Void.self) { group in
            for id in 1...6 {
                group.addTask {
                    _ = try? await database.write { transaction in
                        _ = try transaction.create(Counter.self, value: ["id": id])
                        if id.isMultiple(of: 2) { throw Refused() }
                    }
                }
            }
            try? await Task.sleep(for: .milliseconds(200))
            release.signal()
        }
        let logged = try database.environment.read { transaction in
            try ChangeLog.changes(after: before, in: transaction, log: database.changeLog!, meta: database.meta!)
        }
        let keys = Set(logged?.types["Counter"]?.objects.keys.map { $0 } ?? [])
        #expect(keys == Set([1, 3, 5].map { ObjectKeyCodec.encode(.int(Int64($0))) }))
    }

    @Test func openingAsyncRunsOffTheCallersThread() async throws {
        let database = try await Database.open(Configuration(path: directory.store(), types: [Counter.self]))
        let id = try await database.write { try $0.create(Counter.self, value: ["id": 9]).id }
        #expect(id == 9)
    }
}

/// A synchronous write from async code (where `write` means the async one).
func syncWrite(_ database: Database, _ body: (WriteTransaction) throws -> Void) throws {
    try database.write { transaction in try body(transaction) } as Void
}

@Suite("Object notifications and pinned versions")
struct ObjectNotificationTests {
    let directory = TemporaryDirectory()

    @Test func anObjectsChangesAreAnAsyncSequenceEndingWithItsDeletion() async throws {
        let database = try counterStore(directory)
        try syncWrite(database) { try $0.create(Counter.self, value: ["id": 1, "value": 1]) }
        let stream = try database.view().object(ofType: Counter.self, forPrimaryKey: 1)!.changes
        var iterator = stream.makeAsyncIterator()
        // The sequence starts with the notifier's next round: wait for it before writing.
        #expect(database.notifier.runRound())
        try await database.write { $0.object(ofType: Counter.self, forPrimaryKey: 1)!.value = 2 }
        guard case .change(let frozen, let properties)? = await iterator.next() else { throw TestFailure("no change") }
        #expect(frozen.value == 2)
        #expect(properties.map(\.name) == ["value"])
        try await database.write { try $0.delete($0.object(ofType: Counter.self, forPrimaryKey: 1)!) }
        guard case .deleted? = await iterator.next() else { throw TestFailure("no deletion") }
        #expect(await iterator.next() == nil)
    }

    @Test func anObjectObserverHearsChangedPropertiesThenDeletion() throws {
        let database = try counterStore(directory)
        try database.write { try $0.create(Counter.self, value: ["id": 1, "value": 1]) }
        let queue = DispatchQueue(label: "observer")
        let inbox = Inbox<[String]>()
        let token = try onQueue(queue) {
            let counter = try database.view(queue: queue).object(ofType: Counter.self, forPrimaryKey: 1)!
            return try counter.observe { change in
                switch change {
                case .change(_, let properties):
                    inbox.append(
                        properties.map {
                            "\($0.name) \($0.oldValue.map { "\($0)" } ?? "?")→\($0.newValue.map { "\($0)" } ?? "?")"
                        })
                case .deleted: inbox.append(["deleted"])
                case .error(let error): inbox.append(["error \(error)"])
                }
            }
        }
        database.notifier.runRound()  // the observer has had its first round
        try database.write { $0.object(ofType: Counter.self, forPrimaryKey: 1)!.value = 2 }
        #expect(inbox.wait(for: 1).first?.count == 1)
        #expect(inbox.values.first?.first?.hasPrefix("value") == true)
        try database.write { try $0.delete($0.object(ofType: Counter.self, forPrimaryKey: 1)!) }
        #expect(inbox.wait(for: 2).last == ["deleted"])
        withExtendedLifetime(token) {}
    }

    @Test func aKeyPathFilteredObjectObserverIgnoresOtherProperties() throws {
        let database = try counterStore(directory)
        try database.write { try $0.create(Counter.self, value: ["id": 1]) }
        let queue = DispatchQueue(label: "observer")
        let inbox = Inbox<[String]>()
        let token = try onQueue(queue) {
            try database.view(queue: queue).object(ofType: Counter.self, forPrimaryKey: 1)!.observe(keyPaths: ["label"])
            {
                if case .change(_, let properties) = $0 { inbox.append(properties.map(\.name)) }
            }
        }
        database.notifier.runRound()  // the observer has had its first round
        try database.write { $0.object(ofType: Counter.self, forPrimaryKey: 1)!.value = 5 }
        try database.write { $0.object(ofType: Counter.self, forPrimaryKey: 1)!.label = "x" }
        #expect(inbox.wait(for: 1) == [["label"]])
        withExtendedLifetime(token) {}
    }

    @Test func pinnedVersionsShowTheOldestViewAndHowFarBehindItIs() throws {
        let database = try counterStore(directory)
        let old = try database.view()
        for id in 0..<5 { try database.write { try $0.create(Counter.self, value: ["id": id]) } }
        let pinned = try database.pinnedVersions()
        #expect(pinned.oldest == old.version)
        #expect(pinned.lag == 5)
        withExtendedLifetime(old) {}
    }

    @Test func aCapOnLiveVersionsFailsANewReadClearly() throws {
        var configuration = Configuration(path: directory.store(), types: [Counter.self])
        configuration.maximumLiveVersions = 2
        let database = try Database(configuration: configuration)
        let first = try database.view()
        try database.write { try $0.create(Counter.self, value: ["id": 1]) }
        let second = try database.view()
        try database.write { try $0.create(Counter.self, value: ["id": 2]) }
        #expect(
            throws: ObjDBError.tooManyLiveVersions(
                path: configuration.path, live: 2, maximum: 2, oldest: first.version)
        ) { try database.view() }
        withExtendedLifetime((first, second)) {}
    }
}
