import Foundation
import Synchronization

/// One pass of the notifier: from the version its observers last saw to the newest one.
struct NotificationRound {
    /// The version observers last saw, `nil` on the first round.
    let oldVersion: Int?
    let newVersion: Int
    /// A context at `oldVersion`, when the notifier still holds it.
    let old: Snapshot?
    /// A context at `newVersion`.
    let new: Snapshot
    /// The shared read transaction at `newVersion`, which views adopt.
    let snapshot: Transaction
    /// The folded change log from `oldVersion` to `newVersion`; `nil` when unknown.
    let changes: ChangeSet?
    /// The observers every commit of this round was made without notifying.
    let silenced: Set<Int>
    /// The folded change log from a version before `oldVersion` (an observer that missed rounds)
    /// to `newVersion`; `nil` when the log may not cover it.
    let changesSince: (Int) -> ChangeSet?

    /// The changes an observer last at `version` must apply, and the context at `version` if held.
    func changes(forObserverAt version: Int) -> (changes: ChangeSet?, old: Snapshot?) {
        version == oldVersion ? (changes, old) : (changesSince(version), nil)
    }
}

/// What an observer wants done after a round.
enum ObserverOutput {
    /// Run on the view's queue, after the view moved to the round's snapshot.
    case view(ViewDelivery, () -> Void)
    /// Run now, on the notifier's thread (frozen deliveries to async sequences).
    case now(() -> Void)
}

/// An observer, as the notifier drives it. `process` runs on the notifier's thread only.
protocol ChangeObserver: AnyObject {
    var id: Int { get }
    /// The version the observer has caught up with; `nil` before its first round.
    var version: Int? { get }
    /// The view queue it delivers to, if any: the view moves with every round it takes part in.
    var delivery: ViewDelivery? { get }
    func process(_ round: NotificationRound) throws -> ObserverOutput?
    /// The notifier is going away: end any sequence the observer feeds.
    func end()
}

extension ChangeObserver {
    func end() {}
}

/// Runs change notification for one database: a background thread that wakes when a commit
/// lands (here or, through inotify, in another process), reads the change log since the
/// version its observers last saw, works out each observer's change, and hands the results
/// to the views' queues together with the new snapshot.
final class ChangeNotifier: @unchecked Sendable {
    // @unchecked: the fields under "guarded by lock" are; the "notifier thread" ones are used
    // only by the thread `start` makes.

    private let path: String
    private let interval: Duration
    private weak var database: Database?
    /// Set once the thread (and its waiter) started: until then a commit has no one to wake,
    /// and a database nobody observes holds no pipe or inotify descriptor.
    private let isStarted = Atomic<Bool>(false)

    // Guarded by lock.
    private let lock = NSCondition()
    private var observers: [Int: any ChangeObserver] = [:]
    private var nextID = 1
    private var silenced: [Int: Set<Int>] = [:]
    private var requestedRounds = 0
    private var completedRounds = 0
    private var waiter: CommitWaiter?
    private var isStopped = false
    /// A snapshot the next round must use instead of the latest (``runRound(using:)``).
    private var providedSnapshot: Transaction?

    // Notifier thread.
    private var snapshot: Snapshot?
    private var version: Int?
    /// The environment this notifier announced itself on as a watcher (``ChangeWatch``), while it has observers.
    private var watchedEnvironment: Environment?
    /// Whether other processes can see the watch, so their commits are logged too.
    private var watchIsVisible = false
    /// The first version the log is known to cover every commit after: the first round's, once watching.
    private var logCompleteFrom: Int?

    init(database: Database) {
        self.path = database.configuration.path
        self.interval = database.configuration.crossProcessNotificationInterval
        self.database = database
    }

    /// A fresh observer ID.
    func makeID() -> Int {
        lock.withLock {
            defer { nextID += 1 }
            return nextID
        }
    }

