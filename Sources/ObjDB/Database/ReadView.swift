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
/// - ``objects(_:)``
/// - ``object(ofType:forPrimaryKey:)``
/// - ``refresh()``
/// - ``write(_:)``
public final class ReadView {
    let context: StoreContext

    init(context: StoreContext) {
        self.context = context
    }

    /// The database the view reads.
    public var database: Database { context.database }

    /// Every object of `type`, in primary-key order (insertion order for types without one).
    ///
    /// - Precondition: `type` is one of the database's model classes.
    public func objects<T: Object>(_ type: T.Type) -> Results<T> {
        Results(context: context, binding: requireBinding(type))
    }

    /// The object of `type` whose primary key is `key`, or `nil`.
    public func object<T: Object>(ofType type: T.Type, forPrimaryKey key: some PrimaryKeyValue) -> T? {
        do {
            return try context.object(type, key: key._objectKey)
        } catch {
            preconditionFailure("Reading \(type) failed: \(error)")
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
        context.confinement.require("refresh")
        guard !context.isWriting else { return }
        // Checked before letting go of the snapshot: a refused refresh leaves the view as it was.
        try context.database.checkLiveVersions()
        if let delivery = context.delivery {
            // The notifier moves an observed view, so its observers hear of every change it sees.
            context.database.notifier.runRound()
            delivery.drain()
            // A view whose observers are all gone is no longer moved by the notifier.
            if delivery.hasPending || context.database.notifier.hasObservers(of: delivery) { return }
        }
        context.refresh()
        _ = try context.readTransaction()
    }

    /// An immutable snapshot of the view's current version, readable from any thread or task.
    ///
    /// Freezing copies nothing: the snapshot shares the view's read transaction.
    public func freeze() throws -> FrozenView {
        context.confinement.require("freeze")
        if context.isFrozen { return FrozenView(context: context) }
        precondition(!context.isWriting, "A view cannot be frozen while it writes; freeze it after the write.")
        let snapshot = try context.shareSnapshot()
        return FrozenView(context: StoreContext(database: context.database, frozenAt: snapshot))
    }

    /// Whether the view is frozen: it never changes and cannot write.
    public var isFrozen: Bool { context.isFrozen }

    /// The number of the committed transaction the view reads.
    public var version: Int {
        (try? context.readTransaction().id) ?? 0
    }

    /// Runs `body` in a write transaction that starts from the latest state; the
    /// view's objects can be changed inside it. Commits when `body` returns,
    /// rolls back when it throws; either way the view then reads the latest state.
    @discardableResult
    public func write<Result>(_ body: (WriteTransaction) throws -> Result) throws -> Result {
        context.confinement.require("write")
        // Observers first hear of what happened before this write, as in Realm.
        context.delivery?.drain()
        try context.beginWrite()
        return try WriteTransaction(context: context).run(body)
    }

    func requireBinding(_ type: ObjectBase.Type) -> TypeBinding {
        do {
            return try context.database.binding(for: type)
        } catch {
            preconditionFailure("\(type) is not one of the database's model classes.")
        }
    }
}

@available(*, unavailable, message: "a ReadView belongs to one thread or task; pass primary keys instead")
extension ReadView: Sendable {}
