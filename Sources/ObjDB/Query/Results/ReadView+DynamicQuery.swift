extension ReadView {
    /// The objects of the type named `typeName` that match a string predicate, sorted, at most `limit`.
    ///
    /// A `SORT`, `DISTINCT` or `LIMIT` trailer in `filter` applies first; `sorts` then sorts what it
    /// leaves (its ties kept in the trailer's order), and `limit` cuts the result.
    ///
    /// ```swift
    /// let popular = try view.dynamicObjects("Tweet", filter: "retweetCount > %@", arguments: [10],
    ///                                       sortedBy: [SortKey("createdAt", ascending: false)], limit: 20)
    /// ```
    ///
    /// - Throws: ``ObjDBError/unknownType(_:)``, the predicate's syntax and query errors.
    public func dynamicObjects(
        _ typeName: String, filter: String?, arguments: [Any] = [], sortedBy sorts: [SortKey] = [], limit: Int? = nil
    ) throws -> [DynamicObject] {
        if let limit, limit < 0 {
            throw ObjDBError.invalidArgument("limit", reason: "must not be negative, not \(limit)")
        }
        let binding = try database.binding(named: typeName)
        var spec = try Self.spec(filter: filter, arguments: arguments, sorts: sorts, limit: limit)
        spec.filter = try spec.filter.map { try resolvingObjectLiterals($0, for: binding) }
        let keys = try QueryExecution(source: snapshot.source(), binding: binding, spec: spec).keys()
        return keys.compactMap { snapshot.dynamicObject(binding, tableKey: $0) }
    }

    /// How ``dynamicObjects(_:filter:arguments:sortedBy:limit:)`` would run.
    public func explainDynamicQuery(
        _ typeName: String, filter: String?, arguments: [Any] = [], sortedBy sorts: [SortKey] = []
    )
        throws -> String
    {
        let binding = try database.binding(named: typeName)
        var spec = try Self.spec(filter: filter, arguments: arguments, sorts: sorts, limit: nil)
        spec.filter = try spec.filter.map { try resolvingObjectLiterals($0, for: binding) }
        return try QueryExecution(source: snapshot.source(), binding: binding, spec: spec).explain()
    }

    /// The query of a string predicate (and its trailer), then `sorts`, then `limit`.
    static func spec(filter: String?, arguments: [Any], sorts: [SortKey], limit: Int?) throws -> QuerySpec {
        var spec = QuerySpec()
        var steps: [OrderingStep] = []
        if let filter {
            var parser = try PredicateParser(filter, arguments: arguments)
            spec.filter = try parser.parse()
            steps = parser.ordering
        }
        if !sorts.isEmpty { steps.append(.sort(sorts)) }
        if let limit { steps.append(.limit(limit)) }
        return spec.ordered(by: steps)
    }

    /// The objects of the type named `typeName` that link to the object, as `Type.property` → objects.
    public func backlinks(of object: DynamicObject) throws -> [(
        type: String, property: String, objects: [DynamicObject]
    )] {
        let sources = try snapshot.source().incomingLinks(to: object.accessor.key, in: object.accessor.binding)
        var grouped: [String: [DynamicObject]] = [:]
        for source in sources {
            guard let binding = database.bindings[source.typeName],
                let property = binding.properties.first(where: { $0.schema.id == source.propertyID }),
                let key = source.key.withUnsafeBytes({
                    ObjectKeyCodec.decode($0, primaryKeyType: binding.primaryKey?.schema.type)
                })
            else { continue }
            grouped["\(source.typeName).\(property.schema.name)", default: []].append(
                DynamicObject(
                    accessor: ObjectAccessor(snapshot: snapshot, binding: binding, key: source.key, objectKey: key)))
        }
        return grouped.keys.sorted().map { name in
            let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
            return (parts[0], parts[1], grouped[name]!)
        }
    }
}
