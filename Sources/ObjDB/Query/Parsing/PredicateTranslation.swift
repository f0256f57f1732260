import Foundation

extension Results {
    /// The objects that also match a Foundation `#Predicate`.
    ///
    /// ```swift
    /// let popular = try tweets.filter(#Predicate<Tweet> { $0.retweetCount > 10 && $0.text.contains("swift") })
    /// ```
    ///
    /// Comparisons, `&&`, `||`, `!`, optional chaining through links, `contains`,
    /// `starts(with:)`, `allSatisfy` and `contains(where:)`
    /// with one comparison, and `.count` of collections translate.
    ///
    /// - Throws: ``ObjDBError/invalidQuery(type:reason:)`` naming an expression ObjDB cannot
    ///   translate: never a silently different result.
    public func filter(_ predicate: Predicate<Element>) throws -> Results {
        var translator = PredicateTranslator(type: binding.schema.name)
        translator.bind(predicate.variable.key, to: .path([], isCollection: false))
        return try filtered(by: try translator.predicate(predicate.expression))
    }
}

/// What part of a `#Predicate` translates to.
enum Translated {
    case path([String], isCollection: Bool)
    case aggregate([String], QueryAggregate)
    case value(StoredValue)
    case predicate(QueryExpression)
}

/// Walks a `#Predicate` expression tree into a ``QueryExpression``.
struct PredicateTranslator {
    let type: String
    private var variables: [PredicateExpressions.VariableID: Translated] = [:]

    init(type: String) {
        self.type = type
    }

    mutating func bind(_ variable: PredicateExpressions.VariableID, to value: Translated) {
        variables[variable] = value
    }

    func lookup(_ variable: PredicateExpressions.VariableID) throws -> Translated {
        guard let value = variables[variable] else { throw unsupported("a variable from outside the predicate") }
        return value
    }

    mutating func translate(_ expression: Any) throws -> Translated {
        guard let translatable = expression as? any QueryTranslatable else {
            throw unsupported(String(describing: Swift.type(of: expression)))
        }
        return try translatable.translate(&self)
    }

    mutating func predicate(_ expression: Any) throws -> QueryExpression {
        switch try translate(expression) {
        case .predicate(let predicate): return predicate
        case .path(let path, _): return .comparison(QueryComparison(path: path, op: .equal, value: .bool(true)))
        case .value(.bool(let flag)): return .constant(flag)
        default: throw unsupported("a value used as a condition")
        }
    }

    /// A comparison of two translated operands, either way round.
    func compare(_ lhs: Translated, _ op: QueryOperator, _ rhs: Translated, options: QueryStringOptions = [])
        throws -> QueryExpression
    {
        switch (lhs, rhs) {
        case (.path(let path, _), .value(let value)):
            return .comparison(QueryComparison(path: path, op: op, value: value, options: options))
        case (.aggregate(let path, let aggregate), .value(let value)):
            return .comparison(
                QueryComparison(path: path, aggregate: aggregate, op: op, value: value, options: options))
        case (.value, .path), (.value, .aggregate):
            guard let flipped = op.flipped else { throw unsupported("\(op.rawValue) with the property on the right") }
            return try compare(rhs, flipped, lhs, options: options)
        case (.value(let left), .value(let right)):
            return .constant(try Self.fold(left, op, right, translator: self))
        default:
            // Two properties (`$0.age > $0.buddy.age`): the general form, as the string `age > buddy.age`.
            guard let left = Self.operand(lhs), let right = Self.operand(rhs) else {
                throw unsupported("a comparison of \(lhs) with \(rhs)")
            }
            return .operands(OperandComparison(left: left, op: op, options: options, right: right))
        }
    }

    /// A key path or an aggregate as an operand of the general form.
    private static func operand(_ translated: Translated) -> QueryOperand? {
        switch translated {
        case .path(let path, _): return .keyPath(QueryKeyPath(names: path))
        case .aggregate(let path, let aggregate): return .keyPath(QueryKeyPath(names: path + [aggregate.rawValue]))
        case .value(let value): return .value(value)
        default: return nil
        }
    }

