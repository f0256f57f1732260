/// `left op right` between two operands, each a key path, a constant, a constant list, an
/// arithmetic expression or a `SUBQUERY(…).@count`, with a quantifier on either side:
/// `items.@sum.price > balance`, `ANY {1, 2} IN list`, `price * quantity >= 100`.
///
/// Forms that are really `path op constant` are lowered into ``QueryComparison`` (see
/// ``QueryNormalizer``) so they reach the planner; the rest run in an ``OperandEvaluator``.
struct OperandComparison: Hashable, Sendable {
    var left: QueryOperand
    /// `ANY`, `ALL` or `NONE` written before the left operand.
    var leftQuantifier: QueryQuantifier?
    var op: QueryOperator
    var options: QueryStringOptions = []
    var right: QueryOperand
    /// `ANY`, `ALL` or `NONE` written before the right operand (`x == ANY {1, 2}`).
    var rightQuantifier: QueryQuantifier?
    /// Where the comparison starts in the predicate, for messages (`nil` when not from text).
    var position: Int?
}

/// One side of an ``OperandComparison``.
indirect enum QueryOperand: Hashable, Sendable {
    /// A constant; a ``StoredValue/list(_:)`` is a constant list (`{1, 2}`), compared as a collection.
    case value(StoredValue)
    /// A key path from the queried object (or from a `SUBQUERY` variable).
    case keyPath(QueryKeyPath)
    /// `left op right` on numbers.
    case arithmetic(QueryArithmetic, QueryOperand, QueryOperand)
    /// `SUBQUERY(collection, $variable, predicate).@count`: how many elements match.
    case subqueryCount(QuerySubquery)
}

/// `+ - * /`.
enum QueryArithmetic: String, Hashable, Sendable {
    case add = "+"
    case subtract = "-"
    case multiply = "*"
    case divide = "/"
}

/// A key path as written: names, `['key']` subscripts and `[index]`es. What a name means (a
/// property, `@count`, `@links`, `length`, a map key) is decided against the schema.
struct QueryKeyPath: Hashable, Sendable {
    var steps: [QueryPathStep]
    /// Where the key path starts in the predicate (`nil` when not from text).
    var position: Int?

    init(_ steps: [QueryPathStep], position: Int? = nil) {
        self.steps = steps
        self.position = position
    }

    /// A path of property names only.
    init(names: [String], position: Int? = nil) {
        self.init(names.map(QueryPathStep.name), position: position)
    }

    /// The names, when the path holds names only.
    var names: [String]? {
        var names: [String] = []
        for step in steps {
            guard case .name(let name) = step else { return nil }
            names.append(name)
        }
        return names
    }

    var text: String {
        var text = ""
        for step in steps {
            switch step {
            case .name(let name), .element(let name): text += text.isEmpty ? name : "." + name
            case .key(let key): text += "['\(key)']"
            case .index(let index): text += "[\(index.text)]"
            }
        }
        return text
    }
}

/// One step of a ``QueryKeyPath``.
enum QueryPathStep: Hashable, Sendable {
    /// `.name`: a property, an aggregate (`@count`, `@size`, `@sum`, …), `@links`, `@keys`,
    /// `@values`, `length`, a map key, or a `SUBQUERY` variable (`$x`).
    case name(String)
    /// `['key']`: a map's value for a key.
    case key(String)
    /// `[0]`, `[FIRST]`, `[LAST]`, `[SIZE]`, `[*]`.
    case index(QueryListIndex)
    /// A `SUBQUERY`'s variable alone (`$x == %@`): the element itself, named as written.
    case element(String)
}

/// A list subscript.
enum QueryListIndex: Hashable, Sendable {
    case position(Int)
    case first
    case last
    /// `[SIZE]`: the number of elements.
    case size
    /// `[*]`: every element.
    case all

    var text: String {
        switch self {
        case .position(let position): return "\(position)"
        case .first: return "FIRST"
        case .last: return "LAST"
        case .size: return "SIZE"
        case .all: return "*"
        }
    }
}

/// `SUBQUERY(collection, $variable, predicate)`; the predicate's key paths start with the variable.
struct QuerySubquery: Hashable, Sendable {
    var collection: QueryKeyPath
    var variable: String
    /// The predicate over one element, its key paths relative to the element (the variable removed).
    var predicate: QueryExpression
}

extension OperandComparison {
    /// A readable rendering, for `explain()` and messages.
    var text: String {
        func side(_ quantifier: QueryQuantifier?, _ operand: QueryOperand) -> String {
            (quantifier.map { $0.rawValue + " " } ?? "") + operand.text
        }
        var modifiers = ""
        if !options.isEmpty {
            modifiers =
                "[" + (options.contains(.caseInsensitive) ? "c" : "")
                + (options.contains(.diacriticInsensitive) ? "d" : "") + "]"
        }
        return "\(side(leftQuantifier, left)) \(op.spelling)\(modifiers) \(side(rightQuantifier, right))"
    }

    /// The key paths of property names the comparison reads (for change tracking).
    var keyPaths: [[String]] { left.keyPaths + right.keyPaths }
}

extension QueryOperand {
    var text: String {
        switch self {
        case .value(.list(let values)): return "{" + values.map { "\($0)" }.joined(separator: ", ") + "}"
        case .value(let value): return "\(value)"
        case .keyPath(let path): return path.text
        case .arithmetic(let op, let left, let right): return "(\(left.text) \(op.rawValue) \(right.text))"
        case .subqueryCount(let subquery):
            return
                "SUBQUERY(\(subquery.collection.text), \(subquery.variable), \(subquery.predicate.text)).@count"
        }
    }

    var keyPaths: [[String]] {
        switch self {
        case .value: return []
        case .keyPath(let path):
            return [
                path.steps.compactMap { step in if case .name(let name) = step { return name } else { return nil } }
            ]
        case .arithmetic(_, let left, let right): return left.keyPaths + right.keyPaths
        case .subqueryCount(let subquery):
            let base = subquery.collection.steps.compactMap { step -> String? in
                if case .name(let name) = step { return name } else { return nil }
            }
            return [base] + subquery.predicate.keyPathsRead.map { base + $0 }
        }
    }
}

extension QueryExpression {
    /// The key paths of property names the expression reads, its operand comparisons' included.
    var keyPathsRead: [[String]] {
        switch self {
        case .constant: return []
        case .not(let inner): return inner.keyPathsRead
        case .and(let parts), .or(let parts): return parts.flatMap(\.keyPathsRead)
        case .comparison(let comparison): return [comparison.path]
        case .operands(let comparison): return comparison.keyPaths
        }
    }
}
