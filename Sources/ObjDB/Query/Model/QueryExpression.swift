/// A filter, whichever front-end wrote it: a string predicate, a `where` closure,
/// or a Foundation `#Predicate`. The planner and the evaluator see only this.
indirect enum QueryExpression: Hashable, Sendable {
    /// Matches every object (`TRUEPREDICATE`) or none (`FALSEPREDICATE`).
    case constant(Bool)
    /// Matches what the operand does not.
    case not(QueryExpression)
    /// Matches what every operand matches.
    case and([QueryExpression])
    /// Matches what any operand matches.
    case or([QueryExpression])
    /// Compares a property (through links, and through a collection with a quantifier) with a value.
    case comparison(QueryComparison)
    /// Compares two operands (key paths, constants, aggregates, arithmetic, subqueries), as
    /// ``OperandComparison`` describes.
    case operands(OperandComparison)
}

/// `path op value`, such as `user.screenName ==[c] "jack"` or `ANY tags.name BEGINSWITH "sun"`.
struct QueryComparison: Hashable, Sendable {
    /// Property names from the queried type, through to-one links and at most one collection.
    var path: [String]
    /// What is compared: the value, or an aggregate of a collection.
    var aggregate: QueryAggregate?
    /// How a path through a collection is quantified; `.any` when the path has a collection.
    var quantifier: QueryQuantifier = .any
    var op: QueryOperator
    /// The value compared with; for `IN` and `BETWEEN`, a ``StoredValue/list(_:)``.
    var value: StoredValue
    var options: QueryStringOptions = []
    /// Where the comparison starts in the predicate, for messages (`nil` when not from text).
    var position: Int?
    /// Whether `ANY`, `ALL` or `NONE` was written (`ANY tags.name == 'x'`), so the path must pass
    /// through a collection, as Realm requires; an unwritten `.any` applies only when it does.
    var quantifierWritten = false
}

/// The operators of a comparison.
enum QueryOperator: String, Hashable, Sendable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    case beginsWith = "BEGINSWITH"
    case endsWith = "ENDSWITH"
    case contains = "CONTAINS"
    case like = "LIKE"
    case `in` = "IN"
    case between = "BETWEEN"
    /// The collection at `path` holds the object or value (`%@ IN tags`).
    case containsElement = "CONTAINS ELEMENT"
    /// The string holds the words of a full-text search (`text TEXT 'swift -objc'`): ``TextSearch``.
    case text = "TEXT"

    /// The operator as a predicate spells it.
    var spelling: String { self == .containsElement ? "IN" : rawValue }

    /// The operator with its operands swapped (`5 < x` is `x > 5`).
    var flipped: QueryOperator? {
        switch self {
        case .equal, .notEqual: return self
        case .less: return .greater
        case .lessOrEqual: return .greaterOrEqual
        case .greater: return .less
        case .greaterOrEqual: return .lessOrEqual
        default: return nil
        }
    }
}

/// `ANY`, `ALL` or `NONE` over the elements of a collection.
enum QueryQuantifier: String, Hashable, Sendable {
    case any = "ANY"
    case all = "ALL"
    case none = "NONE"
}

/// An aggregate of a collection: `@count`, `@sum`, `@min`, `@max`, `@avg`.
enum QueryAggregate: String, Hashable, Sendable {
    case count = "@count"
    case sum = "@sum"
    case min = "@min"
    case max = "@max"
    case average = "@avg"
}

/// The `[c]` and `[d]` modifiers of string comparisons.
struct QueryStringOptions: OptionSet, Hashable, Sendable {
    let rawValue: UInt8
    /// `[c]`: case-insensitive.
    static let caseInsensitive = QueryStringOptions(rawValue: 1)
    /// `[d]`: diacritic-insensitive.
    static let diacriticInsensitive = QueryStringOptions(rawValue: 2)
}

extension QueryExpression {
    /// The conjuncts of a top-level `AND`, for the planner.
    var conjuncts: [QueryExpression] {
        if case .and(let operands) = self { return operands.flatMap(\.conjuncts) }
        return [self]
    }

    /// A readable rendering, for `explain()` and messages.
    var text: String {
        switch self {
        case .constant(let value): return value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .not(let operand): return "NOT (\(operand.text))"
        case .and(let operands): return operands.map { "(\($0.text))" }.joined(separator: " AND ")
        case .or(let operands): return operands.map { "(\($0.text))" }.joined(separator: " OR ")
        case .operands(let comparison): return comparison.text
        case .comparison(let comparison):
            var path = comparison.path.joined(separator: ".")
            if let aggregate = comparison.aggregate { path += "." + aggregate.rawValue }
            var modifiers = ""
            if !comparison.options.isEmpty {
                modifiers =
                    "[" + (comparison.options.contains(.caseInsensitive) ? "c" : "")
                    + (comparison.options.contains(.diacriticInsensitive) ? "d" : "") + "]"
            }
            if comparison.op == .containsElement { return "\(comparison.value) IN\(modifiers) \(path)" }
            return "\(path) \(comparison.op.rawValue)\(modifiers) \(comparison.value)"
        }
    }
}
