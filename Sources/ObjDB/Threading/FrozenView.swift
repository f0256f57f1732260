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
    // @unchecked: the snapshot is frozen (checked in init): its transaction is shared, read-only
    // and warmed, its generation never changes, and nothing in it is written after init; the
    // objects made from it are handed out only inside `Frozen` wrappers.
    let snapshot: Snapshot
    /// The committed version the snapshot holds.
    public let version: Int

    init(snapshot: Snapshot) {
        guard snapshot.isFrozen, let transaction = snapshot.transaction else {
            preconditionFailure("A FrozenView reads a frozen snapshot.")
        }
        self.snapshot = snapshot
        self.version = transaction.id
    }

    /// The database the snapshot was taken of.
    public var database: Database { ReadView(snapshot: snapshot).database }

    /// Every object of `type` at this version, in primary-key order.
    ///
    /// - Throws: an ``ObjDBError`` when the store cannot be read (a damaged tree, say).
    /// - Precondition: `type` is one of the database's model classes.
    public func objects<T: Object>(_ type: T.Type) throws -> FrozenResults<T> {
        try FrozenResults(view: self, spec: QuerySpec())
    }

    /// The object of `type` whose primary key is `key`, or `nil`.
    ///
    /// - Throws: an ``ObjDBError`` when its record cannot be read.
    /// - Precondition: `type` is one of the database's model classes.
    public func object<T: Object>(ofType type: T.Type, forPrimaryKey key: some PrimaryKeyValue) throws -> Frozen<T>? {
        _ = FrozenResults<T>.binding(in: snapshot)
        return try snapshot.object(type, key: key._objectKey).map { Frozen($0) }
    }
}

/// The results of a query at one version: immutable, `Sendable`, and readable from any thread.
///
/// Its elements are ``Frozen`` objects. Iterating reads from the shared snapshot without copying.
public struct FrozenResults<Element: Object>: RandomAccessCollection, Sendable {
    /// The snapshot the results were read from.
    public let view: FrozenView
    let keys: KeyChunks

    init(view: FrozenView, spec: QuerySpec) throws {
        self.view = view
        let snapshot = view.snapshot
        let binding = Self.binding(in: snapshot)
        let source = try snapshot.source()
        keys = KeyChunks(
            spec.isEverything
                ? try source.allKeys(in: binding)
                : try QueryExecution(source: source, binding: binding, spec: spec).keys())
    }

    init(view: FrozenView, keys: KeyChunks) {
        self.view = view
        self.keys = keys
    }

    /// The position of the first object.
    public var startIndex: Int { 0 }
    /// The position after the last object.
    public var endIndex: Int { keys.count }

    /// The object at `position`. A damaged key is reported to ``Configuration/faultHandler``;
    /// the object still reads its record.
    public subscript(position: Int) -> Frozen<Element> {
        let snapshot = view.snapshot
        let binding = Self.binding(in: snapshot)
        let key = snapshot.objectKey(fromTableKey: keys[position], of: binding)
        let object = snapshot.makeObject(Element.self, binding: binding, keyBytes: keys[position], key: key)
        return Frozen(object)
    }

    /// The binding of `Element`; that it is a model class of the database is a precondition.
    static func binding(in snapshot: Snapshot) -> TypeBinding {
        guard let binding = snapshot.catalog.knownBinding(for: Element.self) else {
            preconditionFailure("\(Element.self) is not one of the database's model classes.")
        }
        return binding
    }
}
