import Dispatch

extension ObjectObservable where Self: Object {
    /// Calls `block` on the view's queue after every commit that changes this object
    /// (`.change`, naming the changed properties with their old and new values) or deletes
    /// it (`.deleted`, the last call).
    ///
    /// ```swift
    /// let token = try user.observe(keyPaths: ["followersCount"]) { change in
    ///     if case .change(let user, let properties) = change { print(user.screenName, properties) }
    /// }
    /// ```
    ///
    /// Every commit after the version the object reads when `observe` is called is reported,
    /// including one made right after it returns; the first call is the first change (there is
    /// no `.initial`). If a change cannot be worked out, `block` gets `.error`, its last call.
    ///
    /// The block runs on the view's queue, so that queue must run. A command-line program
    /// either observes from a view made on the main thread and then runs the main run loop
    /// (`RunLoop.main.run()` or `dispatchMain()`), or makes its view with
    /// ``Database/view(queue:)`` on a queue of its own and observes on that queue. ``changes``
    /// needs neither: iterate it in a task.
    ///
    /// - Parameter keyPaths: property names, or a link and a property of what it reaches
    ///   (`"author.name"`); when given, changes to anything else are not reported. Without them,
    ///   every property counts, and a change to an object one link away reports the link property.
    /// - Parameter block: called on the view's queue with each change.
    /// - Throws: ``ObjDBError/objectInvalidated(type:)`` for an unmanaged or deleted object, and
    ///   what ``Results/observe(keyPaths:_:)`` throws.
    /// - Precondition: the object's view is live, has a queue to deliver on (made with
    ///   ``Database/view(queue:)``, or on the main thread), and this is called there. A view
    ///   made on another thread, or in a task off the main thread, has none: `observe` stops
    ///   the program; use ``changes``.
    public func observe(keyPaths: [String]? = nil, _ block: @escaping (ObjectChange<Self>) -> Void) throws
        -> NotificationToken
    {
        guard let accessor, accessor.owner == nil, try accessor.exists() else {
            throw ObjDBError.objectInvalidated(type: DiscoveredType.name(of: Self.self))
        }
        let snapshot = accessor.snapshot
        snapshot.confinement.require("observe")
        precondition(!snapshot.isFrozen, Results<Object>.frozenObservationMessage)
        let database = ReadView(snapshot: snapshot).database
        guard let queue = snapshot.confinement.deliveryQueue else {
            preconditionFailure(Results<Object>.noDeliveryQueueMessage)
        }
        let binding = accessor.binding
        let notifier = database.notifier
        // Changes are reported from the version the object reads now, whatever the notifier's
        // thread has seen yet: the tracker keeps the object's record at that version.
        let tracker = try ObjectChangeTracker(
            binding: binding, key: accessor.key,
            observed: try ObservedKeyPaths(keyPaths: keyPaths, binding: binding, database: database),
            baseline: try snapshot.frozenBaseline(), isWriting: snapshot.isWriting)
        let observer = ObjectObserver(
            id: notifier.makeID(), tracker: tracker,
            delivery: snapshot.deliveryOrMake(queue: queue, notifier: notifier), object: self, block: block)
        let isActive = observer.isActive
        return notifier.add(observer) { isActive.clear() }
    }

    /// The object's changes as an async sequence of frozen copies: a `.change` after each commit
    /// that changes it (or an object one link away), and `.deleted`, the last element, when it
    /// is deleted.
    ///
    /// ```swift
    /// for await change in user.changes {
    ///     if case .change(let user, let properties) = change { print(user.screenName, properties.map(\.name)) }
    /// }
    /// ```
    ///
    /// Iterate it from any task; it ends when the iterating task is cancelled. It reports every
    /// commit after the version the object reads when `changes` is called. An unmanaged or
    /// deleted object gives a sequence that ends at once; one whose changes cannot be worked
    /// out ends with `.error`.
    public var changes: AsyncStream<ObjectChange<Frozen<Self>>> {
        let (stream, continuation) = AsyncStream<ObjectChange<Frozen<Self>>>.makeStream(bufferingPolicy: .unbounded)
        guard let accessor, accessor.owner == nil, accessor.isValid else {
            continuation.finish()
            return stream
        }
        let database = ReadView(snapshot: accessor.snapshot).database
        let notifier = database.notifier
        let tracker: ObjectChangeTracker
        do {
            tracker = try ObjectChangeTracker(
                binding: accessor.binding, key: accessor.key, observed: .everything(of: accessor.binding, in: database),
                baseline: try accessor.snapshot.frozenBaseline(), isWriting: accessor.snapshot.isWriting)
        } catch {
            continuation.yield(.error(error))
            continuation.finish()
            return stream
        }
        let observer = ObjectStreamObserver<Self>(
            id: notifier.makeID(), tracker: tracker, objectKey: accessor.objectKey, continuation: continuation)
        let token = notifier.add(observer)
        continuation.onTermination = { _ in token.invalidate() }
        return stream
    }
}

extension Snapshot {
    /// A frozen snapshot of the committed version this one reads: its own read transaction,
    /// shared, or during a write, a read of the version the write began from (no other write
    /// can commit while this one holds LMDB's write lock).
    func frozenBaseline() throws -> Snapshot {
        if isFrozen { return self }
        guard isWriting else { return Snapshot(owner: owner, frozenAt: try shareTransaction()) }
        let read = try catalog.environment.beginRead()
        try catalog.warm(read)
        read.isShared = true
        return Snapshot(owner: owner, frozenAt: read)
    }
}