    /// Registers `observer`; it gets its first round soon. The token removes it.
    func add(_ observer: any ChangeObserver, onStop: @escaping @Sendable () -> Void = {}) -> NotificationToken {
        let id = observer.id
        let starting: CommitWaiter? = lock.withLock {
            observers[id] = observer
            guard waiter == nil else { return nil }
            let made = CommitWaiter(path: path, interval: interval)
            waiter = made
            return made
        }
        if let starting {
            isStarted.store(true, ordering: .releasing)
            let thread = Thread { [self] in loop(waiter: starting) }
            thread.name = "objdb.notifier"
            thread.start()
        }
        wake()
        return NotificationToken(observerID: id) { [weak self] in
            self?.remove(id)
            onStop()
        }
    }

    func remove(_ id: Int) {
        lock.withLock { _ = observers.removeValue(forKey: id) }
        // The next round lets go of the snapshot (and the watch) if that was the last one.
        wake()
    }

    /// Whether any registered observer delivers to `delivery`.
    func hasObservers(of delivery: ViewDelivery) -> Bool {
        lock.withLock { observers.values.contains { $0.delivery === delivery } }
    }

    /// A commit landed in this process.
    func commitLanded() {
        if isStarted.load(ordering: .acquiring) { wake() }
    }

    func wake() {
        lock.withLock { waiter }?.wake()
    }

    /// The commit that made `version` must not notify `observerIDs`.
    func silence(version: Int, observerIDs: Set<Int>, replacing: Bool = false) {
        if replacing {
            lock.withLock { _ = silenced.removeValue(forKey: version) }
            return
        }
        guard !observerIDs.isEmpty else { return }
        lock.withLock { silenced[version, default: []].formUnion(observerIDs) }
    }

    /// Runs a round that starts after this call and waits for it (up to `timeout`).
    @discardableResult
    func runRound(timeout: Duration = .seconds(10)) -> Bool {
        runRound(using: nil, timeout: timeout)
    }

    /// Runs a round that reads `snapshot` (a read transaction this caller began) instead of the
    /// latest version, and waits for it: a silenced commit gets a round of its own this way.
    @discardableResult
    func runRound(using snapshot: Transaction?, timeout: Duration = .seconds(10)) -> Bool {
        guard isStarted.load(ordering: .acquiring) else { return true }
        let target = lock.withLock {
            if let snapshot { providedSnapshot = snapshot }
            requestedRounds += 1
            return requestedRounds
        }
        wake()
        let deadline = Date().addingTimeInterval(Double(timeout.components.seconds))
        lock.lock()
        defer { lock.unlock() }
        while completedRounds < target && !isStopped {
            if !lock.wait(until: deadline) { return false }
        }
        return true
    }

    /// Ends the thread (the database is going away).
    func stop() {
        let ended = lock.withLock {
            isStopped = true
            defer { observers.removeAll() }
            return Array(observers.values)
        }
        for observer in ended { observer.end() }
        wake()
    }

    // MARK: - The notifier thread

    private func loop(waiter: CommitWaiter) {
        while true {
            let stopped = lock.withLock { isStopped }
            if stopped { break }
            runRound()
            waiter.wait()
        }
        snapshot = nil
        stopWatching()
    }

    /// Announces this process as a watcher, so commits log their changes (waiting out the write in progress).
    private func startWatching(_ environment: Environment) {
        logCompleteFrom = nil
        do {
            watchIsVisible = try environment.startWatchingChanges()
            watchedEnvironment = environment
        } catch {
            // A read-only store: no writer here to wait out, so the log is never trusted.
            watchIsVisible = false
        }
    }

    /// Withdraws the watch: with no observer left, commits need not log.
    private func stopWatching() {
        watchedEnvironment?.stopWatchingChanges()
        watchedEnvironment = nil
        logCompleteFrom = nil
    }

