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

    init(_ text: String, arguments: [Any]) throws {
        self.text = text
        self.arguments = arguments
        self.tokens = try Lexer(text).tokens()
    }

    /// The whole predicate.
    mutating func parse() throws -> QueryExpression {
        let expression = try parseOr()
        guard current.kind == .end else { throw error("unexpected \(current.describe)") }
        let used = positionsUsed.union(0..<argumentIndex).count
        guard used == arguments.count else {
            throw error("\(arguments.count) arguments given, \(used) used", at: 0)
        }
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
            try enterNesting()
            defer { depth -= 1 }
            advance()
            let inner = try parseOr()
            try expect(.symbol(")"), "a closing parenthesis")
            return inner
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

    private mutating func parseComparison() throws -> QueryExpression {
        var quantifier: QueryQuantifier?
        for (word, value) in [("ANY", QueryQuantifier.any), ("SOME", .any), ("ALL", .all), ("NONE", .none)]
        where current.isKeyword(word) {
            quantifier = value
            advance()
            break
        }
        let lhsStart = current.offset
        let lhs = try parseOperand()
        let opStart = current.offset
        let (op, options) = try parseOperator()
        let rhs = try parseOperand()

        switch (lhs, rhs) {
        case (.keyPath(let path), .value(let value)):
            return try comparison(path, op, value, options, quantifier, at: lhsStart)
        case (.value(let value), .keyPath(let path)):
            if op == .in {
                return try comparison(path, .containsElement, value, options, quantifier, at: lhsStart)
            }
            guard let flipped = op.flipped else {
                throw error("\(op.rawValue) needs the key path on its left", at: opStart)
            }
            return try comparison(path, flipped, value, options, quantifier, at: lhsStart)
        case (.keyPath, .keyPath):
            throw error("comparing two key paths is not supported", at: opStart)
        case (.value, .value):
            throw error("a comparison needs a key path", at: lhsStart)
        }
    }

    private func comparison(
        _ path: [String], _ op: QueryOperator, _ value: StoredValue, _ options: QueryStringOptions,
        _ quantifier: QueryQuantifier?, at offset: Int
    ) throws -> QueryExpression {
        var path = path
        var aggregate: QueryAggregate?
        if let last = path.last, last.hasPrefix("@") {
            guard let kind = QueryAggregate(rawValue: last.lowercased()) else {
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
                options: options))
    }

    private enum Operand {
        case keyPath([String])
        case value(StoredValue)
    }

    private mutating func parseOperand() throws -> Operand {
        let token = current
        switch token.kind {
        case .identifier(let name):
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
                return .keyPath(keyPath.split(separator: ".").map(String.init))
            }
            var path = [name]
            while current.kind == .symbol(".") {
                advance()
                guard case .identifier(let next) = current.kind else { throw error("a property name after '.'") }
                path.append(next)
                advance()
            }
            return .keyPath(path)
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
            return .keyPath(name.split(separator: ".").map(String.init))
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

extension StoredValue {
    var isList: Bool {
        if case .list = self { return true }
        return false
    }
}
