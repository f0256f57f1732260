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
    /// - Parameter keyPaths: property names, or a link and a property of what it reaches
    ///   (`"author.name"`); when given, changes to anything else are not reported. Without them,
    ///   every property counts, and a change to an object one link away reports the link property.
    /// - Parameter block: called on the view's queue with each change.
    /// - Throws: ``ObjDBError/objectInvalidated(type:)`` for an unmanaged or deleted object, and
    ///   what ``Results/observe(keyPaths:_:)`` throws.
    public func observe(keyPaths: [String]? = nil, _ block: @escaping (ObjectChange<Self>) -> Void) throws
        -> NotificationToken
    {
        guard let accessor, accessor.owner == nil, accessor.isValid else {
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
        let observer = ObjectObserver(
            id: notifier.makeID(), binding: binding, key: accessor.key,
            observed: try ObservedKeyPaths(keyPaths: keyPaths, binding: binding, database: database),
            delivery: snapshot.deliveryOrMake(queue: queue, notifier: notifier), object: self,
            version: try snapshot.readVersion(), block: block)
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
    /// Iterate it from any task; it ends when the iterating task is cancelled. An unmanaged or
    /// deleted object gives a sequence that ends at once.
    public var changes: AsyncStream<ObjectChange<Frozen<Self>>> {
        let (stream, continuation) = AsyncStream<ObjectChange<Frozen<Self>>>.makeStream(bufferingPolicy: .unbounded)
        guard let accessor, accessor.owner == nil, accessor.isValid else {
            continuation.finish()
            return stream
        }
        let database = ReadView(snapshot: accessor.snapshot).database
        let notifier = database.notifier
        let observer = ObjectStreamObserver<Self>(
            id: notifier.makeID(), binding: accessor.binding, key: accessor.key, objectKey: accessor.objectKey,
            database: database, version: try? accessor.snapshot.readVersion(), continuation: continuation)
        let token = notifier.add(observer)
        continuation.onTermination = { _ in token.invalidate() }
        return stream
    }

    /// An immutable copy of the object at its view's version, readable from any thread.
    ///
    /// - Throws: ``ObjDBError/objectInvalidated(type:)`` for an unmanaged or deleted object.
    /// - Precondition: called where the object's view belongs.
    public func freeze() throws -> Frozen<Self> {
        guard let accessor, accessor.owner == nil, accessor.isValid else {
            throw ObjDBError.objectInvalidated(type: DiscoveredType.name(of: Self.self))
        }
        let view = try ReadView(snapshot: accessor.snapshot).freeze()
        guard let frozen = try view.snapshot.object(Self.self, key: accessor.objectKey) else {
            throw ObjDBError.objectInvalidated(type: DiscoveredType.name(of: Self.self))
        }
        return Frozen(frozen)
    }
}

/// The object API that needs the concrete class (`Self`): observation and freezing.
/// ``Object`` conforms; there is nothing to implement.
public protocol ObjectObservable: AnyObject {}

extension Object: ObjectObservable {}
