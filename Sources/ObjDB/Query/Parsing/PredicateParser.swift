import Foundation

/// Parses the NSPredicate / Realm string syntax into a ``QueryExpression``.
///
/// Supported: `== = != <> < <= > >=`, `BEGINSWITH ENDSWITH CONTAINS LIKE IN BETWEEN`
/// with `[c]`, `[d]`, `[cd]`; `AND && OR || NOT !` and parentheses; `ANY SOME ALL NONE`;
/// key paths through links (`user.screenName`); `@count @sum @min @max @avg`;
/// `{a, b}` lists; `%@` and `%K` arguments; `nil`/`NULL`, `true`/`false`/`YES`/`NO`;
/// `TRUEPREDICATE` and `FALSEPREDICATE`.
struct PredicateParser {
    /// The deepest nesting of parentheses, `NOT`s and `{…}` lists a predicate may have: far
    /// beyond any written by hand, and shallow enough that parsing, compiling and evaluating
    /// (all recursive) stay far from the end of a thread's stack.
    static let maximumDepth = 100

    private let text: String
    private var depth = 0
    private var tokens: [Token] = []
    private var position = 0
    private var arguments: [Any]
    private var argumentIndex = 0
    /// The arguments `$0`, `$1`, … and `$K0`, … named by position.
    private var positionsUsed = Set<Int>()
    /// Parentheses both of whose readings failed, with the error they threw.
    private var failedParentheses: [ParenthesisAttempt: ObjDBError] = [:]
    /// The `SORT(…)`, `DISTINCT(…)` and `LIMIT(n)` after the predicate, in order (see ``OrderingTrailer``).
    private(set) var ordering: [OrderingStep] = []

    init(_ text: String, arguments: [Any]) throws {
        self.text = text
        self.arguments = arguments
        self.tokens = try Lexer(text).tokens()
    }

    /// The whole predicate.
    mutating func parse() throws -> QueryExpression {
        let expression = try parseOr()
        (ordering, position) = try OrderingTrailer.parse(text, tokens, from: position)
        guard current.kind == .end else { throw error("unexpected \(current.describe)") }
        // Arguments the predicate does not name are ignored, as Realm ignores them.
        return expression
    }

    // MARK: Grammar

    private mutating func parseOr() throws -> QueryExpression {
        var operands = [try parseAnd()]
        while current.isKeyword("OR") || current.kind == .symbol("||") {
            advance()
            operands.append(try parseAnd())
        }
        return operands.count == 1 ? operands[0] : .or(operands)
    }

    private mutating func parseAnd() throws -> QueryExpression {
        var operands = [try parseNot()]
        while current.isKeyword("AND") || current.kind == .symbol("&&") {
            advance()
            operands.append(try parseNot())
        }
        return operands.count == 1 ? operands[0] : .and(operands)
    }

    private mutating func parseNot() throws -> QueryExpression {
        if current.isKeyword("NOT") || current.kind == .symbol("!") {
            try enterNesting()
            defer { depth -= 1 }
            advance()
            return .not(try parseNot())
        }
        return try parsePrimary()
    }

    private mutating func parsePrimary() throws -> QueryExpression {
        if current.kind == .symbol("(") {
            // `(a + b) * 2 > c` opens an operand, `(a > b)` a predicate; at most one reading parses.
            // Try the one the parenthesis looks like first (a failed reading throws, which costs
            // more than the rest of the parse), then the other; report whichever error came later.
            // A parenthesis that failed from this state fails again: without the memo, each of two
            // readings re-parses what it holds, and nested SUBQUERYs cost 2^depth.
            let attempt = ParenthesisAttempt(position: position, depth: depth, argumentIndex: argumentIndex)
            if let failure = failedParentheses[attempt] { throw failure }
            let saved = state
            let groupFirst = parenthesisHoldsPredicate()
            var comparisonError: ObjDBError?
            var groupError: ObjDBError?
            for readsGroup in groupFirst ? [true, false] : [false, true] {
                do {
                    return readsGroup ? try parseGroup() : try parseComparison()
                } catch let error as ObjDBError {
                    if readsGroup { groupError = error } else { comparisonError = error }
                    state = saved
                }
            }
            let failure: ObjDBError
            if let comparisonError, let groupError, (comparisonError.position ?? 0) > (groupError.position ?? 0) {
                failure = comparisonError
            } else {
                failure = groupError ?? comparisonError!
            }
            failedParentheses[attempt] = failure
            throw failure
        }
        if current.isKeyword("TRUEPREDICATE") {
            advance()
            return .constant(true)
        }
        if current.isKeyword("FALSEPREDICATE") {
            advance()
            return .constant(false)
        }
        return try parseComparison()
    }

