import Foundation

/// A query written in Swift: key paths of the model and operators, checked by the compiler.
///
/// ```swift
/// let popular = tweets.where { $0.retweetCount > 10 && $0.user.screenName == "swiftlang" }
/// let tagged = photos.where { $0.tags.name == "sunset" }          // any tag
/// let busy = users.where { $0.tweets.count > 100 }
/// let jacks = users.where { $0.screenName.starts(with: "jack", options: .caseInsensitive) }
/// ```
///
/// A path through a collection compares each element and matches when any does.
/// `Query` values only describe a filter; nothing runs until the results are read.
@dynamicMemberLookup
public struct Query<Value> {
    enum Node {
        case path([String], isCollection: Bool)
        case aggregate([String], QueryAggregate)
        case expression(QueryExpression)
    }

    let node: Node

    init(node: Node) {
        self.node = node
    }

    init(root: Value.Type) {
        node = .path([], isCollection: false)
    }

    /// The filter this query stands for; a bare `Bool` property means `property == true`.
    var expression: QueryExpression {
        switch node {
        case .expression(let expression): return expression
        case .path(let path, _): return .comparison(QueryComparison(path: path, op: .equal, value: .bool(true)))
        case .aggregate(let path, let aggregate):
            return .comparison(QueryComparison(path: path, aggregate: aggregate, op: .notEqual, value: .int(0)))
        }
    }

    var path: [String] {
        switch node {
        case .path(let path, _), .aggregate(let path, _): return path
        case .expression: return []
        }
    }

    func appending<Next>(_ name: String, collection: Bool = false) -> Query<Next> {
        if case .path(let path, let isCollection) = node {
            return Query<Next>(node: .path(path + [name], isCollection: isCollection || collection))
        }
        return Query<Next>(node: .path([name], isCollection: collection))
    }

    /// A value compared with in a query; an object must be managed (a stored object has a key to compare).
    static func stored<Operand>(_ value: Operand) -> StoredValue {
        guard let stored = QueryArgument.storedValue(value) else {
            preconditionFailure(
                "\(Operand.self) values cannot be compared in a query; compare stored objects, not new ones.")
        }
        return stored
    }

    /// A value of a stored type compared with in a query. Scalars convert directly, with no
    /// dynamic casts (a `where` closure built per query paid `Mirror` and a cast chain for
    /// each constant); links, embedded objects and collections go the general way.
    static func stored<Operand: Persistable>(_ value: Operand) -> StoredValue {
        let kind = Operand._schemaKind
        if kind.collection == .single, kind.objectType == nil,
            let stored = try? value._toStored(.readingScalars)
        {
            return stored
        }
        guard let stored = QueryArgument.storedValue(value) else {
            preconditionFailure(
                "\(Operand.self) values cannot be compared in a query; compare stored objects, not new ones.")
        }
        return stored
    }

    /// An optional value compared with in a query: `nil`, or the value.
    static func stored<Operand>(optional value: Operand?) -> StoredValue {
        guard let value else { return .null }
        return stored(value)
    }

    /// An optional value of a stored type: `nil`, or the value converted directly.
    static func stored<Operand: Persistable>(optional value: Operand?) -> StoredValue {
        guard let value else { return .null }
        return stored(value)
    }

    func comparing(
        _ op: QueryOperator, _ value: StoredValue, options: QueryStringOptions = [], quantifier: QueryQuantifier = .any
    )
        -> Query<Bool>
    {
        var aggregate: QueryAggregate?
        if case .aggregate(_, let kind) = node { aggregate = kind }
        return Query<Bool>(
            node: .expression(
                .comparison(
                    QueryComparison(
                        path: path, aggregate: aggregate, quantifier: quantifier, op: op, value: value, options: options
                    ))))
    }
}

// MARK: - Key paths

extension Query where Value: ObjectBase {
    /// A property of the object.
    public subscript<Property>(dynamicMember keyPath: KeyPath<Value, Property>) -> Query<Property> {
        appending(PropertyTracer.propertyName(keyPath))
    }
}

