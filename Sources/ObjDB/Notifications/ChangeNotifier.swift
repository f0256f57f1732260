import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One pass of the notifier: from the version its observers last saw to the newest one.
struct NotificationRound {
    /// The version the notifier's last round reached, `nil` on the first round.
    let oldVersion: Int?
    let newVersion: Int
    /// A snapshot at `newVersion`.
    let new: Snapshot
    /// The shared read transaction at `newVersion`, which views adopt.
    let snapshot: Transaction
    /// The observers each commit up to `newVersion` was made without notifying, by version,
    /// for the versions some observer has not yet passed.
    let silencedByVersion: [Int: Set<Int>]
    /// Whether observers may keep `new` past the round; not while map growth waits for readers to end.
    let mayKeepSnapshot: Bool
    let log: ChangeLogReader

    /// The folded change log from `version` (an observer's) to `newVersion`; `nil` when the log
    /// may not cover it, and the observer must compare records instead.
    func changes(since version: Int) throws -> ChangeSet? {
        try log.changes(since: version)
    }

    /// Whether every commit after `version` (the observer's own, which may be behind the last
    /// round's when its view was busy) through `newVersion` was made without notifying `observerID`.
    /// A range that mixes silenced and other commits is heard in full: its changes cannot be told apart.
    func silences(_ observerID: Int, since version: Int?) -> Bool {
        guard let version, newVersion > version else { return false }
        return ((version + 1)...newVersion).allSatisfy { silencedByVersion[$0]?.contains(observerID) == true }
    }
}

/// Reads the change log for one round, once per starting version.
final class ChangeLogReader {
    private let database: Database
    private let transaction: Transaction
    /// The first version after which every commit is known to be logged; `nil` when none is.
    private let completeFrom: Int?
    private var read: [Int: ChangeSet?] = [:]

    init(database: Database, transaction: Transaction, completeFrom: Int?) {
        self.database = database
        self.transaction = transaction
        self.completeFrom = completeFrom
    }

    func changes(since version: Int) throws -> ChangeSet? {
        if let known = read[version] { return known }
        var changes: ChangeSet?
        if let completeFrom, version >= completeFrom, let log = database.changeLog, let meta = database.meta {
            changes = try ChangeLog.changes(after: version, in: transaction, log: log, meta: meta)
        }
        read[version] = .some(changes)
        return changes
    }
}

/// What an observer wants done after a round.
enum ObserverOutput {
    /// Run on the view's queue, after the view moved to the round's snapshot.
    case view(ViewDelivery, () -> Void)
    /// Run now, on the notifier's thread (frozen deliveries to async sequences).
    case now(() -> Void)
}

/// An observer, as the notifier drives it. It is made where its view belongs and handed to the
/// notifier by ``ChangeNotifier/add(_:onStop:)``; from then on only the notifier's thread calls
/// `process`, `fail` and `end`, and other threads read only its constant `id` and `delivery`.
protocol ChangeObserver: AnyObject {
    var id: Int { get }
    /// The version the observer has caught up with; `nil` before its first round.
    var version: Int? { get }
    /// The view queue it delivers to, if any: the view moves with every round it takes part in.
    var delivery: ViewDelivery? { get }
    func process(_ round: NotificationRound) throws -> ObserverOutput?
    /// The observer cannot be served: its last delivery reports `error`, and it stops.
    func fail(_ error: any Error) -> ObserverOutput
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
///
/// A round that fails as a whole (a full reader table, a map another process grew) is retried
/// at growing intervals; when rounds have failed for ``givingUpAfter`` in a row, every observer
/// gets the error as its last delivery. An observer whose own change cannot be worked out gets
/// its error at once, and stops; the others go on.
final class ChangeNotifier: @unchecked Sendable {
    // @unchecked: the mutable state shared between threads is `shared`, reached only through
    // `withShared` (under `lock`); the round state belongs to the notifier's thread: `loop`
    // makes it and passes it down, checked by `NotifierThreadState.checkThread()`. The
    // remaining stored properties are constants (`database` is set once, in init).