    /// Whether the parenthesis at the current token holds a comparison or a logical operator at
    /// its own level, as `(a > b)` does and `(a + b)` does not. Only a guess of which reading to
    /// try first: both are tried either way, and a predicate needs an operator, so the two cannot
    /// both parse (`TRUEPREDICATE` is left out: `(TRUEPREDICATE) == x` names a property).
    private func parenthesisHoldsPredicate() -> Bool {
        var nesting = 0
        for token in tokens[(position + 1)...] {
            switch token.kind {
            case .symbol("("), .symbol("{"), .symbol("["): nesting += 1
            case .symbol(")"), .symbol("}"), .symbol("]"):
                if nesting == 0 { return false }
                nesting -= 1
            case .end: return false
            case .symbol(let symbol) where nesting == 0 && Self.predicateSymbols.contains(symbol): return true
            case .identifier(let word) where nesting == 0 && Self.predicateWords.contains(word.uppercased()):
                return true
            default: break
            }
        }
        return false
    }

    private static let predicateSymbols: Set<String> = [
        "==", "=", "!=", "<>", "<", "<=", "=<", ">", ">=", "=>", "&&", "||", "!",
    ]
    private static let predicateWords: Set<String> = [
        "AND", "OR", "NOT", "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "IN", "BETWEEN", "ANY", "SOME", "ALL",
        "NONE", "TEXT",
    ]

    /// Where a parenthesis was read from: its outcome depends on nothing else.
    private struct ParenthesisAttempt: Hashable {
        let position: Int
        let depth: Int
        let argumentIndex: Int
    }

    /// The parser's position and what it has used, to try one reading and fall back to another.
    private var state: (position: Int, depth: Int, argumentIndex: Int, positionsUsed: Set<Int>) {
        get { (position, depth, argumentIndex, positionsUsed) }
        set { (position, depth, argumentIndex, positionsUsed) = newValue }
    }

    /// `( predicate )`.
    private mutating func parseGroup() throws -> QueryExpression {
        try enterNesting()
        defer { depth -= 1 }
        advance()
        let inner = try parseOr()
        try expect(.symbol(")"), "a closing parenthesis")
        return inner
    }

    private mutating func parseComparison() throws -> QueryExpression {
        let start = current.offset
        let leftQuantifier = parseQuantifier()
        let lhsStart = current.offset
        let lhs = try parseSum()
        let (op, options) = try parseOperator()
        let rightQuantifier = parseQuantifier()
        let rhs = try parseSum()
        guard lhs.readsTheObject || rhs.readsTheObject else {
            throw error("a comparison needs a key path", at: lhsStart)
        }
        let general = OperandComparison(
            left: lhs, leftQuantifier: leftQuantifier, op: op, options: options, right: rhs,
            rightQuantifier: rightQuantifier, position: start)
        return try lowered(general, at: lhsStart)
    }

