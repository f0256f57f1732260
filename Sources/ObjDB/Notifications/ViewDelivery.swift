import Dispatch
import Foundation

/// Hands a view the notifier's work: each round's snapshot and the blocks to run with it,
/// run on the view's queue in the order the rounds happened.
///
/// The view moves to a round's snapshot (autorefresh) right before that round's blocks run,
/// so the results they see are exactly the ones the change describes. A view in a write
/// transaction holds its rounds until the write ends.
final class ViewDelivery: @unchecked Sendable {
    // @unchecked: `pending` and `afterDelivery` are guarded by `lock`; `snapshot` is used only on `queue`.
    let queue: DispatchQueue
    private weak var snapshot: Snapshot?
    private weak var notifier: ChangeNotifier?
    private let lock = NSLock()
    private var pending: [(snapshot: Transaction, work: [() -> Void])] = []
    /// Called after rounds were delivered: the notifier may hold back observers until then.
    private var afterDelivery: (@Sendable () -> Void)?

    init(queue: DispatchQueue, snapshot: Snapshot, notifier: ChangeNotifier) {
        self.queue = queue
        self.snapshot = snapshot
        self.notifier = notifier
    }

    /// Queues a round's work and schedules its delivery on the view's queue.
    func enqueue(snapshot: Transaction, work: [() -> Void], afterDelivery: @escaping @Sendable () -> Void) {
        lock.withLock {
            pending.append((snapshot, work))
            self.afterDelivery = afterDelivery
        }
        queue.async { self.drain() }
    }

    /// Whether rounds wait to be delivered.
    var hasPending: Bool { lock.withLock { !pending.isEmpty } }

    /// Runs every waiting round; call on the view's queue.
    func drain() {
        guard let snapshot else {
            lock.withLock { pending.removeAll() }
            return
        }
        if snapshot.isClosed {
            lock.withLock { pending.removeAll() }
            return
        }
        // One round at a time: a block that refreshes or writes drains the later rounds itself,
        // and this loop must not then run an older one after them.
        var delivered = false
        defer { if delivered, let afterDelivery = lock.withLock({ afterDelivery }) { afterDelivery() } }
        while !snapshot.isWriting, !snapshot.isClosed {
            let round = lock.withLock { pending.isEmpty ? nil : pending.removeFirst() }
            guard let round else { return }
            delivered = true
            snapshot.adopt(round.snapshot)
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
        guard let notifier else { return false }
        notifier.runRound()
        drain()
        // A view whose observers are all gone is no longer moved by the notifier.
        return hasPending || notifier.hasObservers(of: self)
    }
}
