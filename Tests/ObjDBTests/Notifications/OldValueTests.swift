import Dispatch
import Foundation
import TestSupport
import Testing

@testable import ObjDB

@Suite("Object notifications: old values are always given")
struct OldValueTests {
    let directory = TemporaryDirectory()

    /// Observes counter 1 on a queue of its own; the inbox gets each change's properties.
    private func observe(_ database: Database, keyPaths: [String]? = nil, queue: DispatchQueue) throws
        -> (NotificationToken, Inbox<[PropertyChange]>)
    {
        let inbox = Inbox<[PropertyChange]>()
        let token = try onQueue(queue) {
            try database.view(queue: queue).object(ofType: Counter.self, forPrimaryKey: 1)!.observe(keyPaths: keyPaths)
            { change in
                if case .change(_, let properties) = change { inbox.append(properties) }
            }
        }
        database.notifier.runRound()  // the observer has had its first round
        return (token, inbox)
    }

    @Test func aChangeHeardAfterTheViewWasBusyGivesItsOldValue() throws {
        let database = try counterStore(directory)
        try database.write { try $0.create(Counter.self, value: ["id": 1, "value": 1]) }
        let queue = DispatchQueue(label: "observer")
        let (token, inbox) = try observe(database, keyPaths: ["value"], queue: queue)
        // The view is busy while an unobserved property changes, then an observed one.
        let busy = DispatchSemaphore(value: 0)
        queue.async { busy.wait() }
        try database.write { $0.object(ofType: Counter.self, forPrimaryKey: 1)!.label = "unobserved" }
        database.notifier.runRound()
        try database.write { $0.object(ofType: Counter.self, forPrimaryKey: 1)!.value = 2 }
        database.notifier.runRound()
        busy.signal()
        #expect(inbox.wait(for: 1) == [[PropertyChange(name: "value", oldValue: .int(1), newValue: .int(2))]])
        withExtendedLifetime(token) {}
    }

    @Test func everyReportedChangeGivesTheValueBeforeIt() throws {
        // Random commits to random properties, with the view's queue busy at random moments:
        // each change reported must start from the value the previous one ended with.
        var generator = SeededGenerator(seed: 16_2)
        for run in 0..<6 {
            let database = try counterStore(directory, name: "old-values-\(run).objdb")
            try database.write { try $0.create(Counter.self, value: ["id": 1, "value": 0, "label": "0"]) }
            let queue = DispatchQueue(label: "observer")
            let keyPaths: [String]? = run.isMultiple(of: 2) ? ["value"] : nil
            let (token, inbox) = try observe(database, keyPaths: keyPaths, queue: queue)
            var expected: [StoredValue] = [.int(0)]
            let busy = DispatchSemaphore(value: 0)
            var isBusy = false
            for step in 1...12 {
                if !isBusy, Bool.random(using: &generator) {
                    queue.async { busy.wait() }
                    isBusy = true
                }
                if Bool.random(using: &generator) {
                    try database.write { $0.object(ofType: Counter.self, forPrimaryKey: 1)!.value = step }
                    expected.append(.int(Int64(step)))
                } else {
                    try database.write { $0.object(ofType: Counter.self, forPrimaryKey: 1)!.label = "\(step)" }
                }
                database.notifier.runRound()
                if isBusy, Bool.random(using: &generator) {
                    busy.signal()
                    isBusy = false
                }
            }
            if isBusy { busy.signal() }
            database.notifier.runRound()
            queue.sync {}
            database.notifier.runRound()
            queue.sync {}
            let heard = inbox.values.compactMap { $0.first { $0.name == "value" } }
            #expect(heard.allSatisfy { $0.oldValue != nil }, "run \(run): \(heard)")
            // Old and new values chain from the first value to the last.
            var value: StoredValue? = .int(0)
            for change in heard {
                #expect(change.oldValue == value, "run \(run): \(heard)")
                value = change.newValue
            }
            #expect(value == expected.last, "run \(run)")
            withExtendedLifetime(token) {}
        }
    }
}
