extension Persisted {
    /// Declares a link (to one object, or a list, set or map of them) and what deleting the object
    /// that holds it does to the objects it leads to.
    ///
    /// ```swift
    /// @Persisted(deleteRule: .cascade) var beers: List<Beer>
    /// @Persisted(deleteRule: .deny) var owner: Person?
    /// ```
    ///
    /// Only links take a delete rule: on another property the schema is refused with
    /// ``ObjDBError/invalidSchema(type:reason:)``.
    @inlinable
    public init(deleteRule: DeleteRule) {
        self.init(wrappedValue: Value._defaultValue)
        declaration.deleteRule = deleteRule == .nullify ? nil : deleteRule
    }
}
