import Dispatch

/// Keeps one query's keys up to date across rounds and works out each round's diff.
/// Used on the notifier's thread only.
final class ResultsTracker {
    let differ: ResultsDiffer
    private(set) var keys: KeyChunks?
    private(set) var version: Int?
    /// A snapshot at `version`, when one may be kept: the old side of the next diff, so an
    /// observer that missed rounds still compares exactly.
    private var baseline: Snapshot?

    init(differ: ResultsDiffer) {
        self.differ = differ
    }

    enum Step {
        case initial(KeyChunks)
        /// `diff` is `nil` when the round changed nothing the query reads.
        case update(KeyChunks, ResultsDiff?)
    }

    /// Moves the keys to `round`'s version; a throw leaves them (and the version) where they were.
    func advance(_ round: NotificationRound) throws -> Step {
        guard let keys, let version else {
            let keys = try differ.keys(in: round.new)
            moved(to: round, keys: keys)
            return .initial(keys)
        }
        // An observer that missed rounds (its view was busy) reads the log from its own version.
        let changes = try round.changes(since: version)
        let diff = try differ.diff(from: keys, changes: changes, old: baseline, new: round.new)
        let newKeys = diff?.newKeys ?? keys
        moved(to: round, keys: newKeys)
        return .update(newKeys, diff)
    }

    private func moved(to round: NotificationRound, keys: KeyChunks) {
        self.keys = keys
        version = round.newVersion
        baseline = round.mayKeepSnapshot ? round.new : nil
    }
}

/// An observer of a live ``Results``: delivers on its view's queue, after moving the view to
/// the round's snapshot and installing the new keys, so the results need no query run.
final class ResultsObserver<Element: Object>: ChangeObserver {
    let id: Int
    private let tracker: ResultsTracker
    private let deliveryTarget: ViewDelivery
    private let target: DeliveryTarget<Results<Element>, CollectionChange<Results<Element>>>
    let isActive = ActiveFlag()

    init(
        id: Int, differ: ResultsDiffer, delivery: ViewDelivery, results: Results<Element>,
        block: @escaping (CollectionChange<Results<Element>>) -> Void
    ) {
        self.id = id
        self.tracker = ResultsTracker(differ: differ)
        self.deliveryTarget = delivery
        self.target = DeliveryTarget(subject: results, block: block, queue: delivery.queue)
    }

    var version: Int? { tracker.version }
    var delivery: ViewDelivery? { deliveryTarget }

    func process(_ round: NotificationRound) throws -> ObserverOutput? {
        let step = try tracker.advance(round)
        let target = self.target
        let isActive = self.isActive
        let silenced = round.silenced.contains(id)
        return .view(deliveryTarget) {
            guard isActive.isActive else { return }
            let results = target.subject
            let block = target.block
            switch step {
            case .initial(let keys):
                results.keyList.install(keys)
                block(.initial(results))
            case .update(let keys, let diff):
                results.keyList.install(keys)
                guard let diff, !diff.isEmpty, !silenced else { return }
                block(
                    .update(
                        results, deletions: diff.deletions, insertions: diff.insertions,
                        modifications: diff.modifications))
            }
        }
    }

    func fail(_ error: any Error) -> ObserverOutput {
        let target = self.target
        let isActive = self.isActive
        return .view(deliveryTarget) {
            guard isActive.isActive else { return }
            isActive.clear()
            target.block(.error(error))
        }
    }
}

/// What an observer delivers to: the observed value and the block, used only on the view's queue.
final class DeliveryTarget<Subject, Change>: @unchecked Sendable {
    // @unchecked: made where the view belongs and handed to the notifier, which only passes it
    // to work that runs on `queue`; `subject` and `block` are read there alone, which
    // `dispatchPrecondition` checks (as NIO's `NIOLoopBound` does for its event loop).
    private let boundSubject: Subject
    private let boundBlock: (Change) -> Void
    private let queue: DispatchQueue

    init(subject: Subject, block: @escaping (Change) -> Void, queue: DispatchQueue) {
        self.boundSubject = subject
        self.boundBlock = block
        self.queue = queue
    }

    /// The observed value; only on `queue`.
    var subject: Subject {
        dispatchPrecondition(condition: .onQueue(queue))
        return boundSubject
    }

    /// The observer's block; only on `queue`.
    var block: (Change) -> Void {
        dispatchPrecondition(condition: .onQueue(queue))
        return boundBlock
    }
}

/// An observer feeding an async sequence with frozen results: delivers on the notifier's thread.
final class ResultsStreamObserver<Element: Object>: ChangeObserver {
    let id: Int
    private let tracker: ResultsTracker
    private let continuation: AsyncStream<CollectionChange<FrozenResults<Element>>>.Continuation

    init(
        id: Int, differ: ResultsDiffer,
        continuation: AsyncStream<CollectionChange<FrozenResults<Element>>>.Continuation
    ) {
        self.id = id
        self.tracker = ResultsTracker(differ: differ)
        self.continuation = continuation
    }

    var version: Int? { tracker.version }
    var delivery: ViewDelivery? { nil }

    func end() {
        continuation.finish()
    }

    func process(_ round: NotificationRound) throws -> ObserverOutput? {
        let step = try tracker.advance(round)
        let view = FrozenView(snapshot: round.new)
        let continuation = self.continuation
        switch step {
        case .initial(let keys):
            return .now { continuation.yield(.initial(FrozenResults(view: view, keys: keys))) }
        case .update(let keys, let diff):
            guard let diff, !diff.isEmpty, !round.silenced.contains(id) else { return nil }
            return .now {
                continuation.yield(
                    .update(
                        FrozenResults(view: view, keys: keys), deletions: diff.deletions, insertions: diff.insertions,
                        modifications: diff.modifications))
            }
        }
    }

    func fail(_ error: any Error) -> ObserverOutput {
        let continuation = self.continuation
        return .now {
            continuation.yield(.error(error))
            continuation.finish()
        }
    }
}
