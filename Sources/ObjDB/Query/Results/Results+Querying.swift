import Foundation

extension Results {
    /// The objects that also match a predicate in the NSPredicate (Realm) syntax.
    ///
    /// ```swift
    /// let popular = try tweets.filter("retweetCount > %@ AND user.screenName BEGINSWITH[c] 'swift'", 10)
    /// let tagged = try photos.filter("ANY tags.name == %@", "sunset")
    /// ```
    ///
    /// A `SORT(…)`, `DISTINCT(…)` or `LIMIT(n)` after the predicate applies in the order written,
    /// after what these results do already, as in Realm:
    ///
    /// ```swift
    /// let youngest = try people.filter("age >= 18 SORT(age ASC, name ASC) LIMIT(5)")
    /// ```
    ///
    /// - Throws: ``ObjDBError/predicateSyntax(predicate:position:message:)`` pointing at the
    ///   error, ``ObjDBError/invalidQuery(type:reason:)`` for an unknown property or a
    ///   comparison the property's type has no meaning for.
    public func filter(_ predicateFormat: String, _ arguments: Any...) throws -> Results {
        var parser = try PredicateParser(predicateFormat, arguments: arguments)
        let expression = try ReadView.resolvingObjectLiterals(try parser.parse(), for: binding, in: snapshot)
        return try Results(
            snapshot: snapshot, binding: binding,
            preparing: spec.filtered(by: expression).ordered(by: parser.ordering))
    }

    /// The objects that also match a query written in Swift, checked by the compiler.
    ///
    /// ```swift
    /// let popular = tweets.where { $0.retweetCount > 10 && $0.user.screenName == "swiftlang" }
    /// ```
    ///
    /// - Precondition: the query names properties of the model (the compiler checks it does).
    public func `where`(_ query: (Query<Element>) -> Query<Bool>) -> Results {
        let expression = query(Query<Element>(root: Element.self)).expression
        do {
            return try filtered(by: expression)
        } catch {
            preconditionFailure("The query \(expression.text) cannot run: \(error)")
        }
    }

    /// The objects sorted by one property (through to-one links: `"user.screenName"`).
    ///
    /// ```swift
    /// let newest = try tweets.sorted(byKeyPath: "createdAt", ascending: false)
    /// ```
    ///
    /// - Throws: ``ObjDBError/invalidQuery(type:reason:)`` naming the key path when it is not a
    ///   property of one value reached through to-one links. It is checked here, as a bad
    ///   ``filter(_:_:)`` string is, never later when the results are read.
    public func sorted(byKeyPath keyPath: String, ascending: Bool = true) throws -> Results {
        try sorted(by: [SortKey(keyPath, ascending: ascending)])
    }

    /// The objects sorted by one property, named by a key path the compiler checks.
    ///
    /// ```swift
    /// let newest = tweets.sorted(by: \.createdAt, ascending: false)
    /// ```
    ///
    /// - Precondition: `keyPath` reads one `@Persisted` property of the model.
    public func sorted<Value>(by keyPath: KeyPath<Element, Value>, ascending: Bool = true) -> Results {
        let key = SortKey(PropertyTracer.propertyName(keyPath), ascending: ascending)
        do {
            return try sorted(by: [key])
        } catch {
            preconditionFailure("\(Element.self) cannot sort by \(key.keyPath): \(error)")
        }
    }

    /// The objects sorted by several properties, the first deciding first.
    ///
    /// - Throws: ``ObjDBError/invalidQuery(type:reason:)`` for a key path that does not name
    ///   a property of one value (checked here, as in ``sorted(byKeyPath:ascending:)``).
    public func sorted(by descriptors: [SortKey]) throws -> Results {
        var spec = self.spec
        if spec.then.isEmpty, spec.ranking == nil {
            spec.sorts = descriptors
        } else {
            // After a predicate's SORT/DISTINCT/LIMIT trailer or a ranked search, the sort
            // applies to what they left.
            spec = spec.ordered(by: [.sort(descriptors)])
        }
        return try Results(snapshot: snapshot, binding: binding, preparing: spec)
    }

    /// The first object of each distinct combination of the properties at `keyPaths`.
    ///
    /// - Throws: ``ObjDBError/invalidQuery(type:reason:)`` for a key path that does not name
    ///   a property of one value (checked here, as in ``sorted(byKeyPath:ascending:)``).
    public func distinct(by keyPaths: [String]) throws -> Results {
        var spec = self.spec
        if spec.then.isEmpty, spec.ranking == nil {
            spec.distinctPaths = keyPaths
        } else {
            spec = spec.ordered(by: [.distinct(keyPaths)])
        }
        return try Results(snapshot: snapshot, binding: binding, preparing: spec)
    }

