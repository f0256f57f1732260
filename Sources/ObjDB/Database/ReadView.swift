/// A consistent, read-only view of a database: one MVCC snapshot, which stays
/// put while others commit, until ``refresh()``.
///
/// ```swift
/// let view = try db.view()
/// let tweet = view.object(ofType: Tweet.self, forPrimaryKey: 368_780_970_888_925_185)
/// print(tweet?.text ?? "gone")
/// ```
///
/// Objects read from a view belong to it: they read lazily from its snapshot.
/// ``write(_:)`` advances the view to the latest state and makes its objects
/// writable for the duration of the write, as a Realm does.
///
/// - Warning: A view is not `Sendable`: use it on one thread or task. Pass
///   primary keys to others.
///
/// ## Topics
///
/// ### Reading objects
/// - ``objects(_:)``
/// - ``object(ofType:forPrimaryKey:)``
/// - ``database``
/// - ``version``
///
/// ### Moving on and writing
/// - ``refresh()``
/// - ``write(_:)``
///
/// ### Crossing threads
/// - ``freeze()``
/// - ``isFrozen``
/// - ``resolve(_:)-(ThreadSafeReference<T>)``
/// - ``resolve(_:)-(ThreadSafeReference<Results<T>>)``
///
/// ### Reading by name
/// - ``dynamicObjects(_:)``
/// - ``dynamicObjects(_:filter:arguments:sortedBy:limit:)``
/// - ``dynamicObject(_:forPrimaryKey:)``
/// - ``count(_:)``
/// - ``backlinks(of:)``
/// - ``explainDynamicQuery(_:filter:arguments:sortedBy:)``
public final class ReadView {
    let snapshot: Snapshot
    /// The database the view reads.
    public let database: Database
    /// The object the last point read returned, for the next one to reuse once the caller lets go.
    private var recycledObject: ObjectBase?

    init(snapshot: Snapshot) {
        self.snapshot = snapshot
        // Snapshots are made by databases only.
        self.database = snapshot.owner as! Database
    }

    /// The object of `type` whose primary key is `key`, or `nil`.
    ///
    /// It cannot throw: a fault on the way (a damaged key or record) reads as `nil` and goes to
    /// ``Configuration/faultHandler``.
    public func object<T: Object>(ofType type: T.Type, forPrimaryKey key: some PrimaryKeyValue) -> T? {
        do {
            // Taken out of the view, so the slot holds the only reference when the caller let go.
            var recycled: T?
            if let last = recycledObject, ObjectIdentifier(Swift.type(of: last)) == ObjectIdentifier(T.self) {
                recycled = unsafeDowncast(last, to: T.self)
            }
            recycledObject = nil
            defer { recycledObject = recycled }
            return try snapshot.object(type, key: key._objectKey, recycling: &recycled)
        } catch {
            snapshot.catalog.faults.report(error)
            return nil
        }

    }

    /// Moves the view to the latest committed state; its objects then read that state.
    ///
    /// A view with observers first lets the notifier catch up, and runs their blocks for
    /// every change on the way, before this returns.
    ///
    /// - Throws: ``ObjDBError/tooManyLiveVersions(path:live:maximum:oldest:)`` when the new
    ///   version would pass the configured limit.
    /// - Precondition: called on the view's thread or queue.
    public func refresh() throws {
        snapshot.confinement.require("refresh")
        guard !snapshot.isWriting else { return }
        // Checked before letting go of the snapshot: a refused refresh leaves the view as it was.
        try database.checkLiveVersions()
        // The notifier moves an observed view, so its observers hear of every change it sees.
        if let observation = snapshot.observation, observation.catchUp() { return }
        snapshot.refresh()
        _ = try snapshot.readTransaction()
    }

    /// Whether the view is frozen: it never changes and cannot write.
    public var isFrozen: Bool { snapshot.isFrozen }

    /// The number of the committed transaction the view reads; 0 when its snapshot cannot be
    /// read (the fault goes to ``Configuration/faultHandler``).
    public var version: Int {
        do {
            return try snapshot.readTransaction().id
        } catch {
            snapshot.report(error)
            return 0
        }
    }

    /// Runs `body` in a write transaction that starts from the latest state; the
    /// view's objects can be changed inside it. Commits when `body` returns,
    /// rolls back when it throws; either way the view then reads the latest state.
    @discardableResult
    public func write<Result>(_ body: (WriteTransaction) throws -> Result) throws -> Result {
        snapshot.confinement.require("write")
        // Observers first hear of what happened before this write, as in Realm.
        snapshot.observation?.deliverPending()
        return try WriteTransaction(scope: WriteScope(database: database, snapshot: snapshot)).run(body)
    }

    func requireBinding(_ type: ObjectBase.Type) -> TypeBinding {
        do {
            return try database.binding(for: type)
        } catch {
            preconditionFailure("\(type) is not one of the database's model classes.")
        }
    }
}

@available(*, unavailable, message: "a ReadView belongs to one thread or task; pass primary keys instead")
extension ReadView: Sendable {}
