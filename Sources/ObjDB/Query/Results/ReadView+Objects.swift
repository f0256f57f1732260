extension ReadView {
    /// Every object of `type`, in primary-key order (insertion order for types without one).
    ///
    /// - Precondition: `type` is one of the database's model classes.
    public func objects<T: Object>(_ type: T.Type) -> Results<T> {
        Results(snapshot: snapshot, binding: requireBinding(type))
    }
}

extension WriteTransaction {
    /// Every object of `type`, as this transaction sees them.
    public func objects<T: Object>(_ type: T.Type) -> Results<T> {
        ReadView(snapshot: scope.snapshot).objects(type)
    }
}