extension Query {
    /// A property of an optional linked object; the comparison is false where the link is `nil`.
    public subscript<Target: ObjectBase, Property>(dynamicMember keyPath: KeyPath<Target, Property>) -> Query<Property>
    where Value == Target? {
        appending(PropertyTracer.propertyName(keyPath))
    }

    /// A property of each object of a list; comparisons match when any element does.
    public subscript<Element: Object, Property>(dynamicMember keyPath: KeyPath<Element, Property>) -> Query<Property>
    where Value == List<Element> {
        appending(PropertyTracer.propertyName(keyPath), collection: true)
    }

    /// A property of each object of a set; comparisons match when any element does.
    public subscript<Element: Object, Property>(dynamicMember keyPath: KeyPath<Element, Property>) -> Query<Property>
    where Value == MutableSet<Element> {
        appending(PropertyTracer.propertyName(keyPath), collection: true)
    }

    /// A property of each linking object; comparisons match when any does.
    public subscript<Origin: Object, Property>(dynamicMember keyPath: KeyPath<Origin, Property>) -> Query<Property>
    where Value == LinkingObjects<Origin> {
        appending(PropertyTracer.propertyName(keyPath), collection: true)
    }
}

// MARK: - Comparisons

extension Query where Value: Persistable {
    /// The property equals `value` (for a path through a collection: some element does).
    public static func == (lhs: Query, rhs: Value) -> Query<Bool> {
        lhs.comparing(.equal, Query.stored(rhs))
    }

    /// The property differs from `value`.
    public static func != (lhs: Query, rhs: Value) -> Query<Bool> {
        lhs.comparing(.notEqual, Query.stored(rhs))
    }

    /// The property holds one of `values`.
    public func `in`(_ values: [Value]) -> Query<Bool> {
        comparing(.in, .list(values.map { Query<Bool>.stored($0) }))
    }
}

extension Query where Value: Persistable & Comparable {
    /// The property is less than `value`.
    public static func < (lhs: Query, rhs: Value) -> Query<Bool> {
        lhs.comparing(.less, Query.stored(rhs))
    }
    /// The property is less than or equal to `value`.
    public static func <= (lhs: Query, rhs: Value) -> Query<Bool> {
        lhs.comparing(.lessOrEqual, Query.stored(rhs))
    }
    /// The property is greater than `value`.
    public static func > (lhs: Query, rhs: Value) -> Query<Bool> {
        lhs.comparing(.greater, Query.stored(rhs))
    }
    /// The property is greater than or equal to `value`.
    public static func >= (lhs: Query, rhs: Value) -> Query<Bool> {
        lhs.comparing(.greaterOrEqual, Query.stored(rhs))
    }

    /// The property lies in `range`, both ends included.
    public func contains(_ range: ClosedRange<Value>) -> Query<Bool> {
        comparing(
            .between,
            .list([
                Query.stored(range.lowerBound),
                Query.stored(range.upperBound),
            ]))
    }
}

extension Query {
    /// The optional property equals `value` (`nil` included).
    public static func == <Wrapped: Persistable>(lhs: Query, rhs: Wrapped?) -> Query<Bool> where Value == Wrapped? {
        lhs.comparing(.equal, Query.stored(optional: rhs))
    }

    /// The optional property differs from `value` (`nil` included).
    public static func != <Wrapped: Persistable>(lhs: Query, rhs: Wrapped?) -> Query<Bool> where Value == Wrapped? {
        lhs.comparing(.notEqual, Query.stored(optional: rhs))
    }

