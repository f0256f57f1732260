/// What managed objects write through while a write transaction is in progress: their
/// assignments, collection edits and the linked objects an add stores.
///
/// The write layer implements it (its write scope); objects reach it through their snapshot's
/// ``Snapshot/writer``, so the object layer never names the layer above.
protocol ObjectWriter: AnyObject {
    /// Adds an unmanaged object (and the unmanaged objects it links to), or returns a managed one's key.
    func add(_ object: ObjectBase, policy: UpdatePolicy) throws -> (TypeBinding, ObjectKey)
    /// Replaces one property's value of a managed object (or of the embedded object it reaches).
    func setValue(_ value: StoredValue, of property: BoundProperty, in accessor: ObjectAccessor) throws
    /// A dynamic value (as ``DynamicObject/setValue(_:forKey:)`` takes it) as the stored value of
    /// `property`, creating linked objects given as dictionaries.
    func storedValue(_ value: Any, for property: BoundProperty, in binding: TypeBinding) throws -> StoredValue
    /// Keeps an error an assignment met (assignments cannot throw): the commit throws it instead.
    func deferError(_ error: any Error)
}
