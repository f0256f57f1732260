extension Results {
    /// The number of objects, as ``count`` gives it, counted before `deadline`.
    ///
    /// ```swift
    /// let n = try tweets.filter("text CONTAINS[c] 'swift'").count(deadline: .after(.milliseconds(500)))
    /// ```
    ///
    /// Every object of a type counts from the table's statistics, at once; a filter counts by
    /// reading the candidates, checking the deadline as it goes. The answer is kept for the
    /// snapshot, so ``count`` then reads no object.
    ///
    /// - Throws: ``ObjDBError/Code/queryTimedOut`` when `deadline` passes first,
    ///   ``ObjDBError/Code/queryCancelled`` when its cancellation (or the task) is cancelled.
    public func count(deadline: QueryDeadline) throws -> Int {
        try keyList.count(within: QueryBudget(deadline, typeName: binding.schema.name))
    }

    /// These results with their objects found before `deadline`: the query runs now, once, and
    /// ``count``, the subscript, ``first`` and iteration then read what it found, until the
    /// view moves to another version.
    ///
    /// ```swift
    /// let cancellation = QueryCancellation()      // cancel() it from another thread to stop
    /// let popular = try tweets.filter("user.followersCount > 1000")
    ///     .sorted(byKeyPath: "retweetCount", ascending: false)
    ///     .evaluated(deadline: .after(.seconds(2), cancellation: cancellation))
    /// for tweet in popular.prefix(20) { print(tweet.text) }
    /// ```
    ///
    /// The deadline bounds the query's scan, the links, lists and backlinks its filter walks, and
    /// its sort; reading the objects' properties afterwards is not bounded (it costs per object read).
    ///
    /// - Throws: ``ObjDBError/Code/queryTimedOut`` when `deadline` passes first,
    ///   ``ObjDBError/Code/queryCancelled`` when its cancellation (or the task) is cancelled. The
    ///   results are then as they were.
    @discardableResult
    public func evaluated(deadline: QueryDeadline) throws -> Results<Element> {
        try keyList.load(within: QueryBudget(deadline, typeName: binding.schema.name))
        return self
    }
}

extension ReadView {
    /// ``dynamicObjects(_:filter:arguments:sortedBy:limit:)`` found before `deadline`.
    ///
    /// ```swift
    /// let page = try view.dynamicObjects("Tweet", filter: "text CONTAINS 'swift'", limit: 50,
    ///                                    deadline: .after(.seconds(1)))
    /// ```
    ///
    /// - Throws: ``ObjDBError/Code/queryTimedOut``, ``ObjDBError/Code/queryCancelled``,
    ///   ``ObjDBError/unknownType(_:)``, the predicate's syntax and query errors.
    public func dynamicObjects(
        _ typeName: String, filter: String?, arguments: [Any] = [], sortedBy sorts: [SortKey] = [], limit: Int? = nil,
        deadline: QueryDeadline
    ) throws -> [DynamicObject] {
        if let limit, limit < 0 {
            throw ObjDBError.invalidArgument("limit", reason: "must not be negative, not \(limit)")
        }
        let binding = try database.binding(named: typeName)
        let spec = try Self.spec(filter: filter, arguments: arguments, sorts: sorts, limit: limit)
        let query = try PreparedQuery(catalog: snapshot.catalog, binding: binding, spec: spec)
        var reader = QueryReader(source: try snapshot.source(), readsDamagedAsEmpty: false)
        reader.budget = QueryBudget(deadline, typeName: typeName)
        return try query.matches(reader).keys.compactMap { snapshot.dynamicObject(binding, tableKey: $0) }
    }
}
