import Dispatch
import Foundation

/// Hands a view the notifier's work: each round's snapshot and the blocks to run with it,
/// run on the view's queue in the order the rounds happened.
///
/// The view moves to a round's snapshot (autorefresh) right before that round's blocks run,
/// so the results they see are exactly the ones the change describes. A view in a write
/// transaction holds its rounds until the write ends.
final class ViewDelivery: @unchecked Sendable {
    // @unchecked: `pending` and `afterDelivery` are guarded by `lock`, and reached only through
    // `withPending`; the view's `snapshot` is used only on `queue` (the view's own, or the main
    // queue of a view made on the main thread), checked with `dispatchPrecondition` wherever it
    // is read. `queue` and `notifier` are constants.
    let queue: DispatchQueue
    private weak let snapshot: Snapshot?
    private weak let notifier: ChangeNotifier?
    private let lock = NSLock()
    private var pending: [(snapshot: Transaction?, work: [() -> Void])] = []
    /// Called after rounds were delivered: the notifier may hold back observers until then.
    private var afterDelivery: (@Sendable () -> Void)?

    init(queue: DispatchQueue, snapshot: Snapshot, notifier: ChangeNotifier) {
        self.queue = queue
        self.snapshot = snapshot
        self.notifier = notifier
    }

    private func withPending<Result>(
        _ body: (inout [(snapshot: Transaction?, work: [() -> Void])], inout (@Sendable () -> Void)?) -> Result
    ) -> Result {
        lock.withLock { body(&pending, &afterDelivery) }
    }

    /// Queues a round's work and schedules its delivery on the view's queue; without a snapshot
    /// (a round that failed), the view stays where it is.
    func enqueue(snapshot: Transaction?, work: [() -> Void], afterDelivery: @escaping @Sendable () -> Void) {
        withPending { pending, after in
            pending.append((snapshot, work))
            after = afterDelivery
        }
        queue.async { self.drain() }
    }

    /// Whether rounds wait to be delivered.
    var hasPending: Bool { withPending { pending, _ in !pending.isEmpty } }

    /// Runs every waiting round; call on the view's queue.
    func drain() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard let snapshot, !snapshot.isClosed else {
            withPending { pending, _ in pending.removeAll() }
            return
        }
        // One round at a time: a block that refreshes or writes drains the later rounds itself,
        // and this loop must not then run an older one after them.
        var delivered = false
        defer { if delivered, let afterDelivery = withPending({ $1 }) { afterDelivery() } }
        while !snapshot.isWriting, !snapshot.isClosed {
            let round = withPending { pending, _ in pending.isEmpty ? nil : pending.removeFirst() }
            guard let round else { return }
            delivered = true
            // Never backwards: a view that moved by itself meanwhile (a refresh whose round failed) stays.
            if let next = round.snapshot, (snapshot.transaction?.id ?? 0) <= next.id { snapshot.adopt(next) }
            for work in round.work { work() }
        }
    }
}

extension ViewDelivery: SnapshotObservation {
    func deliverPending() {
        drain()
    }

    func resumeAfterWrite() {
        if hasPending { queue.async { self.drain() } }
    }

    func catchUp() -> Bool {
        dispatchPrecondition(condition: .onQueue(queue))
        guard let notifier else { return false }
        let ran = notifier.runRound()
        drain()
        // A round that failed did not move the view: `refresh` moves it (or throws why it cannot).
        guard ran else { return false }
        // A view whose observers are all gone is no longer moved by the notifier.
        return hasPending || notifier.hasObservers(of: self)
    }
}