    /// `ANY`, `SOME`, `ALL` or `NONE` before an operand, if there is one.
    private mutating func parseQuantifier() -> QueryQuantifier? {
        for (word, value) in [("ANY", QueryQuantifier.any), ("SOME", .any), ("ALL", .all), ("NONE", .none)]
        where current.isKeyword(word) {
            // `any == 1` names a property called `any`: a quantifier is followed by its operand.
            let next = tokens[min(position + 1, tokens.count - 1)].kind
            switch next {
            case .identifier, .string, .number, .argument, .symbol("{"), .symbol("("): break
            default: return nil
            }
            advance()
            return value
        }
        return nil
    }

    /// The comparison as ``QueryComparison`` where it is `path op constant`, so the planner and the
    /// compiled tests see it; otherwise the general form.
    private func lowered(_ general: OperandComparison, at offset: Int) throws -> QueryExpression {
        let op = general.op
        switch (general.left, general.right) {
        case (.keyPath(let path), .value(let value)):
            guard let names = Self.plainNames(path) else { break }
            // `x == {1, 2}` and `x IN {1, 2}` compare with a collection: element by element when `x` is
            // one too (as realm-core compiles both), so only the schema can lower them (QueryNormalizer),
            // as it lowers `x == ANY {1, 2}`.
            let quantifiedIn = op == .in && general.leftQuantifier != nil
            if general.rightQuantifier == nil, !value.isList || op == .between || quantifiedIn {
                return try comparison(names, op, value, general.options, general.leftQuantifier, at: offset)
            }
        case (.value(let value), .keyPath(let path)):
            guard let names = Self.plainNames(path), general.rightQuantifier == nil else { break }
            if op == .in, case .list(let values) = value, let quantifier = general.leftQuantifier {
                // `ANY {1, 2} IN list`: some element is in the list; `ALL`: every one; `NONE`: none.
                let any = try comparison(names, .in, value, general.options, .any, at: offset)
                switch quantifier {
                case .any: return any
                case .none: return .not(any)
                case .all:
                    return .and(
                        try values.map { try comparison(names, .containsElement, $0, general.options, nil, at: offset) }
                    )
                }
            }
            guard !value.isList else { break }
            // `NONE 'ann' IN retweetedBy.name`: a quantifier before one value quantifies the collection.
            if op == .in {
                return try comparison(
                    names, .containsElement, value, general.options, general.leftQuantifier, at: offset)
            }
            // `ANY 5 < x` quantifies one value: the general form rejects it, naming the value.
            guard let flipped = op.flipped, general.leftQuantifier == nil else { break }
            return try comparison(names, flipped, value, general.options, nil, at: offset)
        default:
            break
        }
        return .operands(general)
    }

    /// The names of a key path that ``QueryComparison`` can hold: property names, the last one
    /// possibly an aggregate.
    private static func plainNames(_ path: QueryKeyPath) -> [String]? {
        guard let names = path.names, let first = names.first, !first.hasPrefix("$") else { return nil }
        for (index, name) in names.enumerated() where name.hasPrefix("@") {
            guard index == names.count - 1, index > 0 else { return nil }
            guard ["@count", "@size", "@sum", "@min", "@max", "@avg"].contains(name.lowercased()) else { return nil }
        }
        return names
    }

    private func comparison(
        _ path: [String], _ op: QueryOperator, _ value: StoredValue, _ options: QueryStringOptions,
        _ quantifier: QueryQuantifier?, at offset: Int
    ) throws -> QueryExpression {
        var path = path
        var aggregate: QueryAggregate?
        if let last = path.last, last.hasPrefix("@") {
            let name = last.lowercased() == "@size" ? "@count" : last.lowercased()
            guard let kind = QueryAggregate(rawValue: name) else {
                throw error("unknown aggregate \(last)", at: offset)
            }
            aggregate = kind
            path.removeLast()
        }
        guard !path.isEmpty else { throw error("an aggregate needs a key path", at: offset) }
        if op == .between {
            guard case .list(let ends) = value, ends.count == 2 else {
                throw error("BETWEEN needs a list of two values, such as {1, 10}", at: offset)
            }
        }
        var value = value
        if op == .in, !(value.isList) { value = .list([value]) }
        return .comparison(
            QueryComparison(
                path: path, aggregate: aggregate, quantifier: quantifier ?? .any, op: op, value: value,
                options: options, position: offset, quantifierWritten: quantifier != nil))
    }

