extension Results {
    /// The objects that also match a predicate whose arguments are given as an array: for queries
    /// built at run time, when the number of arguments is known only then.
    ///
    /// ```swift
    /// var clauses: [String] = []
    /// var arguments: [Any] = []
    /// if let minimum { clauses.append("age >= $\(arguments.count)"); arguments.append(minimum) }
    /// if let city { clauses.append("home.city == $\(arguments.count)"); arguments.append(city) }
    /// let people = try everyone.filter(clauses.joined(separator: " AND "), argumentArray: arguments)
    /// ```
    ///
    /// The same as ``filter(_:_:)`` with the elements of `arguments` as its arguments. As in Realm,
    /// arguments the predicate does not name are ignored.
    ///
    /// - Throws: ``ObjDBError/predicateSyntax(predicate:position:message:)`` pointing at the
    ///   error, ``ObjDBError/invalidQuery(type:reason:)`` for an unknown property or a
    ///   comparison the property's type has no meaning for.
    public func filter(_ predicateFormat: String, argumentArray arguments: [Any]) throws -> Results {
        var parser = try PredicateParser(predicateFormat, arguments: arguments)
        let expression = try ReadView.resolvingObjectLiterals(try parser.parse(), for: binding, in: snapshot)
        return try Results(
            snapshot: snapshot, binding: binding,
            preparing: spec.filtered(by: expression).ordered(by: parser.ordering))
    }
}