    private let path: String
    private let interval: Duration
    private weak let database: Database?
    /// Set once the thread (and its waiter) started: until then a commit has no one to wake,
    /// and a database nobody observes holds no pipe or inotify descriptor.
    private let isStarted = Atomic<Bool>(false)
    private let lock = NSCondition()
    private var shared = SharedState()

    /// How long rounds may fail in a row before observers are told: ten cross-process intervals.
    var givingUpAfter: Duration { interval * 10 }

    /// The state that threads registering, waking and waiting share with the notifier's thread.
    private struct SharedState {
        var observers: [Int: any ChangeObserver] = [:]
        var nextID = 1
        var silenced: [Int: Set<Int>] = [:]
        var requestedRounds = 0
        var completedRounds = 0
        /// The rounds through this number ran, or found nothing to do, without failing.
        var succeededRounds = 0
        var waiter: CommitWaiter?
        var isStopped = false
        /// A snapshot the next round must use instead of the latest (``runRound(using:timeout:)``).
        var providedSnapshot: Transaction?
    }

    init(database: Database) {
        self.path = database.configuration.path
        self.interval = database.configuration.crossProcessNotificationInterval
        self.database = database
    }

    private func withShared<Result>(_ body: (inout SharedState) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&shared)
    }

    /// A fresh observer ID.
    func makeID() -> Int {
        withShared { shared in
            defer { shared.nextID += 1 }
            return shared.nextID
        }
    }