    // MARK: Operands

    /// `a + b - c`: sums of products.
    private mutating func parseSum() throws -> QueryOperand {
        var left = try parseProduct()
        var terms = 0
        while true {
            // Each term deepens the operand's tree, which compiling and evaluating recurse through.
            terms += 1
            guard terms <= Self.maximumDepth else {
                throw error("an arithmetic expression has more than \(Self.maximumDepth) terms")
            }
            if current.kind == .symbol("+") || current.kind == .symbol("-") {
                let op: QueryArithmetic = current.kind == .symbol("+") ? .add : .subtract
                advance()
                left = .arithmetic(op, left, try parseProduct())
            } else if case .number(let text) = current.kind, let sign = text.first, sign == "-" || sign == "+" {
                // `a -1`: the lexer reads a signed number, which after an operand is a subtraction.
                let token = current
                advance()
                let magnitude = QueryOperand.value(try number(String(text.dropFirst()), at: token.offset))
                left = .arithmetic(sign == "+" ? .add : .subtract, left, try continueProduct(magnitude))
            } else {
                return left
            }
        }
    }

    /// `a * b / c`.
    private mutating func parseProduct() throws -> QueryOperand {
        try continueProduct(try parseFactor())
    }

    private mutating func continueProduct(_ first: QueryOperand) throws -> QueryOperand {
        var left = first
        var factors = 0
        while current.kind == .symbol("*") || current.kind == .symbol("/") {
            factors += 1
            guard factors <= Self.maximumDepth else {
                throw error("an arithmetic expression has more than \(Self.maximumDepth) factors")
            }
            let op: QueryArithmetic = current.kind == .symbol("*") ? .multiply : .divide
            advance()
            left = .arithmetic(op, left, try parseFactor())
        }
        return left
    }

    /// A parenthesised sum, a `SUBQUERY`, a key path or a value.
    private mutating func parseFactor() throws -> QueryOperand {
        if current.kind == .symbol("(") {
            try enterNesting()
            defer { depth -= 1 }
            advance()
            let inner = try parseSum()
            try expect(.symbol(")"), "a closing parenthesis")
            return inner
        }
        if current.isKeyword("SUBQUERY"), tokens[min(position + 1, tokens.count - 1)].kind == .symbol("(") {
            return try parseSubquery()
        }
        switch try parseOperand() {
        case .keyPath(let path): return .keyPath(path)
        case .value(let value): return .value(value)
        }
    }

    /// `SUBQUERY(collection, $x, predicate).@count` (or `.@size`).
    private mutating func parseSubquery() throws -> QueryOperand {
        let start = current.offset
        try enterNesting()
        defer { depth -= 1 }
        advance()
        try expect(.symbol("("), "'(' after SUBQUERY")
        let collectionToken = current
        guard case .keyPath(let collection) = try parseOperand() else {
            throw error("SUBQUERY needs a key path to a collection first", at: collectionToken.offset)
        }
        try expect(.symbol(","), "',' after the SUBQUERY's collection")
        guard case .identifier(let variable) = current.kind, variable.hasPrefix("$"), variable.count > 1 else {
            throw error("SUBQUERY needs a variable starting with '$', such as $x")
        }
        advance()
        try expect(.symbol(","), "',' after the SUBQUERY's variable")
        let predicateStart = current.offset
        let predicate = try parseOr()
        try expect(.symbol(")"), "')' to close the SUBQUERY")
        let countStart = current.offset
        guard current.kind == .symbol("."),
            case .identifier(let name) = tokens[min(position + 1, tokens.count - 1)].kind,
            ["@count", "@size"].contains(name.lowercased())
        else {
            throw error("a SUBQUERY is compared by its .@count", at: countStart)
        }
        advance()
        advance()
        let relative = try Self.relative(
            predicate, to: variable,
            onError: { message in
                error(message, at: predicateStart)
            })
        _ = start
        return .subqueryCount(QuerySubquery(collection: collection, variable: variable, predicate: relative))
    }

