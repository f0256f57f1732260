import Dispatch
import Foundation
import Synchronization
import TestSupport

@testable import ObjDB

/// The model the notification tests observe; the child process declares the same one.
final class Counter: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var value = 0
    @Persisted var label = ""
}

/// Another type, which observers of `Counter` must not hear about.
final class Unrelated: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var note = ""
}

/// Collects what observers deliver, from whichever queue they deliver on.
final class Inbox<Value: Sendable>: Sendable {
    private let items = Lock<[Value]>([])

    func append(_ value: Value) {
        items.withLock { $0.append(value) }
    }

    var values: [Value] { items.withLock { $0 } }

    /// Waits until `count` values arrived, or `timeout` passed; returns them.
    @discardableResult
    func wait(for count: Int, timeout: Duration = .seconds(10)) -> [Value] {
        let deadline = ContinuousClock.now + timeout
        while values.count < count && ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.005)
        }
        return values
    }
}

/// A delivered collection change reduced to plain values: the keys after it, and its indices.
struct Delivery: Sendable, Equatable {
    var isInitial: Bool
    var ids: [Int]
    var deletions: [Int] = []
    var insertions: [Int] = []
    var modifications: [Int] = []
    /// The error of an `.error` delivery: its code, and LMDB's result code if it has one.
    var error: String?
}

extension Delivery {
    init(_ change: CollectionChange<Results<Counter>>) {
        switch change {
        case .initial(let results):
            self.init(isInitial: true, ids: results.map(\.id))
        case .update(let results, let deletions, let insertions, let modifications):
            self.init(
                isInitial: false, ids: results.map(\.id), deletions: deletions, insertions: insertions,
                modifications: modifications)
        case .error(let error):
            let code = (error as? ObjDBError).map { "\($0.code)\($0.resultCode.map { " \($0)" } ?? "")" }
            self.init(isInitial: false, ids: [], error: code ?? "\(error)")
        }
    }
}

/// Runs `body` on `queue` and returns its result (the view it makes belongs to the queue).
func onQueue<Result: Sendable>(_ queue: DispatchQueue, _ body: () throws -> Result) throws -> Result {
    try queue.sync { try body() }
}

/// Observes the counters `query` selects, through a view made for a queue of its own; the
/// inbox collects the deliveries, the initial results first.
func observeCounters(
    in database: Database, keyPaths: [String]? = nil, _ query: (Results<Counter>) throws -> Results<Counter> = { $0 }
) throws -> (token: NotificationToken, inbox: Inbox<Delivery>) {
    let queue = DispatchQueue(label: "observer")
    let inbox = Inbox<Delivery>()
    let token = try onQueue(queue) {
        try query(database.view(queue: queue).objects(Counter.self)).observe(keyPaths: keyPaths) {
            inbox.append(Delivery($0))
        }
    }
    return (token, inbox)
}

func counterStore(_ directory: TemporaryDirectory, name: String = "store.objdb") throws -> Database {
    try Database(path: directory.store(name), types: [Counter.self, Unrelated.self])
}

/// Holds a non-Sendable value across a queue hop whose ordering the test guarantees.
final class Held<Value>: @unchecked Sendable {
    var value: Value?
    init(_ value: Value? = nil) { self.value = value }
}

/// Linked models: a change to an author is a change to the posts that link to it.
final class Author: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
    @Persisted var age = 0
}

final class Post: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var title = ""
    @Persisted var author: Author?
}

/// An indexed, self-linking model: a query can reach its own type through `manager`.
final class Employee: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted(indexed: true) var age = 0
    @Persisted var city = ""
    @Persisted var name = ""
    @Persisted var manager: Employee?
}
