import Foundation

extension ObjectObservable where Self: Object {
    /// An immutable copy of the object at its view's version, readable from any thread.
    ///
    /// - Throws: ``ObjDBError/objectInvalidated(type:)`` for an unmanaged or deleted object.
    /// - Precondition: called where the object's view belongs.
    public func freeze() throws -> Frozen<Self> {
        guard let accessor, accessor.owner == nil, try accessor.exists() else {
            throw ObjDBError.objectInvalidated(type: DiscoveredType.name(of: Self.self))
        }
        let view = try ReadView(snapshot: accessor.snapshot).freeze()
        guard let frozen = try view.snapshot.object(Self.self, key: accessor.objectKey) else {
            throw ObjDBError.objectInvalidated(type: DiscoveredType.name(of: Self.self))
        }
        return Frozen(frozen)
    }
}