    /// A SUBQUERY's predicate with its key paths relative to the element: the variable removed.
    private static func relative(
        _ expression: QueryExpression, to variable: String, onError: (String) -> ObjDBError
    ) throws -> QueryExpression {
        func strip(_ path: [String]) throws -> [String] {
            guard path.first == variable else {
                throw onError(
                    "in a SUBQUERY every key path starts with \(variable), not \(path.joined(separator: "."))")
            }
            guard path.count > 1 else {
                throw onError("SUBQUERY compares properties of \(variable), such as \(variable).name")
            }
            return Array(path.dropFirst())
        }
        func strip(_ operand: QueryOperand) throws -> QueryOperand {
            switch operand {
            case .value: return operand
            case .keyPath(var path):
                guard case .name(let first)? = path.steps.first, first == variable else {
                    throw onError("in a SUBQUERY every key path starts with \(variable), not \(path.text)")
                }
                // `$x` alone is the element: the schema check says whether it can be compared.
                path.steps[0] = .element(variable)
                if path.steps.count > 1 { path.steps.removeFirst() }
                return .keyPath(path)
            case .arithmetic(let op, let left, let right): return .arithmetic(op, try strip(left), try strip(right))
            case .subqueryCount(var inner):
                guard case .keyPath(let collection) = try strip(.keyPath(inner.collection)) else { return operand }
                inner.collection = collection
                return .subqueryCount(inner)
            }
        }
        switch expression {
        case .constant: return expression
        case .not(let inner): return .not(try relative(inner, to: variable, onError: onError))
        case .and(let parts): return .and(try parts.map { try relative($0, to: variable, onError: onError) })
        case .or(let parts): return .or(try parts.map { try relative($0, to: variable, onError: onError) })
        case .comparison(var comparison):
            comparison.path = try strip(comparison.path)
            return .comparison(comparison)
        case .operands(var comparison):
            comparison.left = try strip(comparison.left)
            comparison.right = try strip(comparison.right)
            return .operands(comparison)
        }
    }

    /// The `@` names a key path may hold.
    private static let pathKeywords: Set<String> = [
        "@count", "@size", "@sum", "@min", "@max", "@avg", "@links", "@keys", "@values",
    ]

    /// A key path's steps after its first name: `.name`, `['key']`, `[index]`.
    private mutating func parseKeyPath(startingWith name: String, at offset: Int) throws -> QueryKeyPath {
        if name.hasPrefix("@"), name.lowercased() != "@links" {
            throw error("a key path starts with a property name or @links, not \(name)", at: offset)
        }
        return try continueKeyPath([.name(name)], at: offset)
    }

    /// The `.name`, `['key']` and `[index]` steps after `steps`, as far as they go.
    private mutating func continueKeyPath(_ steps: [QueryPathStep], at offset: Int) throws -> QueryKeyPath {
        var steps = steps
        while true {
            if current.kind == .symbol(".") {
                advance()
                guard case .identifier(let next) = current.kind else { throw error("a property name after '.'") }
                if next.hasPrefix("@"), !Self.pathKeywords.contains(next.lowercased()) {
                    throw error("unknown aggregate \(next)", at: offset)
                }
                steps.append(.name(next))
                advance()
            } else if current.kind == .symbol("[") {
                let open = current.offset
                advance()
                switch current.kind {
                case .string(let key): steps.append(.key(key))
                case .number(let text):
                    guard let index = Int(text), index >= 0 else {
                        throw error("a list index is a whole number from 0, not \(text)")
                    }
                    steps.append(.index(.position(index)))
                case .symbol("*"): steps.append(.index(.all))
                case .identifier(let word) where Self.placeholder(word)?.isKeyPath == false:
                    // `scores[$0]`: a map key (a string argument) or a list index (a number), as Realm reads it.
                    steps.append(try subscriptArgument(word))
                case .identifier(let word) where ["FIRST", "LAST", "SIZE"].contains(word.uppercased()):
                    steps.append(
                        .index(word.uppercased() == "FIRST" ? .first : word.uppercased() == "LAST" ? .last : .size))
                default:
                    throw error("expected an index (0, FIRST, LAST, SIZE or *) or a 'key', found \(current.describe)")
                }
                advance()
                try expect(.symbol("]"), "']' to close the subscript opened at position \(open)")
            } else {
                return QueryKeyPath(steps, position: offset)
            }
        }
    }

