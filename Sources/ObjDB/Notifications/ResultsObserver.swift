import Synchronization

/// Keeps one query's keys up to date across rounds and works out each round's diff.
/// Used on the notifier's thread only.
final class ResultsTracker {
    let differ: ResultsDiffer
    private(set) var keys: KeyChunks?
    private(set) var version: Int?

    init(differ: ResultsDiffer) {
        self.differ = differ
    }

    enum Step {
        case initial(KeyChunks)
        /// `diff` is `nil` when the round changed nothing the query reads.
        case update(KeyChunks, ResultsDiff?)
    }

    /// Moves the keys to `round`'s version; a throw leaves them (and the version) where they were,
    /// so the next round compares from there.
    func advance(_ round: NotificationRound) throws -> Step {
        guard let keys else {
            let keys = try differ.keys(in: round.new)
            self.keys = keys
            version = round.newVersion
            return .initial(keys)
        }
        // An observer that missed rounds (its view was busy, or a round failed) reads the log from its own version.
        let (changes, old) = round.changes(forObserverAt: version ?? round.oldVersion ?? 0)
        let diff = try differ.diff(from: keys, changes: changes, old: old, new: round.new)
        if let diff { self.keys = diff.newKeys }
        version = round.newVersion
        return .update(self.keys!, diff)
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
        self.target = DeliveryTarget(subject: results, block: block)
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
}

/// What an observer delivers to, used only on the view's queue: the observed value and the block.
final class DeliveryTarget<Subject, Change>: @unchecked Sendable {
    // @unchecked: created on the view's thread, then used only in work run on the view's queue.
    let subject: Subject
    let block: (Change) -> Void

    init(subject: Subject, block: @escaping (Change) -> Void) {
        self.subject = subject
        self.block = block
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
}