    /// Registers `observer`; it gets its first round soon. The token removes it.
    func add(_ observer: any ChangeObserver, onStop: @escaping @Sendable () -> Void = {}) -> NotificationToken {
        let id = observer.id
        let starting: CommitWaiter? = withShared { shared in
            shared.observers[id] = observer
            guard shared.waiter == nil else { return nil }
            let made = CommitWaiter(path: path, interval: interval)
            shared.waiter = made
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
        withShared { _ = $0.observers.removeValue(forKey: id) }
        // The next round lets go of the snapshot (and the watch) if that was the last one.
        wake()
    }

    /// Whether any registered observer delivers to `delivery`.
    func hasObservers(of delivery: ViewDelivery) -> Bool {
        withShared { $0.observers.values.contains { $0.delivery === delivery } }
    }

    /// A commit landed in this process.
    func commitLanded() {
        if isStarted.load(ordering: .acquiring) { wake() }
    }

    func wake() {
        withShared { $0.waiter }?.wake()
    }

    /// The commit that made `version` must not notify `observerIDs`.
    func silence(version: Int, observerIDs: Set<Int>, replacing: Bool = false) {
        if replacing {
            withShared { _ = $0.silenced.removeValue(forKey: version) }
            return
        }
        guard !observerIDs.isEmpty else { return }
        withShared { $0.silenced[version, default: []].formUnion(observerIDs) }
    }

    /// Runs a round that starts after this call and waits for it (up to `timeout`).
    @discardableResult
    func runRound(timeout: Duration = .seconds(10)) -> Bool {
        runRound(using: nil, timeout: timeout)
    }

    /// Runs a round that reads `snapshot` (a read transaction this caller began) instead of the
    /// latest version, and waits for it: a silenced commit gets a round of its own this way.
    /// `false` when the round failed (it is retried; observers hear of the failure or of a later
    /// round) or did not end within `timeout`.
    @discardableResult
    func runRound(using snapshot: Transaction?, timeout: Duration = .seconds(10)) -> Bool {
        guard isStarted.load(ordering: .acquiring) else { return true }
        let target = withShared { shared in
            if let snapshot { shared.providedSnapshot = snapshot }
            shared.requestedRounds += 1
            return shared.requestedRounds
        }
        wake()
        let deadline = Date().addingTimeInterval(Double(timeout.components.seconds))
        lock.lock()
        defer { lock.unlock() }
        while shared.completedRounds < target && !shared.isStopped {
            if !lock.wait(until: deadline) { return false }
        }
        return shared.succeededRounds >= target
    }

    /// Ends the thread (the database is going away).
    func stop() {
        let ended = withShared { shared in
            shared.isStopped = true
            defer { shared.observers.removeAll() }
            return Array(shared.observers.values)
        }
        for observer in ended { observer.end() }
        wake()
    }

    // MARK: - The notifier thread

    /// What only the notifier's thread touches, from one round to the next.
    private struct NotifierThreadState {
        let thread = pthread_self()
        var snapshot: Snapshot?
        var version: Int?
        /// The environment this notifier announced itself on as a watcher (``ChangeWatch``), while it has observers.
        var watchedEnvironment: Environment?
        /// The version after which every commit is logged, once watching (`nil`: the log is not trusted).
        var logCompleteFrom: Int?
        /// When the rounds that keep failing began to fail, and how many did.
        var failingSince: ContinuousClock.Instant?
        var failures = 0

        func checkThread() {
            precondition(pthread_equal(thread, pthread_self()) != 0, "The notifier's state was used off its thread.")
        }
    }

    private func loop(waiter: CommitWaiter) {
        var state = NotifierThreadState()
        while !withShared({ $0.isStopped }) {
            let retry = runRound(&state)
            waiter.wait(atMost: retry)
        }
        state.snapshot = nil
        stopWatching(&state)
    }

    /// Announces this process as a watcher, so commits log their changes (waiting out the write in progress).
    private func startWatching(_ environment: Environment, _ state: inout NotifierThreadState) {
        state.watchedEnvironment = environment
        do {
            // Every commit after the version the barrier leaves is logged; invisible to other
            // processes (no lock file), their commits may not be, so the log is not trusted.
            let visible = try environment.startWatchingChanges()
            state.logCompleteFrom = visible ? environment.logTrustedAfter(try environment.lastTransactionID()) : nil
        } catch {
            // Not announced: the log is not trusted, and observers compare records instead.
            state.logCompleteFrom = nil
        }
    }

    /// Withdraws the watch: with no observer left, commits need not log.
    private func stopWatching(_ state: inout NotifierThreadState) {
        state.watchedEnvironment?.stopWatchingChanges()
        state.watchedEnvironment = nil
        state.logCompleteFrom = nil
    }

    /// Runs one round; returns how soon to try again when it failed.
    private func runRound(_ state: inout NotifierThreadState) -> Duration? {
        state.checkThread()
        let (active, serving, provided) = withShared { shared in
            defer { shared.providedSnapshot = nil }
            return (shared.observers, shared.requestedRounds, shared.providedSnapshot)
        }
        var succeeded = true
        defer {
            withShared { shared in
                shared.completedRounds = max(shared.completedRounds, serving)
                if succeeded { shared.succeededRounds = max(shared.succeededRounds, serving) }
                lock.broadcast()
            }
        }
        guard let database, !active.isEmpty else {
            forgetSilenced(through: .max)
            state.snapshot = nil
            state.version = nil
            state.failingSince = nil
            state.failures = 0
            stopWatching(&state)
            return nil
        }
        if state.watchedEnvironment == nil { startWatching(database.environment, &state) }
        // An observer whose view has not taken its last round yet waits: a view queues one
        // round (one pinned snapshot) at most, and catches up when it has drained.
        let ready = active.values.filter { $0.delivery?.hasPending != true }.sorted { $0.id < $1.id }
        let behind = ready.contains { $0.version == nil || $0.version != state.version }
        // A provided snapshot older than the last round's is of no use: rounds only move forward.
        let usable = provided.flatMap { provided in state.version.map { provided.id > $0 } ?? true ? provided : nil }
        do {
            if usable == nil, !behind, let version = state.version,
                try database.environment.lastTransactionID() == version
            {
                return nil
            }
            let transaction = try usable ?? database.environment.beginRead()
            try database.warm(transaction)
            transaction.isShared = true
            let new = Snapshot(owner: database, frozenAt: transaction)
            let newVersion = transaction.id
            if !behind, newVersion == state.version {
                // The meta page names a newer version than a read can see yet: a commit in another
                // process wrote it and has not yet published it in the lock file. Its last write to
                // the store file has woken us already, so look again in a moment, not at the next poll.
                return try database.environment.lastTransactionID() > newVersion ? .milliseconds(1) : nil
            }
            // The log of this round's own commits is read now: failing to, the round fails.
            let log = ChangeLogReader(
                database: database, transaction: transaction, completeFrom: state.logCompleteFrom)
            if let version = state.version { _ = try log.changes(since: version) }
            let mayKeep = !database.environment.hasPendingGrowth
            let round = NotificationRound(
                oldVersion: state.version, newVersion: newVersion, new: new, snapshot: transaction,
                silencedByVersion: silenced(through: newVersion), mayKeepSnapshot: mayKeep, log: log)
            state.failingSince = nil
            state.failures = 0
            // An observer whose view is still busy takes this round anyway when every commit in it was
            // made without notifying it: waiting would fold the silenced commit into a later, heard one.
            // Its view then queues one more round, which shows nothing.
            let silencedWaiting = active.values.filter { observer in
                observer.delivery?.hasPending == true && round.silences(observer.id, since: observer.version)
            }
            deliver(round, to: (ready + silencedWaiting).sorted { $0.id < $1.id })
            state.version = newVersion
            forgetSilenced(through: active.values.compactMap(\.version).min() ?? newVersion)
            // A round on a silenced write's own snapshot may have taken the wake-up of a later commit.
            if usable != nil { wake() }
            // Map growth waits for every read transaction of the process to end: let go of ours.
            state.snapshot = mayKeep ? new : nil
            return nil
        } catch {
            succeeded = false
            return failed(error, observers: Array(active.values), &state)
        }
    }

    /// Hands each ready observer's change to its view, or runs it now; an observer whose change
    /// cannot be worked out gets its error, and is removed.
    private func deliver(_ round: NotificationRound, to ready: [any ChangeObserver]) {
        var deliveries: [ObjectIdentifier: (delivery: ViewDelivery, work: [() -> Void])] = [:]
        var order: [ObjectIdentifier] = []
        func append(_ work: (() -> Void)?, to delivery: ViewDelivery) {
            let id = ObjectIdentifier(delivery)
            if deliveries[id] == nil {
                deliveries[id] = (delivery, [])
                order.append(id)
            }
            if let work { deliveries[id]!.work.append(work) }
        }
        for observer in ready {
            // Every observed view moves to the round's snapshot, whether or not its observers have news.
            if let delivery = observer.delivery { append(nil, to: delivery) }
            let output: ObserverOutput?
            do {
                output = try observer.process(round)
            } catch {
                withShared { _ = $0.observers.removeValue(forKey: observer.id) }
                output = observer.fail(error)
            }
            switch output {
            case .view(let delivery, let work): append(work, to: delivery)
            case .now(let work): work()
            case nil: break
            }
        }
        for id in order {
            let (delivery, work) = deliveries[id]!
            delivery.enqueue(snapshot: round.snapshot, work: work) { [weak self] in self?.wake() }
        }
    }

    /// A round failed: retry soon, sooner at first; once rounds have failed for
    /// ``givingUpAfter``, tell every observer and stop them.
    private func failed(_ error: any Error, observers: [any ChangeObserver], _ state: inout NotifierThreadState)
        -> Duration?
    {
        let now = ContinuousClock.now
        let since = state.failingSince ?? now
        state.failingSince = since
        state.failures += 1
        guard now - since >= givingUpAfter else {
            return min(.milliseconds(1 << min(state.failures, 16)), interval)
        }
        state.failingSince = nil
        state.failures = 0
        withShared { shared in
            for observer in observers { shared.observers.removeValue(forKey: observer.id) }
        }
        for observer in observers.sorted(by: { $0.id < $1.id }) {
            switch observer.fail(error) {
            case .view(let delivery, let work):
                delivery.enqueue(snapshot: nil, work: [work]) { [weak self] in self?.wake() }
            case .now(let work):
                work()
            }
        }
        return nil
    }

    /// The silenced observers of every version through `new`.
    private func silenced(through new: Int) -> [Int: Set<Int>] {
        withShared { $0.silenced.filter { $0.key <= new } }
    }

    /// Forgets the silenced observers of versions every observer has passed.
    private func forgetSilenced(through version: Int) {
        withShared { shared in shared.silenced = shared.silenced.filter { $0.key > version } }
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
