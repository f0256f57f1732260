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
    // and warmed, its generation never changes, and nothing in it is written after init.
    let snapshot: Snapshot

    init(snapshot: Snapshot) {
        precondition(snapshot.isFrozen, "A FrozenView reads a frozen snapshot.")
        self.snapshot = snapshot
    }

    /// The database the snapshot was taken of.
    public var database: Database { ReadView(snapshot: snapshot).database }

    /// The committed version the snapshot holds.
    public var version: Int { (try? snapshot.readTransaction().id) ?? 0 }

    /// Every object of `type` at this version, in primary-key order.
    public func objects<T: Object>(_ type: T.Type) -> FrozenResults<T> {
        FrozenResults(view: self, spec: QuerySpec())
    }

    /// The object of `type` whose primary key is `key`, or `nil`.
    public func object<T: Object>(ofType type: T.Type, forPrimaryKey key: some PrimaryKeyValue) -> Frozen<T>? {
        do {
            return try snapshot.object(type, key: key._objectKey).map(Frozen.init)
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
        let snapshot = view.snapshot
        do {
            if let binding = snapshot.catalog.knownBinding(for: Element.self) {
                let source = try snapshot.source()
                keys = KeyChunks(
                    spec.isEverything
                        ? try source.allKeys(in: binding)
                        : try QueryExecution(source: source, binding: binding, spec: spec).keys())
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
        let snapshot = view.snapshot
        guard let binding = snapshot.catalog.knownBinding(for: Element.self),
            let key = binding.objectKey(fromTableKey: keys[position])
        else {
            preconditionFailure("\(Element.self) is not one of the database's model classes.")
        }
        let object = snapshot.makeObject(Element.self, binding: binding, keyBytes: keys[position], key: key)
        return Frozen(object)
    }
}