    /// A number written in the predicate.
    private func number(_ text: String, at offset: Int) throws -> StoredValue {
        if let integer = Int64(text) { return .int(integer) }
        guard let double = Double(text) else { throw error("\(text) is not a number", at: offset) }
        return .double(double)
    }

    private enum Operand {
        case keyPath(QueryKeyPath)
        case value(StoredValue)
    }

    private mutating func parseOperand() throws -> Operand {
        let token = current
        switch token.kind {
        case .identifier(let name):
            if let (value, count) = try PredicateFunctionLiteral.read(tokens, at: position, text: text) {
                position += count
                return .value(value)
            }
            advance()
            switch name.uppercased() {
            case "NIL", "NULL": return .value(.null)
            case "TRUE", "YES": return .value(.bool(true))
            case "FALSE", "NO": return .value(.bool(false))
            default: break
            }
            if let (position, isKeyPath) = Self.placeholder(name) {
                guard position < arguments.count else {
                    throw error("\(name) has no argument: \(arguments.count) given", at: token.offset)
                }
                positionsUsed.insert(position)
                let argument = arguments[position]
                guard isKeyPath else {
                    guard let value = QueryArgument.storedValue(argument) else {
                        throw error(
                            "an argument of type \(type(of: argument)) cannot be compared", at: token.offset)
                    }
                    return .value(value)
                }
                guard let keyPath = argument as? String else {
                    throw error("\(name) needs a key path string argument", at: token.offset)
                }
                return .keyPath(try argumentKeyPath(keyPath, for: name, at: token.offset, continuing: .aggregateOnly))
            }
            return .keyPath(try parseKeyPath(startingWith: name, at: token.offset))
        case .string(let text):
            advance()
            return .value(.string(text))
        case .number(let text):
            advance()
            switch PredicateLiteral.number(text) {
            case .success(let value): return .value(value)
            case .failure(let failure): throw error(failure.message, at: token.offset)
            }
        case .literal(let value, _):
            advance()
            return .value(value)
        case .argument("%@"):
            advance()
            return .value(try takeArgument(at: token.offset))
        case .argument("%K"):
            advance()
            guard argumentIndex < arguments.count, let name = arguments[argumentIndex] as? String else {
                throw error("%K needs a key path string argument", at: token.offset)
            }
            argumentIndex += 1
            return .keyPath(try argumentKeyPath(name, for: "%K", at: token.offset, continuing: .anyStep))
        case .symbol("{"):
            try enterNesting()
            defer { depth -= 1 }
            advance()
            var values: [StoredValue] = []
            if current.kind != .symbol("}") {
                repeat {
                    if current.kind == .symbol(",") { advance() }
                    guard case .value(let value) = try parseOperand() else {
                        throw error("a list holds values, not key paths", at: token.offset)
                    }
                    values.append(value)
                } while current.kind == .symbol(",")
            }
            try expect(.symbol("}"), "'}' to close the list")
            return .value(.list(values))
        default:
            throw error("expected a key path or a value, found \(token.describe)")
        }
    }

