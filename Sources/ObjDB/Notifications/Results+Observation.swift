import Dispatch

extension Results {
    /// Calls `block` with the results now (`.initial`) and after every commit that changes them
    /// (`.update`), on the view's queue; the view moves to each commit's version first, so
    /// these results (and the caller's copy of them) are live.
    ///
    /// ```swift
    /// let view = try db.view(queue: .main)  // or any view made on the main thread
    /// let token = try view.objects(Tweet.self).sorted(byKeyPath: "createdAt").observe { change in
    ///     if case .update(_, let deletions, let insertions, let modifications) = change { … }
    /// }
    /// ```
    ///
    /// A commit that changes no object the query reads calls nothing. Keep the token: delivery
    /// stops when it is invalidated or released. If the change cannot be worked out, `block`
    /// gets `.error`, its last call.
    ///
    /// The block runs on the view's queue, so that queue must run. A command-line program
    /// either observes from a view made on the main thread and then runs the main run loop
    /// (`RunLoop.main.run()` or `dispatchMain()`; with the main thread blocked or exited,
    /// nothing arrives), or makes its view with ``Database/view(queue:)`` on a queue of its own,
    /// calling `observe` on that queue. ``changes`` needs neither: iterate it in a task.
    ///
    /// - Parameter keyPaths: property names, or a link and a property of what it reaches
    ///   (`"author.name"`); when given, a change to anything else of an object that stays in
    ///   place is not reported. Without them, every property counts, and so does any change to
    ///   an object one link away.
    /// - Parameter block: called on the view's queue with `.initial`, then with each change.
    /// - Throws: ``ObjDBError/unknownProperty(type:property:)`` for an unknown key path.
    /// - Precondition: the view is live, has a queue to deliver on (made with
    ///   ``Database/view(queue:)``, or on the main thread), and this is called there. A view
    ///   made on another thread, or in a task off the main thread, has none: `observe` stops
    ///   the program; use ``observe(on:keyPaths:_:)`` or ``changes``.
    public func observe(
        keyPaths: [String]? = nil, _ block: @escaping (CollectionChange<Results<Element>>) -> Void
    ) throws -> NotificationToken {
        snapshot.confinement.require("observe")
        guard let queue = snapshot.confinement.deliveryQueue else {
            preconditionFailure(Self.noDeliveryQueueMessage)
        }
        return try register(on: queue, results: self, keyPaths: keyPaths, block: block)
    }

    /// Calls `block` on `queue` with results of a view that belongs to `queue`, now and after
    /// every commit that changes them: the same query, live on that queue.
    ///
    /// When `queue` is this view's own queue, the block gets these results. This works from a
    /// view on any thread, a command-line program's included: `queue` must run (a queue of its
    /// own does; `.main` needs the main run loop).
    public func observe(
        on queue: DispatchQueue, keyPaths: [String]? = nil,
        _ block: @escaping @Sendable (CollectionChange<Results<Element>>) -> Void
    ) throws -> NotificationToken {
        if let own = snapshot.confinement.deliveryQueue, own === queue {
            return try observe(keyPaths: keyPaths, block)
        }
        snapshot.confinement.require("observe")
        precondition(!snapshot.isFrozen, Self.frozenObservationMessage)
        let queueSnapshot = Snapshot(owner: snapshot.owner)
        queueSnapshot.confinement = .queue(queue, QueueIdentity.of(queue))
        return try register(
            on: queue, results: Results(snapshot: queueSnapshot, binding: binding, spec: spec), keyPaths: keyPaths,
            block: block)
    }

    /// The results as an async sequence of frozen snapshots: the first element is `.initial`,
    /// each later one an `.update` for a commit that changed them.
    ///
    /// ```swift
    /// for await change in view.objects(Tweet.self).changes {
    ///     print(change.collection.count)
    /// }
    /// ```
    ///
    /// Iterate it from any task, in any program: it needs no run loop. The sequence ends when
    /// the iterating task is cancelled, or after an `.error` element.
    public var changes: AsyncStream<CollectionChange<FrozenResults<Element>>> {
        let database = ReadView(snapshot: snapshot).database
        let differ = ResultsDiffer(query: query, database: database)
        let (stream, continuation) = AsyncStream<CollectionChange<FrozenResults<Element>>>.makeStream(
            bufferingPolicy: .unbounded)
        let notifier = database.notifier
        let observer = ResultsStreamObserver(id: notifier.makeID(), differ: differ, continuation: continuation)
        let token = notifier.add(observer)
        continuation.onTermination = { _ in token.invalidate() }
        return stream
    }

    /// Registers an observer delivering `results` (these, or the same query in a view for `queue`).
    private func register(
        on queue: DispatchQueue, results: Results<Element>, keyPaths: [String]?,
        block: @escaping (CollectionChange<Results<Element>>) -> Void
    ) throws -> NotificationToken {
        let snapshot = results.snapshot
        precondition(!snapshot.isFrozen, Self.frozenObservationMessage)
        let database = ReadView(snapshot: snapshot).database
        let differ = ResultsDiffer(
            query: results.query, database: database,
            observed: try ObservedKeyPaths(keyPaths: keyPaths, binding: binding, database: database))
        let delivery = snapshot.deliveryOrMake(queue: queue, notifier: database.notifier)
        let notifier = database.notifier
        let observer = ResultsObserver(
            id: notifier.makeID(), differ: differ, delivery: delivery, results: results, block: block)
        let isActive = observer.isActive
        return notifier.add(observer) { isActive.clear() }
    }
}

extension Snapshot {
    /// The delivery of this snapshot's notifications, made on first use.
    func deliveryOrMake(queue: DispatchQueue, notifier: ChangeNotifier) -> ViewDelivery {
        if let delivery = observation as? ViewDelivery { return delivery }
        let made = ViewDelivery(queue: queue, snapshot: self, notifier: notifier)
        observation = made
        return made
    }
}

extension Results {
    /// Why `observe` stopped the program on a view that has nowhere to deliver.
    static var noDeliveryQueueMessage: String {
        "observe needs a queue to deliver on: open the view with view(queue:) or on the main thread "
            + "(and run its run loop), or use the changes async sequence."
    }

    /// Why `observe` stopped the program on a frozen view.
    static var frozenObservationMessage: String {
        "A frozen view, object or results cannot be observed: it never changes; observe a live view."
    }
}