    /// The optional property is greater than `value`; `nil` never is.
    public static func > <Wrapped: Persistable & Comparable>(lhs: Query, rhs: Wrapped) -> Query<Bool>
    where Value == Wrapped? { lhs.comparing(.greater, Query.stored(rhs)) }
    /// The optional property is greater than or equal to `value`; `nil` never is.
    public static func >= <Wrapped: Persistable & Comparable>(lhs: Query, rhs: Wrapped) -> Query<Bool>
    where Value == Wrapped? { lhs.comparing(.greaterOrEqual, Query.stored(rhs)) }
    /// The optional property is less than `value`; `nil` never is.
    public static func < <Wrapped: Persistable & Comparable>(lhs: Query, rhs: Wrapped) -> Query<Bool>
    where Value == Wrapped? { lhs.comparing(.less, Query.stored(rhs)) }
    /// The optional property is less than or equal to `value`; `nil` never is.
    public static func <= <Wrapped: Persistable & Comparable>(lhs: Query, rhs: Wrapped) -> Query<Bool>
    where Value == Wrapped? { lhs.comparing(.lessOrEqual, Query.stored(rhs)) }
}

// MARK: - Strings

extension Query where Value == String {
    /// The string contains `other`.
    public func contains(_ other: String, options: StringComparisonOptions = []) -> Query<Bool> {
        comparing(.contains, .string(other), options: Self.queryOptions(options))
    }

    /// The string starts with `prefix`.
    public func starts(with prefix: String, options: StringComparisonOptions = []) -> Query<Bool> {
        comparing(.beginsWith, .string(prefix), options: Self.queryOptions(options))
    }

    /// The string ends with `suffix`.
    public func ends(with suffix: String, options: StringComparisonOptions = []) -> Query<Bool> {
        comparing(.endsWith, .string(suffix), options: Self.queryOptions(options))
    }

    /// The string equals `other`, ignoring what `options` says.
    public func equals(_ other: String, options: StringComparisonOptions) -> Query<Bool> {
        comparing(.equal, .string(other), options: Self.queryOptions(options))
    }

    /// The string matches a `LIKE` pattern: `*` any run of characters, `?` one.
    public func like(_ pattern: String, options: StringComparisonOptions = []) -> Query<Bool> {
        comparing(.like, .string(pattern), options: Self.queryOptions(options))
    }

    static func queryOptions(_ options: StringComparisonOptions) -> QueryStringOptions {
        var result: QueryStringOptions = []
        if options.contains(.caseInsensitive) { result.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { result.insert(.diacriticInsensitive) }
        return result
    }
}

// MARK: - Collections

extension Query where Value: RandomAccessCollection {
    /// The number of elements of a list, a set, or linking objects.
    public var count: Query<Int> {
        Query<Int>(node: .aggregate(path, .count))
    }
}

extension Query {
    /// The list holds `element`.
    public func contains<Element: Object>(_ element: Element) -> Query<Bool> where Value == List<Element> {
        comparing(.containsElement, Query.stored(element))
    }

    /// The set holds `element`.
    public func contains<Element: Object>(_ element: Element) -> Query<Bool> where Value == MutableSet<Element> {
        comparing(.containsElement, Query.stored(element))
    }

    /// The list holds `value`.
    public func contains<Element: Persistable>(_ value: Element) -> Query<Bool> where Value == List<Element> {
        comparing(.containsElement, Query.stored(value))
    }
}

extension Query where Value == List<Int> {
    /// The sum of a list of numbers.
    public var sum: Query<Double> { Query<Double>(node: .aggregate(path, .sum)) }
}

// MARK: - Logic

extension Query where Value == Bool {
    /// Both queries match.
    public static func && (lhs: Query<Bool>, rhs: Query<Bool>) -> Query<Bool> {
        Query(node: .expression(.and([lhs.expression, rhs.expression])))
    }

    /// Either query matches.
    public static func || (lhs: Query<Bool>, rhs: Query<Bool>) -> Query<Bool> {
        Query(node: .expression(.or([lhs.expression, rhs.expression])))
    }

    /// The query does not match.
    public static prefix func ! (query: Query<Bool>) -> Query<Bool> {
        Query(node: .expression(.not(query.expression)))
    }
}