    /// `left op right` for two constants, as Swift would evaluate it.
    static func fold(_ left: StoredValue, _ op: QueryOperator, _ right: StoredValue, translator: PredicateTranslator)
        throws -> Bool
    {
        switch op {
        case .equal, .notEqual:
            var same = left == right
            if case .double(let a) = left, case .double(let b) = right { same = a == b }  // NaN != NaN
            return op == .equal ? same : !same
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            let comparable: Bool
            switch (left, right) {
            case (.int, .int), (.double, .double), (.float, .float), (.string, .string), (.date, .date),
                (.decimal, .decimal), (.int, .double), (.double, .int):
                comparable = true
            default:
                comparable = false
            }
            guard comparable else { throw translator.unsupported("an ordering of two \(left.kindName) values") }
            if case .double(let a) = left, a.isNaN { return false }
            if case .double(let b) = right, b.isNaN { return false }
            let order = QueryOrdering.compare(left, right, [])
            switch op {
            case .less: return order < 0
            case .lessOrEqual: return order <= 0
            case .greater: return order > 0
            default: return order >= 0
            }
        default:
            throw translator.unsupported("\(op.rawValue) between two values")
        }
    }

    func unsupported(_ what: String) -> ObjDBError {
        .invalidQuery(type: type, reason: "#Predicate: cannot translate \(what)")
    }

    /// The name of the persisted property `keyPath` reads, given the translated root it applies to.
    func property(_ keyPath: AnyKeyPath, of root: Translated) throws -> Translated {
        guard case .path(let path, let isCollection) = root else { throw unsupported("a key path on a computed value") }
        let rootType = Swift.type(of: keyPath).rootType
        if let objectType = rootType as? ObjectBase.Type {
            let name = try PropertyTracer.propertyName(keyPath, on: objectType)
            let valueType = Swift.type(of: keyPath).valueType
            let opensCollection = valueType is any _QueryCollection.Type
            return .path(path + [name], isCollection: isCollection || opensCollection)
        }
        if rootType is any _QueryCollection.Type, Swift.type(of: keyPath).valueType == Int.self {
            return .aggregate(path, .count)
        }
        throw unsupported("the key path \(keyPath)")
    }
}

/// Collections whose elements a path can pass through.
protocol _QueryCollection {}
extension List: _QueryCollection {}
extension MutableSet: _QueryCollection {}
extension LinkingObjects: _QueryCollection {}

/// An expression of a `#Predicate` that ObjDB can translate.
protocol QueryTranslatable {
    func translate(_ translator: inout PredicateTranslator) throws -> Translated
}

extension PredicateExpressions.Variable: QueryTranslatable {
    func translate(_ translator: inout PredicateTranslator) throws -> Translated { try translator.lookup(key) }
}

extension PredicateExpressions.KeyPath: QueryTranslatable {
    func translate(_ translator: inout PredicateTranslator) throws -> Translated {
        try translator.property(keyPath, of: try translator.translate(root))
    }
}

extension PredicateExpressions.Value: QueryTranslatable {
    func translate(_ translator: inout PredicateTranslator) throws -> Translated {
        guard let stored = QueryArgument.storedValue(value) else {
            throw translator.unsupported("a value of type \(Output.self)")
        }
        return .value(stored)
    }
}

extension PredicateExpressions.NilLiteral: QueryTranslatable {
    func translate(_ translator: inout PredicateTranslator) throws -> Translated { .value(.null) }
}

extension PredicateExpressions.Equal: QueryTranslatable {
    func translate(_ translator: inout PredicateTranslator) throws -> Translated {
        .predicate(try translator.compare(try translator.translate(lhs), .equal, try translator.translate(rhs)))
    }
}

extension PredicateExpressions.NotEqual: QueryTranslatable {
    func translate(_ translator: inout PredicateTranslator) throws -> Translated {
        .predicate(try translator.compare(try translator.translate(lhs), .notEqual, try translator.translate(rhs)))
    }
}