    /// At most `count` objects: the first ones in the results' order. Without a sort,
    /// or with one the scan yields, the scan stops once it has them.
    public func limit(_ count: Int) -> Results {
        Results(
            snapshot: snapshot, binding: binding,
            query: query.limited(to: Swift.max(0, count)))
    }

    /// How the query runs: the access path (a full scan, a primary-key or index lookup or
    /// range), the filter, and whether sorting happens in memory.
    ///
    /// ```swift
    /// try tweets.filter("id IN {1, 2, 3}").explain()   // "Tweet: primary key lookup (3 keys), …"
    /// ```
    public func explain() throws -> String {
        try query.explanation(in: try snapshot.source().transaction)
    }

    /// The smallest value of `property` among the objects, or `nil` when there are none.
    public func min(ofProperty property: String) throws -> StoredValue? {
        try values(of: property).min { QueryOrdering.compare($0, $1, []) < 0 }
    }

    /// The largest value of `property` among the objects, or `nil` when there are none.
    public func max(ofProperty property: String) throws -> StoredValue? {
        try values(of: property).max { QueryOrdering.compare($0, $1, []) < 0 }
    }

    /// The sum of a numeric `property` over the objects.
    public func sum(ofProperty property: String) throws -> Double {
        try values(of: property).compactMap(Self.number).reduce(0, +)
    }

    /// The average of a numeric `property` over the objects, or `nil` when there are none.
    public func average(ofProperty property: String) throws -> Double? {
        let numbers = try values(of: property).compactMap(Self.number)
        return numbers.isEmpty ? nil : numbers.reduce(0, +) / Double(numbers.count)
    }

    /// The smallest value of `property`, in the property's own type, or `nil` when no object holds one.
    ///
    /// ```swift
    /// let oldest: Date? = try tweets.min(ofProperty: "createdAt")
    /// ```
    ///
    /// - Throws: ``ObjDBError/invalidQuery(type:reason:)`` when `property` does not hold `T`.
    public func min<T: MinMaxType>(ofProperty property: String) throws -> T? {
        try typedValues(of: property, as: T.self).min { QueryOrdering.compare($0.1, $1.1, []) < 0 }?.0
    }

    /// The largest value of `property`, in the property's own type, or `nil` when no object holds one.
    ///
    /// ```swift
    /// let most: Int? = try tweets.max(ofProperty: "retweetCount")
    /// ```
    ///
    /// - Throws: ``ObjDBError/invalidQuery(type:reason:)`` when `property` does not hold `T`.
    public func max<T: MinMaxType>(ofProperty property: String) throws -> T? {
        try typedValues(of: property, as: T.self).max { QueryOrdering.compare($0.1, $1.1, []) < 0 }?.0
    }

    /// The sum of `property` in the property's own type: integers exactly, decimals exactly.
    ///
    /// ```swift
    /// let total: Int = try tweets.sum(ofProperty: "retweetCount")
    /// ```
    ///
    /// - Throws: ``ObjDBError/invalidQuery(type:reason:)`` when `property` does not hold `T`,
    ///   or when the sum does not fit `T`.
    public func sum<T: AddableType>(ofProperty property: String) throws -> T {
        guard let total = T._sum(try typedValues(of: property, as: T.self).map(\.0)) else {
            throw ObjDBError.invalidQuery(
                type: binding.schema.name, reason: "the sum of \(property) does not fit in \(T.self)")
        }
        return total
    }

    // MARK: Helpers

    private func typedValues<T: MinMaxType>(of property: String, as type: T.Type) throws -> [(T, StoredValue)] {
        try values(of: property).map { value in
            guard let typed = T(_aggregated: value) else {
                throw ObjDBError.invalidQuery(
                    type: binding.schema.name, reason: "\(property) does not hold \(T.self) values")
            }
            return (typed, value)
        }
    }

    /// These results also filtered by `expression`, compiled and planned now: a bad query fails here.
    func filtered(by expression: QueryExpression) throws -> Results {
        try Results(snapshot: snapshot, binding: binding, preparing: spec.filtered(by: expression))
    }

    private func values(of property: String) throws -> [StoredValue] {
        let path = property.split(separator: ".").map(String.init)
        try QueryPaths.validateSortPath(path, from: binding, catalog: snapshot.catalog, what: "aggregate")
        let reader = QueryReader(source: try snapshot.source(), readsDamagedAsEmpty: false)
        let paths = QueryPaths(reader: reader)
        let keys = spec.isEverything ? try reader.source.allKeys(in: binding) : try query.matches(reader).keys
        return try keys.map { try paths.value(at: path, of: $0, in: binding) }.filter { !$0.isNull }
    }

    private static func number(_ value: StoredValue) -> Double? {
        switch value {
        case .int(let number): return Double(number)
        case .double(let number): return number
        case .float(let number): return Double(number)
        case .decimal(let number): return NSDecimalNumber(decimal: number).doubleValue
        default: return nil
        }
    }
}
