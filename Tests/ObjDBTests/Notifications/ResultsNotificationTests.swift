import Dispatch
import Foundation
import TestSupport
import Testing

@testable import ObjDB

@Suite("Live results: notifications")
struct ResultsNotificationTests {
    let directory = TemporaryDirectory()

    private func seed(_ database: Database, ids: [Int]) throws {
        try database.write { transaction in
            for id in ids { try transaction.create(Counter.self, value: ["id": id, "value": id * 10]) }
        }
    }

    @Test func observingDeliversTheInitialResultsThenEachChangeAsIndices() throws {
        let database = try counterStore(directory)
        try seed(database, ids: [1, 2, 3, 4])
        let (token, inbox) = try observeCounters(in: database) { try $0.sorted(byKeyPath: "value") }
        #expect(inbox.wait(for: 1).first == Delivery(isInitial: true, ids: [1, 2, 3, 4]))

        try database.write { transaction in
            transaction.object(ofType: Counter.self, forPrimaryKey: 2)!.value = 35  // moves after 3
            transaction.object(ofType: Counter.self, forPrimaryKey: 4)!.label = "changed"  // stays in place
            try transaction.delete(transaction.object(ofType: Counter.self, forPrimaryKey: 1)!)
            try transaction.create(Counter.self, value: ["id": 5, "value": 0])
        }
        let update = inbox.wait(for: 2).last
        #expect(
            update
                == Delivery(
                    isInitial: false, ids: [5, 3, 2, 4], deletions: [0, 1], insertions: [0, 2], modifications: [3]))
        token.invalidate()
    }

    @Test func aCommitToAnotherTypeNotifiesNobody() throws {
        let database = try counterStore(directory)
        try seed(database, ids: [1])
        let (token, inbox) = try observeCounters(in: database)
        inbox.wait(for: 1)
        try database.write { try $0.create(Unrelated.self, value: ["id": 1]) }
        // A change the observer must hear, after the unrelated one: it is the very next delivery.
        try database.write { $0.object(ofType: Counter.self, forPrimaryKey: 1)!.value = 99 }
        let deliveries = inbox.wait(for: 2)
        #expect(deliveries.count == 2)
        #expect(deliveries.last?.modifications == [0])
        withExtendedLifetime(token) {}
    }

    @Test func aChangeToAnObjectOutsideTheResultsNotifiesNobody() throws {
        let database = try counterStore(directory)
        try seed(database, ids: [1, 2])
        let (token, inbox) = try observeCounters(in: database) { try $0.filter("value > 15") }
        #expect(inbox.wait(for: 1).first?.ids == [2])
        try database.write { $0.object(ofType: Counter.self, forPrimaryKey: 1)!.label = "not in the results" }
        try database.write { $0.object(ofType: Counter.self, forPrimaryKey: 1)!.value = 16 }
        let deliveries = inbox.wait(for: 2)
        #expect(deliveries.count == 2)
        #expect(deliveries.last == Delivery(isInitial: false, ids: [1, 2], insertions: [0]))
        withExtendedLifetime(token) {}
    }

    @Test func keyPathFilteredObserversIgnoreOtherProperties() throws {
        let database = try counterStore(directory)
        try seed(database, ids: [1])
        let (token, inbox) = try observeCounters(in: database, keyPaths: ["value"])
        inbox.wait(for: 1)
        try database.write { $0.object(ofType: Counter.self, forPrimaryKey: 1)!.label = "ignored" }
        try database.write { $0.object(ofType: Counter.self, forPrimaryKey: 1)!.value = 7 }
        let deliveries = inbox.wait(for: 2)
        #expect(deliveries.count == 2)
        #expect(deliveries.last?.modifications == [0])
        withExtendedLifetime(token) {}
    }

    @Test func anInvalidatedTokenStopsDelivery() throws {
        let database = try counterStore(directory)
        let queue = DispatchQueue(label: "observer")
        let inbox = Inbox<Delivery>()
        let token = try onQueue(queue) {
            try database.view(queue: queue).objects(Counter.self).observe { inbox.append(Delivery($0)) }
        }
        inbox.wait(for: 1)
        token.invalidate()
        try seed(database, ids: [1])
        Thread.sleep(forTimeInterval: 0.3)
        queue.sync {}
        #expect(inbox.values.count == 1)
    }

    @Test func aReleasedTokenStopsDelivery() throws {
        let database = try counterStore(directory)
        let queue = DispatchQueue(label: "observer")
        let inbox = Inbox<Delivery>()
        var token: NotificationToken? = try onQueue(queue) {
            try database.view(queue: queue).objects(Counter.self).observe { inbox.append(Delivery($0)) }
        }
        inbox.wait(for: 1)
        token = nil
        try seed(database, ids: [1])
        Thread.sleep(forTimeInterval: 0.3)
        queue.sync {}
        #expect(inbox.values.count == 1)
        #expect(token == nil)
    }

    @Test func writingWithoutNotifyingSkipsThatTokenOnly() throws {
        let database = try counterStore(directory)
        let queue = DispatchQueue(label: "observer")
        let silenced = Inbox<Delivery>()
        let other = Inbox<Delivery>()
        let (silencedToken, otherToken) = try onQueue(queue) {
            let view = try database.view(queue: queue)
            return (
                try view.objects(Counter.self).observe { silenced.append(Delivery($0)) },
                try view.objects(Counter.self).observe { other.append(Delivery($0)) }
            )
        }
        silenced.wait(for: 1)
        other.wait(for: 1)
        try database.write(withoutNotifying: [silencedToken]) { try $0.create(Counter.self, value: ["id": 1]) }
        #expect(other.wait(for: 2).count == 2)
        try database.write { try $0.create(Counter.self, value: ["id": 2]) }
        let heard = silenced.wait(for: 2)
        // The silenced observer hears only the second write, against the list as the first left it.
        #expect(heard.count == 2)
        #expect(heard.last == Delivery(isInitial: false, ids: [1, 2], insertions: [1]))
        withExtendedLifetime((silencedToken, otherToken)) {}
    }

    /// What an observer of counters hears of ids 1, 2 and 3 added in turn, the second without notifying it.
    static let secondWriteUnheard = [
        Delivery(isInitial: false, ids: [1], insertions: [0]),
        Delivery(isInitial: false, ids: [1, 2, 3], insertions: [2]),
    ]

    /// An observer of every counter on a queue of its own, past its initial delivery, whose
    /// queue stays busy until `busy` is signalled.
    private func observeCountersOnABusyQueue() throws -> (
        Database, NotificationToken, Inbox<Delivery>, DispatchSemaphore
    ) {
        let database = try counterStore(directory)
        let queue = DispatchQueue(label: "observer")
        let inbox = Inbox<Delivery>()
        let token = try onQueue(queue) {
            try database.view(queue: queue).objects(Counter.self).observe { inbox.append(Delivery($0)) }
        }
        inbox.wait(for: 1)
        let busy = DispatchSemaphore(value: 0)
        queue.async { busy.wait() }
        return (database, token, inbox, busy)
    }

    @Test func aSilencedWriteRightAfterAnotherIsNotFoldedIntoIt() throws {
        let database = try counterStore(directory)
        let (token, inbox) = try observeCounters(in: database)
        inbox.wait(for: 1)
        try database.write { try $0.create(Counter.self, value: ["id": 1]) }
        try database.write(withoutNotifying: [token]) { try $0.create(Counter.self, value: ["id": 2]) }
        try database.write { try $0.create(Counter.self, value: ["id": 3]) }
        #expect(Array(inbox.wait(for: 3).dropFirst()) == Self.secondWriteUnheard)
    }

    @Test func aSilencedWriteStaysUnheardByAnObserverWhoseQueueWasBusyThrough() throws {
        let (database, token, inbox, busy) = try observeCountersOnABusyQueue()
        // The first write's round waits on the busy queue while the silenced write commits.
        try database.write { try $0.create(Counter.self, value: ["id": 1]) }
        database.notifier.runRound()
        try database.write(withoutNotifying: [token]) { try $0.create(Counter.self, value: ["id": 2]) }
        database.notifier.runRound()
        busy.signal()
        inbox.wait(for: 2)
        database.notifier.runRound()
        try database.write { try $0.create(Counter.self, value: ["id": 3]) }
        #expect(Array(inbox.wait(for: 3).dropFirst()) == Self.secondWriteUnheard)
    }

    @Test func aSilencedWriteIsNotFoldedIntoTheNextWhileTheObserversQueueIsBusy() throws {
        let (database, token, inbox, busy) = try observeCountersOnABusyQueue()
        // The first write's round is worked out, and waits on the busy queue, before the silenced one commits.
        try database.write { try $0.create(Counter.self, value: ["id": 1]) }
        database.notifier.runRound()
        try database.write(withoutNotifying: [token]) { try $0.create(Counter.self, value: ["id": 2]) }
        try database.write { try $0.create(Counter.self, value: ["id": 3]) }
        database.notifier.runRound()
        busy.signal()
        #expect(Array(inbox.wait(for: 3).dropFirst()) == Self.secondWriteUnheard)
    }

    @Test func aBusyViewQueueHoldsBackRoundsInsteadOfPinningOneEach() throws {
        let (database, token, inbox, busy) = try observeCountersOnABusyQueue()
        for id in 1...20 {
            try database.write { try $0.create(Counter.self, value: ["id": id]) }
            database.notifier.runRound()
        }
        // The view's snapshot, one queued round, and the notifier's own: not one per commit.
        #expect(try database.pinnedVersions().versions.count <= 3)
        busy.signal()
        let deadline = ContinuousClock.now + .seconds(10)
        while inbox.values.last?.ids.count != 20 && ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        // Each delivery, applied to the list before it, gives the list after it.
        var list: [Int] = []
        for delivery in inbox.values {
            for index in delivery.deletions.reversed() { list.remove(at: index) }
            for index in delivery.insertions { list.insert(delivery.ids[index], at: index) }
            #expect(list == delivery.ids)
        }
        #expect(list == Array(1...20))
        withExtendedLifetime(token) {}
    }

    @Test func resultsObservedOnTheirQueueAreLiveAfterEachDelivery() throws {
        let database = try counterStore(directory)
        let queue = DispatchQueue(label: "observer")
        let counts = Inbox<Int>()
        let held = Held<Results<Counter>>()
        let token = try onQueue(queue) {
            let results = try database.view(queue: queue).objects(Counter.self)
            held.value = results
            return try results.observe { _ in counts.append(held.value!.count) }
        }
        counts.wait(for: 1)
        try seed(database, ids: [1, 2, 3])
        #expect(counts.wait(for: 2) == [0, 3])
        withExtendedLifetime(token) {}
    }

    @Test func observingOnAnotherQueueDeliversResultsLiveOnThatQueue() throws {
        let database = try counterStore(directory)
        try seed(database, ids: [1])
        let target = DispatchQueue(label: "target")
        let inbox = Inbox<Delivery>()
        let view = try database.view()
        let token = try view.objects(Counter.self).observe(on: target) { change in
            dispatchPrecondition(condition: .onQueue(target))
            inbox.append(Delivery(change))
        }
        inbox.wait(for: 1)
        try seed(database, ids: [2])
        #expect(inbox.wait(for: 2).last == Delivery(isInitial: false, ids: [1, 2], insertions: [1]))
        withExtendedLifetime(token) {}
    }

    @Test func aCommitOnAnotherThreadReachesTheObserver() async throws {
        let database = try counterStore(directory)
        let (token, inbox) = try observeCounters(in: database)
        inbox.wait(for: 1)
        let writer = Thread {
            _ = try? database.write { try $0.create(Counter.self, value: ["id": 42]) }
        }
        writer.start()
        #expect(inbox.wait(for: 2).last?.ids == [42])
        withExtendedLifetime(token) {}
    }

    @Test func aCommitByAnotherProcessReachesTheObserver() throws {
        let path = directory.store("shared.objdb")
        let database = try Database(path: path, types: [Counter.self])
        let (token, inbox) = try observeCounters(in: database)
        inbox.wait(for: 1)
        let child = try run("objdb-test-child", ["set-counter", path, "7", "70"])
        #expect(child.status == 0, "\(child.error)")
        let started = ContinuousClock.now
        let deliveries = inbox.wait(for: 2)
        #expect(deliveries.last == Delivery(isInitial: false, ids: [7], insertions: [0]))
        // inotify wakes the notifier at once; the poll interval (500 ms) bounds it without.
        #expect(ContinuousClock.now - started < .seconds(2))
        withExtendedLifetime(token) {}
    }

    @Test func changesAreAnAsyncSequenceOfFrozenResults() async throws {
        let database = try counterStore(directory)
        try seed(database, ids: [1])
        let stream = try database.view().objects(Counter.self).changes
        var iterator = stream.makeAsyncIterator()
        guard case .initial(let first)? = await iterator.next() else { throw TestFailure("no initial") }
        #expect(first.map { $0.id } == [1])
        try await database.write { transaction in
            transaction.object(ofType: Counter.self, forPrimaryKey: 1)!.value = 5
        }
        guard case .update(let second, let deletions, let insertions, let modifications)? = await iterator.next() else {
            throw TestFailure("no update")
        }
        #expect(second.map { $0.value } == [5])
        #expect(deletions.isEmpty && insertions.isEmpty && modifications == [0])
        // Frozen results stay at their version.
        #expect(first.map { $0.value } == [10])
    }

    @Test func refreshingAnObservedViewDeliversBeforeReturning() throws {
        let database = try counterStore(directory)
        let queue = DispatchQueue(label: "observer")
        let inbox = Inbox<Delivery>()
        let held = Held<ReadView>()
        let token = try onQueue(queue) {
            let view = try database.view(queue: queue)
            held.value = view
            return try view.objects(Counter.self).observe { inbox.append(Delivery($0)) }
        }
        inbox.wait(for: 1)
        try seed(database, ids: [3])
        let seen = try onQueue(queue) {
            try held.value!.refresh()
            return inbox.values.count
        }
        #expect(seen == 2)
        withExtendedLifetime(token) {}
    }
}
