import Synchronization

/// Keeps a notification block registered: delivery stops when the token is invalidated or released.
///
/// ```swift
/// let token = try tweets.observe { change in … }
/// // later
/// token.invalidate()
/// ```
public final class NotificationToken: Sendable {
    private let stop: Lock<(@Sendable () -> Void)?>
    /// The ID of the observer the token controls, for ``Database/write(withoutNotifying:_:)``.
    let observerID: Int

    init(observerID: Int, stop: @escaping @Sendable () -> Void) {
        self.observerID = observerID
        self.stop = Lock(stop)
    }

    deinit {
        invalidate()
    }

    /// Stops delivery; no block runs after this returns on the delivering thread. Calling it again does nothing.
    public func invalidate() {
        let stop = self.stop.withLock { stop in
            let current = stop
            stop = nil
            return current
        }
        stop?()
    }
}

/// Whether an observer still delivers: cleared by its token, read on the delivering queue.
final class ActiveFlag: Sendable {
    private let state = Atomic<Bool>(true)

    var isActive: Bool { state.load(ordering: .acquiring) }

    func clear() {
        state.store(false, ordering: .releasing)
    }
}