    /// What may follow a key path argument in the predicate.
    private enum ArgumentContinuation {
        /// `%K.name`, `%K[0]`, `%K.@count`: NSPredicate splices the key path into the one written.
        case anyStep
        /// `$K0.@count`, `$K0.@size`, `$K0.@sum`, `$K0.@sum.age`: Realm's grammar lets only these
        /// follow a key path argument ("Key path argument cannot be mixed with other elements").
        case aggregateOnly
    }

    /// The key path a `%K` or `$K0` argument names, spliced in before what the predicate writes
    /// after it.
    private mutating func argumentKeyPath(
        _ keyPath: String, for placeholder: String, at offset: Int, continuing: ArgumentContinuation
    ) throws -> QueryKeyPath {
        let names = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard names.allSatisfy({ !$0.isEmpty && !$0.contains(where: \.isWhitespace) }) else {
            throw error("\(placeholder) needs a key path such as 'dogs.age', not '\(keyPath)'", at: offset)
        }
        let continuationStart = current.offset
        let path = try continueKeyPath(names.map(QueryPathStep.name), at: offset)
        guard continuing == .aggregateOnly else { return path }
        let written = path.steps.dropFirst(names.count)
        let aggregates: Set<String> = ["@sum", "@min", "@max", "@avg"]
        func name(_ step: QueryPathStep?) -> String? {
            if case .name(let name)? = step { return name.lowercased() }
            return nil
        }
        let first = name(written.first)
        let allowed: Bool
        switch written.count {
        case 0: allowed = true
        case 1: allowed = first.map { ["@count", "@size"].contains($0) || aggregates.contains($0) } ?? false
        case 2: allowed = (first.map(aggregates.contains) ?? false) && !(name(written.last)?.hasPrefix("@") ?? true)
        default: allowed = false
        }
        guard allowed else {
            throw error(
                "a \(placeholder) key path is followed only by .@count, .@size or an aggregate such as .@sum.age, "
                    + "as in Realm; put the whole key path in the argument", at: continuationStart)
        }
        return path
    }

    private mutating func parseOperator() throws -> (QueryOperator, QueryStringOptions) {
        let token = current
        let op: QueryOperator
        switch token.kind {
        case .symbol("=="), .symbol("="): op = .equal
        case .symbol("!="), .symbol("<>"): op = .notEqual
        case .symbol("<"): op = .less
        case .symbol("<="), .symbol("=<"): op = .lessOrEqual
        case .symbol(">"): op = .greater
        case .symbol(">="), .symbol("=>"): op = .greaterOrEqual
        case .identifier(let word):
            switch word.uppercased() {
            case "BEGINSWITH": op = .beginsWith
            case "ENDSWITH": op = .endsWith
            case "CONTAINS": op = .contains
            case "LIKE": op = .like
            case "IN": op = .in
            case "BETWEEN": op = .between
            case "TEXT": op = .text
            default: throw error("expected an operator, found \(token.describe)")
            }
        default:
            throw error("expected an operator, found \(token.describe)")
        }
        advance()
        var options: QueryStringOptions = []
        if current.kind == .symbol("[") {
            advance()
            guard case .identifier(let letters) = current.kind else { throw error("expected c, d or cd") }
            for letter in letters.lowercased() {
                switch letter {
                case "c": options.insert(.caseInsensitive)
                case "d": options.insert(.diacriticInsensitive)
                default: throw error("unknown modifier '\(letter)'; use c, d or cd")
                }
            }
            advance()
            try expect(.symbol("]"), "']' to close the modifiers")
        }
        return (op, options)
    }

    /// Counts one more level of nesting at the current token, or throws past ``maximumDepth``.
    private mutating func enterNesting() throws {
        depth += 1
        guard depth <= Self.maximumDepth else {
            throw error("the predicate nests deeper than \(Self.maximumDepth) levels")
        }
    }

    // MARK: Arguments

