/// Comparisons of one property with another in a query written in Swift (#17):
///
/// ```swift
/// let olderBuddy = people.where { $0.buddy.age > $0.age }
/// let busy = people.where { $0.items.count > $0.age }
/// ```
///
/// They run as the string forms `buddy.age > age` and `items.@count > age` do, with
/// Realm's rules: a path through a collection matches when any element does, and two
/// collections compare element by element.
extension Query where Value: Persistable {
    /// The property equals the other property.
    public static func == (lhs: Query, rhs: Query) -> Query<Bool> {
        lhs.comparing(.equal, rhs)
    }

    /// The property differs from the other property.
    public static func != (lhs: Query, rhs: Query) -> Query<Bool> {
        lhs.comparing(.notEqual, rhs)
    }
}

extension Query where Value: Persistable & Comparable {
    /// The property is less than the other property.
    public static func < (lhs: Query, rhs: Query) -> Query<Bool> {
        lhs.comparing(.less, rhs)
    }

    /// The property is less than or equal to the other property.
    public static func <= (lhs: Query, rhs: Query) -> Query<Bool> {
        lhs.comparing(.lessOrEqual, rhs)
    }

    /// The property is greater than the other property.
    public static func > (lhs: Query, rhs: Query) -> Query<Bool> {
        lhs.comparing(.greater, rhs)
    }

    /// The property is greater than or equal to the other property.
    public static func >= (lhs: Query, rhs: Query) -> Query<Bool> {
        lhs.comparing(.greaterOrEqual, rhs)
    }
}

extension Query {
    /// The comparison of this property with another, in the general form.
    func comparing<Other>(_ op: QueryOperator, _ other: Query<Other>) -> Query<Bool> {
        Query<Bool>(node: .expression(.operands(OperandComparison(left: operand, op: op, right: other.operand))))
    }

    /// The key path (or aggregate) this query names, as an operand.
    var operand: QueryOperand {
        switch node {
        case .path(let path, _): return .keyPath(QueryKeyPath(names: path))
        case .aggregate(let path, let aggregate): return .keyPath(QueryKeyPath(names: path + [aggregate.rawValue]))
        case .expression:
            preconditionFailure("a condition cannot be compared with a property")
        }
    }
}
