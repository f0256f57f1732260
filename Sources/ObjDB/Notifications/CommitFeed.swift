import Foundation

/// The commits of any process, as the notifier sees them, handed to one consumer thread that
/// takes them at its own pace: what `objdb-inspect serve` streams to a browser.
///
/// Each ``next(timeout:)`` returns the newest version with a frozen view of it and the change
/// set from the version the consumer took last (or the one it started from): a consumer that
/// falls behind gets one round covering every commit it missed, never a queue.
package final class CommitFeed: @unchecked Sendable {
    // @unchecked: `consumed`, `pending`, `failure` and `isClosed` are read and written under
    // `condition` only; `token` is set once, in init.
    private let condition = NSCondition()
    private var consumed: Int?
    private var pending: CommitRound?
    private var failure: (any Error)?
    private var isClosed = false
    private var token: NotificationToken?

    /// Feeds the commits after `version` (every commit from the notifier's next round when `nil`).
    package init(database: Database, since version: Int?) {
        consumed = version
        let notifier = database.notifier
        token = notifier.add(CommitFeedObserver(id: notifier.makeID(), feed: self))
    }

    deinit {
        token?.invalidate()
    }

    /// The next round past the consumer's version, waiting up to `timeout` for one; `nil` when
    /// none came or the feed is closed.
    ///
    /// - Throws: the error that stopped the notifier for this feed.
    package func next(timeout: Duration) throws -> CommitRound? {
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while pending == nil && failure == nil && !isClosed {
            if !condition.wait(until: deadline) { break }
        }
        if let failure { throw failure }
        guard let round = pending else { return nil }
        pending = nil
        consumed = round.version
        return round
    }

    /// Stops the feed: a waiting ``next(timeout:)`` returns `nil` at once, and so does every later one.
    package func close() {
        condition.lock()
        isClosed = true
        pending = nil
        condition.broadcast()
        condition.unlock()
        token?.invalidate()
    }

    /// Makes `round` the pending one, with the changes since the consumer's version.
    fileprivate func offer(_ round: NotificationRound) throws {
        while true {
            condition.lock()
            let since = consumed
            let closed = isClosed
            condition.unlock()
            guard !closed, since != round.newVersion else { return }
            let changes = try since.flatMap { since in since < round.newVersion ? try round.changes(since: since) : nil
            }
            let offered = CommitRound(
                version: round.newVersion, view: FrozenView(snapshot: round.new),
                changes: changes.map(CommitChanges.init),
                since: since)
            condition.lock()
            defer { condition.unlock() }
            // The consumer took a round meanwhile: the changes must start from its new version.
            guard consumed == since else { continue }
            pending = offered
            condition.broadcast()
            return
        }
    }

    fileprivate func fail(_ error: any Error) {
        condition.lock()
        failure = error
        condition.broadcast()
        condition.unlock()
    }
}

/// A version a ``CommitFeed`` hands out: a frozen view of it and what changed since the last.
package struct CommitRound: Sendable {
    /// The committed version.
    package let version: Int
    /// The store at `version`.
    package let view: FrozenView
    /// What the commits since ``since`` changed; `nil` when the change log does not tell
    /// (compare what was shown with what is there).
    package let changes: CommitChanges?
    /// The version the changes start from: the consumer's last, or the one it started from.
    package let since: Int?

    /// A read view of the frozen version, for code that reads through one.
    package var readView: ReadView { ReadView(snapshot: view.snapshot) }
}

/// The net changes of a run of commits, by type and object (ObjDB's change set).
package struct CommitChanges: Sendable {
    let set: ChangeSet

    /// Whether any object of `type` may have changed.
    package func touches(_ type: String) -> Bool { set.touches(type) }

    /// The types that changed.
    package var types: [String] { Array(set.types.keys) }

    /// Each changed object of `type` by table key; `nil` when the type changed too much to list.
    package func objects(of type: String, in view: ReadView) -> [[UInt8]: ObjectChangeSummary]? {
        guard let changes = set.types[type] else { return [:] }
        guard !changes.isWholesale else { return nil }
        let binding = view.snapshot.catalog.bindings[type]
        var objects: [[UInt8]: ObjectChangeSummary] = [:]
        for (key, change) in changes.objects {
            let names =
                change.allProperties
                ? nil
                : binding.map { binding in
                    binding.properties.filter { change.properties.contains($0.schema.id) }.map(\.schema.name)
                }
            objects[key] = ObjectChangeSummary(
                isInserted: !change.existedBefore && change.existsAfter, isDeleted: !change.existsAfter,
                properties: names)
        }
        return objects
    }
}

/// What a run of commits did to one object.
package struct ObjectChangeSummary: Sendable, Equatable {
    /// It did not exist before, and does now.
    package var isInserted: Bool
    /// It does not exist now.
    package var isDeleted: Bool
    /// The properties that changed, in declaration order; `nil` when every one may have.
    package var properties: [String]?
}

/// The notifier's side of a ``CommitFeed``.
private final class CommitFeedObserver: ChangeObserver {
    let id: Int
    private weak var feed: CommitFeed?
    private(set) var version: Int?

    init(id: Int, feed: CommitFeed) {
        self.id = id
        self.feed = feed
    }

    var delivery: ViewDelivery? { nil }

    func process(_ round: NotificationRound) throws -> ObserverOutput? {
        try feed?.offer(round)
        version = round.newVersion
        return nil
    }

    func fail(_ error: any Error) -> ObserverOutput {
        let feed = self.feed
        return .now { feed?.fail(error) }
    }
}