    /// The argument position `$3` (a value) or `$K3` (a key path) names, as in Realm's query language.
    private static func placeholder(_ name: String) -> (position: Int, isKeyPath: Bool)? {
        guard name.hasPrefix("$") else { return nil }
        var digits = name.dropFirst()
        let isKeyPath = digits.hasPrefix("K")
        if isKeyPath { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let position = Int(digits) else { return nil }
        return (position, isKeyPath)
    }

    /// The subscript `[$n]` names: its argument's string as a map key, or its number as a list index.
    private mutating func subscriptArgument(_ word: String) throws -> QueryPathStep {
        let position = Self.placeholder(word)!.position
        guard position < arguments.count else {
            throw error("\(word) has no argument: \(arguments.count) given")
        }
        positionsUsed.insert(position)
        switch QueryArgument.storedValue(arguments[position]) {
        case .string(let key): return .key(key)
        case .int(let index) where index >= 0: return .index(.position(Int(index)))
        default:
            throw error("[\(word)] needs a string argument (a map key) or a whole number (a list index)")
        }
    }

    private mutating func takeArgument(at offset: Int) throws -> StoredValue {
        guard argumentIndex < arguments.count else { throw error("%@ has no argument", at: offset) }
        let argument = arguments[argumentIndex]
        argumentIndex += 1
        guard let value = QueryArgument.storedValue(argument) else {
            throw error("an argument of type \(type(of: argument)) cannot be compared", at: offset)
        }
        return value
    }

    // MARK: Tokens

    private var current: Token { tokens[min(position, tokens.count - 1)] }

    private mutating func advance() {
        position += 1
    }

    private mutating func expect(_ kind: Token.Kind, _ what: String) throws {
        guard current.kind == kind else { throw error("expected \(what), found \(current.describe)") }
        advance()
    }

    private func error(_ message: String, at offset: Int? = nil) -> ObjDBError {
        .predicateSyntax(predicate: text, position: offset ?? current.offset, message: message)
    }
}

/// Converts `%@` arguments and `where`-closure operands into stored values.
enum QueryArgument {
    static func storedValue(_ argument: Any) -> StoredValue? {
        if let value = argument as? StoredValue { return value }
        if argument is NSNull { return .null }
        let mirror = Mirror(reflecting: argument)
        if mirror.displayStyle == .optional {
            guard let wrapped = mirror.children.first?.value else { return .null }
            return storedValue(wrapped)
        }
        switch argument {
        case let value as Bool: return .bool(value)
        case let value as Int: return .int(Int64(value))
        case let value as Int8: return .int(Int64(value))
        case let value as Int16: return .int(Int64(value))
        case let value as Int32: return .int(Int64(value))
        case let value as Int64: return .int(value)
        case let value as UInt8: return .int(Int64(value))
        case let value as UInt16: return .int(Int64(value))
        case let value as UInt32: return .int(Int64(value))
        case let value as Float: return .float(value)
        case let value as Double: return .double(value)
        case let value as String: return .string(value)
        case let value as Substring: return .string(String(value))
        case let value as Date: return .date(value)
        case let value as UUID: return .uuid(value)
        case let value as Data: return .data(value)
        case let value as Decimal: return .decimal(value)
        case let object as Object:
            guard let accessor = object.accessor else { return nil }
            return .link(type: accessor.binding.schema.name, key: accessor.objectKey)
        case let object as DynamicObject:
            return .link(type: object.typeName, key: object.objectKey)
        case let values as [Any]:
            let converted = values.compactMap(storedValue)
            return converted.count == values.count ? .list(converted) : nil
        default:
            if let enumValue = argument as? any RawRepresentable { return storedValue(enumValue.rawValue) }
            return nil
        }
    }
}

extension QueryOperand {
    /// Whether the operand reads the object (a key path or a subquery), not only constants.
    var readsTheObject: Bool {
        switch self {
        case .value: return false
        case .keyPath, .subqueryCount: return true
        case .arithmetic(_, let left, let right): return left.readsTheObject || right.readsTheObject
        }
    }
}

extension StoredValue {
    var isList: Bool {
        if case .list = self { return true }
        return false
    }
}
