import Foundation

/// A frozen object: the values of an object at one version, readable from any thread or task.
///
/// ```swift
/// let frozen = try tweet.freeze()
/// Task.detached {
///     print(frozen.text, frozen.retweetCount)
///     print(frozen.user?.screenName ?? "")   // a Frozen<TwitterUser>? of the same version
/// }
/// ```
///
/// Reading a property through the wrapper hands out only `Sendable` values, so nothing that
/// shares the object's caches leaves it:
///
/// | Property | Reads as |
/// |---|---|
/// | a value (`String`, `Int?`, a `PersistableEnum`, …) | the value |
/// | a link or embedded object (`TwitterUser?`) | `Frozen<TwitterUser>?` |
/// | `List<T>` of values | `[T]` |
/// | `List<T>` of objects, `LinkingObjects<T>` | `[Frozen<T>]` |
/// | `MutableSet<T>` of values | `Set<T>` |
/// | `MutableSet<T>` of objects | `[Frozen<T>]` |
/// | `Map<String, T>` of values | `[String: T]` |
/// | `Map<String, T?>` of objects | `[String: Frozen<T>?]` |
///
/// All of them read the same frozen version. ``read(_:)`` runs code with the object itself.
@dynamicMemberLookup
public final class Frozen<Value: ObjectBase>: @unchecked Sendable {
    // @unchecked: `object`, and through it its accessor's caches, is touched only under `lock`.
    // What leaves the lock is `Sendable` (the subscripts' constraints): a value, a copy of a
    // collection's values, or another `Frozen`, around an object made for it alone (a linked
    // object has caches of its own) or sharing this lock (an embedded object reads through its
    // owner's caches). Every object here reads a frozen snapshot, whose transaction is shared,
    // read-only and warmed (``FrozenView``'s invariant); init checks that it is one.
    private let object: Value
    private let lock: NSRecursiveLock

    /// Wraps `object`, which reads a frozen snapshot; `lock` is its owner's, for an embedded object.
    init(_ object: Value, lock: NSRecursiveLock = NSRecursiveLock()) {
        precondition(
            object.accessor?.snapshot.isFrozen == true, "A Frozen wraps an object of a frozen view, never a live one.")
        self.object = object
        self.lock = lock
    }

    /// Reads the value at `keyPath`.
    public subscript<Property: Sendable>(dynamicMember keyPath: KeyPath<Value, Property>) -> Property {
        lock.withLock { object[keyPath: keyPath] }
    }

    /// Reads the link or embedded object at `keyPath`, frozen at the same version.
    public subscript<Linked: ObjectBase>(dynamicMember keyPath: KeyPath<Value, Linked?>) -> Frozen<Linked>? {
        lock.withLock { object[keyPath: keyPath].map(frozen) }
    }

    /// Reads the values of the list at `keyPath`.
    public subscript<Element: Persistable & Sendable>(dynamicMember keyPath: KeyPath<Value, List<Element>>)
        -> [Element]
    {
        lock.withLock { Array(object[keyPath: keyPath]) }
    }

    /// Reads the objects of the list at `keyPath`, frozen at the same version.
    public subscript<Element: ObjectBase & Persistable>(dynamicMember keyPath: KeyPath<Value, List<Element>>)
        -> [Frozen<Element>]
    {
        lock.withLock { object[keyPath: keyPath].map(frozen) }
    }

    /// Reads the values of the set at `keyPath`.
    public subscript<Element: Persistable & Hashable & Sendable>(
        dynamicMember keyPath: KeyPath<Value, MutableSet<Element>>
    ) -> Set<Element> {
        lock.withLock { Set(object[keyPath: keyPath]) }
    }

    /// Reads the objects of the set at `keyPath`, frozen at the same version, in the set's order.
    public subscript<Element: ObjectBase & Persistable & Hashable>(
        dynamicMember keyPath: KeyPath<Value, MutableSet<Element>>
    ) -> [Frozen<Element>] {
        lock.withLock { object[keyPath: keyPath].map(frozen) }
    }

    /// Reads the entries of the map at `keyPath`.
    public subscript<Key: _MapKey & Sendable, Element: Persistable & Sendable>(
        dynamicMember keyPath: KeyPath<Value, Map<Key, Element>>
    ) -> [Key: Element] {
        lock.withLock { object[keyPath: keyPath].dictionary }
    }

    /// Reads the entries of the map of objects at `keyPath`, frozen at the same version.
    public subscript<Key: _MapKey & Sendable, Element: ObjectBase & Persistable>(
        dynamicMember keyPath: KeyPath<Value, Map<Key, Element?>>
    ) -> [Key: Frozen<Element>?] {
        lock.withLock { object[keyPath: keyPath].dictionary.mapValues { $0.map(frozen) } }
    }

    /// Reads the objects linking to this one through the property at `keyPath`, frozen at the same version.
    public subscript<Origin: Object>(dynamicMember keyPath: KeyPath<Value, LinkingObjects<Origin>>)
        -> [Frozen<Origin>]
    {
        lock.withLock { object[keyPath: keyPath].map(frozen) }
    }

    /// Runs `body` with the frozen object, on the calling thread, while no other thread reads it.
    ///
    /// The object, and the objects and collections read from it, are valid only inside `body`:
    /// return values, or freeze what you need. Reading another `Frozen` inside is fine.
    public func read<Result: Sendable>(_ body: (Value) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(object) }
    }

    /// `linked`, read from this object under the lock, as a `Frozen` of its own: an object with
    /// its own caches for a link, one sharing this lock for an embedded object.
    private func frozen<Linked: ObjectBase>(_ linked: Linked) -> Frozen<Linked> {
        guard let accessor = linked.accessor, accessor.owner == nil else { return Frozen<Linked>(linked, lock: lock) }
        let copy = accessor.snapshot.makeObject(
            Linked.self, binding: accessor.binding, keyBytes: accessor.key, key: accessor.objectKey)
        return Frozen<Linked>(copy)
    }
}
