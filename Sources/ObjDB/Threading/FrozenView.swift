/// An immutable snapshot of a database at one version, readable from any thread or task.
///
/// ```swift
/// let snapshot = try view.freeze()
/// Task.detached {
///     for tweet in snapshot.objects(Tweet.self) { print(tweet.text) }
/// }
/// ```
///
/// A frozen view shares its version's LMDB read transaction with the live view it came from
/// (and with the notifier's rounds), so freezing copies nothing. It pins that version for
/// as long as it lives: see ``Database/pinnedVersions()``.
public final class FrozenView: @unchecked Sendable {
    // @unchecked: the context is frozen: its transaction is shared read-only and warmed,
    // its generation never changes, and nothing in it is written after init.
    let context: StoreContext

    init(context: StoreContext) {
        precondition(context.isFrozen)
        self.context = context
    }

    /// The database the snapshot was taken of.
    public var database: Database { context.database }

    /// The committed version the snapshot holds.
    public var version: Int { (try? context.readTransaction().id) ?? 0 }

    /// Every object of `type` at this version, in primary-key order.
    public func objects<T: Object>(_ type: T.Type) -> FrozenResults<T> {
        FrozenResults(view: self, spec: QuerySpec())
    }

    /// The object of `type` whose primary key is `key`, or `nil`.
    public func object<T: Object>(ofType type: T.Type, forPrimaryKey key: some PrimaryKeyValue) -> Frozen<T>? {
        do {
            return try context.object(type, key: key._objectKey).map(Frozen.init)
        } catch {
            return nil
        }
    }
}

/// The results of a query at one version: immutable, `Sendable`, and readable from any thread.
///
/// Its elements are ``Frozen`` objects. Iterating reads from the shared snapshot without copying.
public struct FrozenResults<Element: Object>: RandomAccessCollection, Sendable {
    /// The snapshot the results were read from.
    public let view: FrozenView
    let keys: KeyChunks

    init(view: FrozenView, spec: QuerySpec) {
        self.view = view
        let binding = view.context.database.knownBinding(Element.self)
        do {
            if let binding {
                keys = try ResultsDiffer(binding: binding, spec: spec, database: view.context.database)
                    .keys(in: view.context)
            } else {
                keys = KeyChunks()
            }
        } catch {
            keys = KeyChunks()
        }
    }

    init(view: FrozenView, keys: KeyChunks) {
        self.view = view
        self.keys = keys
    }

    /// The position of the first object.
    public var startIndex: Int { 0 }
    /// The position after the last object.
    public var endIndex: Int { keys.count }

    /// The object at `position`.
    public subscript(position: Int) -> Frozen<Element> {
        let context = view.context
        guard let binding = context.database.knownBinding(Element.self),
            let key = binding.objectKey(fromTableKey: keys[position])
        else {
            preconditionFailure("\(Element.self) is not one of the database's model classes.")
        }
        let object = context.makeObject(Element.self, binding: binding, keyBytes: keys[position], key: key)
        return Frozen(object)
    }
}

extension Database {
    /// The binding of a model class, or `nil` when the database was not opened with it.
    func knownBinding(_ type: ObjectBase.Type) -> TypeBinding? {
        try? binding(for: type)
    }
}