extension PredicateExpressions.Comparison: QueryTranslatable {
    func translate(_ translator: inout PredicateTranslator) throws -> Translated {
        let queryOperator: QueryOperator
        switch op {
        case .lessThan: queryOperator = .less
        case .lessThanOrEqual: queryOperator = .lessOrEqual
        case .greaterThan: queryOperator = .greater
        case .greaterThanOrEqual: queryOperator = .greaterOrEqual
        @unknown default: throw translator.unsupported("the comparison \(op)")
        }
        return .predicate(
            try translator.compare(try translator.translate(lhs), queryOperator, try translator.translate(rhs)))
    }
}

extension PredicateExpressions.Conjunction: QueryTranslatable {
    func translate(_ translator: inout PredicateTranslator) throws -> Translated {
        .predicate(.and([try translator.predicate(lhs), try translator.predicate(rhs)]))
    }
}

extension PredicateExpressions.Disjunction: QueryTranslatable {
    func translate(_ translator: inout PredicateTranslator) throws -> Translated {
        .predicate(.or([try translator.predicate(lhs), try translator.predicate(rhs)]))
    }
}

extension PredicateExpressions.Negation: QueryTranslatable {
    func translate(_ translator: inout PredicateTranslator) throws -> Translated {
        .predicate(.not(try translator.predicate(wrapped)))
    }
}

extension PredicateExpressions.OptionalFlatMap: QueryTranslatable {
    func translate(_ translator: inout PredicateTranslator) throws -> Translated {
        translator.bind(variable.key, to: try translator.translate(wrapped))
        return try translator.translate(transform)
    }
}

extension PredicateExpressions.ForcedUnwrap: QueryTranslatable {
    func translate(_ translator: inout PredicateTranslator) throws -> Translated { try translator.translate(inner) }
}

extension PredicateExpressions.SequenceContains: QueryTranslatable {
    func translate(_ translator: inout PredicateTranslator) throws -> Translated {
        let collection = try translator.translate(sequence)
        let item = try translator.translate(element)
        switch (collection, item) {
        case (.path(let path, _), .value(let value)):
            return .predicate(.comparison(QueryComparison(path: path, op: .containsElement, value: value)))
        case (.value(let values), .path(let path, _)):
            return .predicate(.comparison(QueryComparison(path: path, op: .in, value: values)))
        default:
            throw translator.unsupported("contains between two properties")
        }
    }
}

extension PredicateExpressions.SequenceContainsWhere: QueryTranslatable {
    func translate(_ translator: inout PredicateTranslator) throws -> Translated {
        try translator.quantified(sequence: sequence, variable: variable.key, test: test, quantifier: .any)
    }
}

extension PredicateExpressions.SequenceAllSatisfy: QueryTranslatable {
    func translate(_ translator: inout PredicateTranslator) throws -> Translated {
        try translator.quantified(sequence: sequence, variable: variable.key, test: test, quantifier: .all)
    }
}

extension PredicateExpressions.CollectionContainsCollection: QueryTranslatable {
    func translate(_ translator: inout PredicateTranslator) throws -> Translated {
        .predicate(try translator.compare(try translator.translate(base), .contains, try translator.translate(other)))
    }
}

extension PredicateExpressions.SequenceStartsWith: QueryTranslatable {
    func translate(_ translator: inout PredicateTranslator) throws -> Translated {
        .predicate(
            try translator.compare(try translator.translate(base), .beginsWith, try translator.translate(prefix)))
    }
}

extension PredicateTranslator {
    /// `collection.contains { one comparison }` and `allSatisfy`: a quantified comparison.
    mutating func quantified(
        sequence: Any, variable: PredicateExpressions.VariableID, test: Any, quantifier: QueryQuantifier
    )
        throws -> Translated
    {
        guard case .path(let path, _) = try translate(sequence) else { throw unsupported("a quantifier over a value") }
        bind(variable, to: .path(path, isCollection: true))
        guard case .comparison(var comparison) = try predicate(test) else {
            throw unsupported("a contains(where:) or allSatisfy test other than one comparison")
        }
        comparison.quantifier = quantifier
        return .predicate(.comparison(comparison))
    }
}
