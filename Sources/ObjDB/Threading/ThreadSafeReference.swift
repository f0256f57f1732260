import Synchronization

/// Carries an object or a ``Results`` to another thread or task, to be resolved there in a
/// view of the same database.
///
/// ```swift
/// let reference = try ThreadSafeReference(to: tweet)
/// Task.detached {
///     let view = try db.view()
///     if let tweet = try view.resolve(reference) { print(tweet.text) }
/// }
/// ```
///
/// A reference resolves once; the view it resolves in is first moved to at least the version
/// the reference was made at, so the object or results are never older than the original.
public final class ThreadSafeReference<Confined>: Sendable {
    enum Payload: Sendable {
        case object(type: String, key: [UInt8])
        case results(type: String, spec: QuerySpec)
    }

    let database: Database
    let version: Int
    let payload: Payload
    private let isResolved = Atomic<Bool>(false)

    init(database: Database, version: Int, payload: Payload) {
        self.database = database
        self.version = version
        self.payload = payload
    }

    /// Marks the reference used; throws if it already was.
    func claim() throws {
        if isResolved.exchange(true, ordering: .acquiringAndReleasing) {
            throw ObjDBError.invalidThreadSafeReference(reason: "it was resolved already; a reference resolves once")
        }
    }
}

extension ThreadSafeReference where Confined: Object {
    /// A reference to a managed object.
    ///
    /// - Throws: ``ObjDBError/objectInvalidated(type:)`` for an unmanaged or deleted object.
    public convenience init(to object: Confined) throws {
        guard let accessor = object.accessor, accessor.owner == nil, try accessor.exists() else {
            throw ObjDBError.objectInvalidated(type: DiscoveredType.name(of: Confined.self))
        }
        let snapshot = accessor.snapshot
        self.init(
            database: ReadView(snapshot: snapshot).database, version: try snapshot.readVersion(),
            payload: .object(type: accessor.binding.schema.name, key: accessor.key))
    }
}

extension ThreadSafeReference {
    /// A reference to the query behind `results`: it resolves to the same query in another view.
    public convenience init<Element>(to results: Results<Element>) throws where Confined == Results<Element> {
        self.init(
            database: ReadView(snapshot: results.snapshot).database, version: try results.snapshot.readVersion(),
            payload: .results(type: results.binding.schema.name, spec: results.spec))
    }
}

extension ReadView {
    /// The object `reference` carries, as this view sees it, or `nil` if it was deleted since.
    ///
    /// - Throws: ``ObjDBError/invalidThreadSafeReference(reason:)`` when resolved already or
    ///   made for another database.
    /// - Precondition: called where the view belongs.
    public func resolve<T: Object>(_ reference: ThreadSafeReference<T>) throws -> T? {
        try prepareToResolve(reference)
        guard case .object(_, let key) = reference.payload else { return nil }
        let binding = try database.binding(for: T.self)
        guard let objectKey = binding.objectKey(fromTableKey: key) else { return nil }
        return try snapshot.object(T.self, key: objectKey)
    }

    /// The results `reference` carries, run in this view.
    ///
    /// Optional, as the object form and Realm's `resolve` are, so both read alike
    /// (`try view.resolve(reference)?.count`); it is `nil` only if the reference holds no results.
    ///
    /// - Throws: ``ObjDBError/invalidThreadSafeReference(reason:)`` when resolved already or
    ///   made for another database.
    /// - Precondition: called where the view belongs.
    public func resolve<T: Object>(_ reference: ThreadSafeReference<Results<T>>) throws -> Results<T>? {
        try prepareToResolve(reference)
        guard case .results(_, let spec) = reference.payload else { return nil }
        return Results(snapshot: snapshot, binding: try database.binding(for: T.self), spec: spec)
    }

    private func prepareToResolve<Confined>(_ reference: ThreadSafeReference<Confined>) throws {
        snapshot.confinement.require("resolve")
        guard reference.database === database else {
            throw ObjDBError.invalidThreadSafeReference(
                reason: "it was made for another Database instance (\(reference.database.configuration.path))")
        }
        if !snapshot.isWriting, !snapshot.isFrozen, version < reference.version { try refresh() }
        // Claimed last: a refresh that fails leaves the reference usable.
        try reference.claim()
    }
}
