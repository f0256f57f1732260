import Dispatch
import Foundation
import ObjDB
import Synchronization
import Testing

@testable import ObjDBSync

/// What an observer of the store's tweets was told, in order.
private final class Deliveries: Sendable {
    private let changes = Mutex<[(isInitial: Bool, insertions: Int, modifications: Int)]>([])

    func append(_ change: CollectionChange<Results<Tweet>>) {
        switch change {
        case .initial: changes.withLock { $0.append((true, 0, 0)) }
        case .update(_, _, let insertions, let modifications):
            changes.withLock { $0.append((false, insertions.count, modifications.count)) }
        case .error(let error): Issue.record("the observer stopped: \(error)")
        }
    }

    var all: [(isInitial: Bool, insertions: Int, modifications: Int)] { changes.withLock { $0 } }

    func wait(for count: Int) -> [(isInitial: Bool, insertions: Int, modifications: Int)] {
        let deadline = ContinuousClock.now + .seconds(10)
        while all.count < count && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.005) }
        return all
    }
}

@Suite("Imports and observers")
struct ImportNotificationTests {
    @Test func theSamePageImportedTwiceNotifiesNobody() throws {
        var generator = TwitterPayloadGenerator(seed: 31)
        let page = generator.timeline(count: 50, newestID: 3_000_000)
        let store = try SyncStore()
        let queue = DispatchQueue(label: "observer")
        let deliveries = Deliveries()
        let token = try queue.sync {
            try store.database.view(queue: queue).objects(Tweet.self).observe { deliveries.append($0) }
        }
        defer { token.invalidate() }
        #expect(deliveries.wait(for: 1).count == 1)
        let tweets = try TwitterPayloadFacts(page).statusIDs.count
        try store.twitter.importPage(page, timeline: "home")
        #expect(deliveries.wait(for: 2).last?.insertions == tweets)
        try store.twitter.importPage(page, timeline: "home")
        // A change of one tweet after it: the next delivery must be that change, not the second import.
        try store.database.write { transaction in
            transaction.object(ofType: Tweet.self, forPrimaryKey: Int64(3_000_000))?.retweetCount = 1_000_000
        }
        let delivered = deliveries.wait(for: 3)
        #expect(delivered.count == 3)
        #expect(delivered.last?.modifications == 1 && delivered.last?.insertions == 0)
        Thread.sleep(forTimeInterval: 0.05)
        #expect(deliveries.all.count == 3)
    }
}