    private func runRound() {
        let (active, serving, provided) = lock.withLock {
            defer { providedSnapshot = nil }
            return (observers, requestedRounds, providedSnapshot)
        }
        defer {
            lock.withLock {
                completedRounds = max(completedRounds, serving)
                lock.broadcast()
            }
        }
        guard let database, !active.isEmpty else {
            snapshot = nil
            version = nil
            stopWatching()
            return
        }
        if watchedEnvironment == nil { startWatching(database.environment) }
        // An observer whose view has not taken its last round yet waits: a view queues one
        // round (one pinned snapshot) at most, and catches up when it has drained.
        let ready = active.values.filter { $0.delivery?.hasPending != true }.sorted { $0.id < $1.id }
        let behind = ready.contains { $0.version == nil || $0.version != version }
        // A provided snapshot older than the last round's is of no use: rounds only move forward.
        let usable = provided.flatMap { provided in version.map { provided.id > $0 } ?? true ? provided : nil }
        if usable == nil, !behind, let version, (try? database.environment.lastTransactionID()) == version { return }
        do {
            let transaction = try usable ?? database.environment.beginRead()
            try database.warm(transaction)
            transaction.isShared = true
            let new = Snapshot(owner: database, frozenAt: transaction)
            let newVersion = transaction.id
            if !behind, newVersion == version { return }
            if watchIsVisible, logCompleteFrom == nil { logCompleteFrom = newVersion }
            let logFrom = logCompleteFrom
            let changesSince = { (since: Int) -> ChangeSet? in
                guard let logFrom, since >= logFrom, let log = database.changeLog, let meta = database.meta else {
                    return nil
                }
                return try? ChangeLog.changes(after: since, in: transaction, log: log, meta: meta)
            }
            let round = NotificationRound(
                oldVersion: version, newVersion: newVersion, old: snapshot, new: new, snapshot: transaction,
                changes: version.flatMap(changesSince), silenced: takeSilenced(after: version, through: newVersion),
                changesSince: changesSince)

            var deliveries: [ObjectIdentifier: (delivery: ViewDelivery, work: [() -> Void])] = [:]
            var order: [ObjectIdentifier] = []
            for observer in ready {
                // Every observed view moves to the round's snapshot, whether or not its observers have news.
                if let delivery = observer.delivery, deliveries[ObjectIdentifier(delivery)] == nil {
                    deliveries[ObjectIdentifier(delivery)] = (delivery, [])
                    order.append(ObjectIdentifier(delivery))
                }
                switch try? observer.process(round) {
                case .view(let delivery, let work):
                    let id = ObjectIdentifier(delivery)
                    if deliveries[id] == nil {
                        deliveries[id] = (delivery, [])
                        order.append(id)
                    }
                    deliveries[id]!.work.append(work)
                case .now(let work):
                    work()
                case nil:
                    break
                }
            }
            for id in order {
                let (delivery, work) = deliveries[id]!
                delivery.enqueue(snapshot: transaction, work: work) { [weak self] in self?.wake() }
            }
            version = newVersion
            // A round on a silenced write's own snapshot may have taken the wake-up of a later commit.
            if usable != nil, let latest = try? database.environment.lastTransactionID(), latest > newVersion { wake() }
            // Map growth waits for every read transaction of the process to end: let go of ours.
            snapshot = database.environment.hasPendingGrowth ? nil : new
        } catch {
            // A full reader table or a failing map: try again on the next wake.
        }
    }

    /// The observers silenced for every version after `old` through `new`, forgetting those versions.
    private func takeSilenced(after old: Int?, through new: Int) -> Set<Int> {
        lock.withLock {
            defer { silenced = silenced.filter { $0.key > new } }
            guard let old, new > old else { return [] }
            var common: Set<Int>?
            for version in (old + 1)...new {
                let ids = silenced[version] ?? []
                common = common.map { $0.intersection(ids) } ?? ids
                if common?.isEmpty == true { return [] }
            }
            return common ?? []
        }
    }
}

extension ChangeNotifier: DatabaseAttachment, CommitObserver {
    func databaseWillClose() {
        stop()
    }

    func willCommit(version: Int, silencing observerIDs: Set<Int>) {
        silence(version: version, observerIDs: observerIDs)
    }

    func didFailToCommit(version: Int) {
        silence(version: version, observerIDs: [], replacing: true)
    }

    func didCommit(version: Int) {
        commitLanded()
    }
}

extension Database {
    /// The notifier of this database, made with its first observer (its thread starts then).
    var notifier: ChangeNotifier {
        attachments.attachment(ChangeNotifier.self) { ChangeNotifier(database: self) }
    }
}
