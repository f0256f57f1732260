import Foundation

/// A frozen object: the values of an object at one version, readable from any thread or task.
///
/// ```swift
/// let frozen = try tweet.freeze()
/// Task.detached { print(frozen.text, frozen.retweetCount) }
/// ```
///
/// Read properties through the wrapper (`frozen.text`); it serializes access to the object
/// it wraps, whose lazily filled caches must not be shared unguarded. Reading a link gives an
/// object of the same frozen snapshot: freeze it too (or read it inside ``read(_:)``) before
/// passing it on.
@dynamicMemberLookup
public final class Frozen<Value: ObjectBase>: @unchecked Sendable {
    // @unchecked: `object` belongs to a frozen context and is only touched under `lock`.
    private let object: Value
    private let lock = NSLock()

    init(_ object: Value) {
        self.object = object
    }

    /// Reads the property at `keyPath`.
    public subscript<Property>(dynamicMember keyPath: KeyPath<Value, Property>) -> Property {
        lock.withLock { object[keyPath: keyPath] }
    }

    /// Runs `body` with the frozen object, on the calling thread, while no other thread reads it.
    public func read<Result>(_ body: (Value) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(object) }
    }
}
