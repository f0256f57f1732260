/// One step after a query's filter, as Realm's `SORT(…)`, `DISTINCT(…)` and `LIMIT(n)` write it.
///
/// Realm applies the steps of a predicate's trailer in the order they are written, each to the
/// objects the step before left: `LIMIT(5) SORT(age ASC)` sorts five objects, `SORT(age ASC)
/// LIMIT(5)` keeps the five youngest. A sort keeps the order it finds among equal objects.
enum OrderingStep: Hashable, Sendable {
    case sort([SortKey])
    case distinct([String])
    case limit(Int)

    /// Whether the step is a limit.
    var isLimit: Bool {
        if case .limit = self { return true }
        return false
    }
}

extension QuerySpec {
    /// `self` followed by `steps`, applied in order after what the spec already does.
    ///
    /// Steps that the spec's own sort, `distinct` and limit (applied in that order) can do are
    /// folded into them, so `SORT(a ASC) LIMIT(5)` plans and runs exactly as
    /// `.sorted(by:).limit(5)`; the others follow in ``then``.
    func ordered(by steps: [OrderingStep]) -> QuerySpec {
        var spec = self
        for step in steps {
            // A ranked search's order is its own, and its limit picks the best: whatever follows
            // applies to what it picked, as a step after it (a limit only lowers its limit).
            if spec.then.isEmpty, spec.ranking == nil || step.isLimit {
                switch step {
                case .sort(let keys) where spec.distinctPaths.isEmpty && spec.limit == nil:
                    // A sort after a sort: the later decides first, the earlier breaks its ties.
                    spec.sorts = keys + spec.sorts
                    continue
                case .distinct(let paths) where spec.distinctPaths.isEmpty && spec.limit == nil:
                    spec.distinctPaths = paths
                    continue
                case .limit(let count):
                    spec.limit = Swift.min(count, spec.limit ?? count)
                    continue
                default:
                    break
                }
            }
            switch (spec.then.last, step) {
            case (.sort(let earlier), .sort(let keys)):
                spec.then[spec.then.count - 1] = .sort(keys + earlier)
            case (.limit(let earlier), .limit(let count)):
                spec.then[spec.then.count - 1] = .limit(Swift.min(earlier, count))
            default:
                spec.then.append(step)
            }
        }
        return spec
    }

    /// The order the results end in: the last sort decides first, each earlier one breaks the
    /// ties of the later, and the table key breaks the rest (`distinct` and limits keep order).
    var effectiveSorts: [SortKey] {
        var keys = sorts
        for case .sort(let later) in then { keys = later + keys }
        return keys
    }

    /// The key paths the spec's sorts and `distinct`s read, wherever they apply.
    var orderingKeyPaths: [String] {
        var paths = sorts.map(\.keyPath) + distinctPaths
        for step in then {
            switch step {
            case .sort(let keys): paths += keys.map(\.keyPath)
            case .distinct(let more): paths += more
            case .limit: break
            }
        }
        return paths
    }
}

/// Reads the `SORT(…)`, `DISTINCT(…)` and `LIMIT(n)` that may follow a predicate, as Realm's
/// grammar has them: `SORT(path ASC|DESC, …)` (the direction is required, `ASCENDING` and
/// `DESCENDING` spell it too), `DISTINCT(path, …)`, `LIMIT(natural number)`, in any order and
/// number, keywords in any case.
struct OrderingTrailer {
    let text: String
    let tokens: [Token]
    private(set) var position: Int

    /// The steps starting at `position`, and the position after them.
    static func parse(_ text: String, _ tokens: [Token], from position: Int) throws -> ([OrderingStep], Int) {
        var trailer = OrderingTrailer(text: text, tokens: tokens, position: position)
        var steps: [OrderingStep] = []
        while let step = try trailer.step() { steps.append(step) }
        return (steps, trailer.position)
    }

    private mutating func step() throws -> OrderingStep? {
        let keyword = current
        guard case .identifier(let word) = keyword.kind else { return nil }
        let name = word.uppercased()
        guard ["SORT", "DISTINCT", "LIMIT"].contains(name) else { return nil }
        advance()
        guard current.kind == .symbol("(") else {
            throw error("\(name) takes its arguments in parentheses, such as \(Self.example(name))")
        }
        advance()
        let step: OrderingStep
        switch name {
        case "SORT":
            var keys: [SortKey] = []
            repeat {
                if !keys.isEmpty { advance() }
                let path = try keyPath(for: name)
                keys.append(SortKey(path, ascending: try direction(of: path)))
            } while current.kind == .symbol(",")
            step = .sort(keys)
        case "DISTINCT":
            var paths: [String] = []
            repeat {
                if !paths.isEmpty { advance() }
                paths.append(try keyPath(for: name))
            } while current.kind == .symbol(",")
            step = .distinct(paths)
        default:
            guard case .number(let digits) = current.kind, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                throw error("LIMIT takes a whole number of objects, such as LIMIT(10), not \(current.describe)")
            }
            guard let count = Int(digits) else { throw error("LIMIT(\(digits)) is too large") }
            advance()
            step = .limit(count)
        }
        guard current.kind == .symbol(")") else {
            throw error("expected ',' or ')' to close \(name)(…), found \(current.describe)")
        }
        advance()
        return step
    }

    /// A key path: names joined by `.`, the last possibly a map's with a key (`scores['math']`).
    private mutating func keyPath(for keyword: String) throws -> String {
        guard case .identifier(let first) = current.kind else {
            throw error("\(keyword) takes key paths, such as \(Self.example(keyword)), not \(current.describe)")
        }
        var names = [first]
        advance()
        while current.kind == .symbol(".") {
            advance()
            guard case .identifier(let next) = current.kind else { throw error("expected a property name after '.'") }
            names.append(next)
            advance()
        }
        var path = names.joined(separator: ".")
        if current.kind == .symbol("[") {
            advance()
            guard case .string(let key) = current.kind else {
                throw error("\(keyword) takes a map's value by a key in quotes, such as scores['math']")
            }
            advance()
            guard current.kind == .symbol("]") else { throw error("expected ']' after the map key") }
            advance()
            path += SortPath.subscriptText(key)
        }
        return path
    }

    private mutating func direction(of path: String) throws -> Bool {
        guard case .identifier(let word) = current.kind else {
            throw error("SORT needs ASC or DESC after \(path), found \(current.describe)")
        }
        switch word.uppercased() {
        case "ASC", "ASCENDING":
            advance()
            return true
        case "DESC", "DESCENDING":
            advance()
            return false
        default:
            throw error("SORT needs ASC or DESC after \(path), found \(current.describe)")
        }
    }

    private static func example(_ keyword: String) -> String {
        switch keyword {
        case "SORT": return "SORT(age DESC, name ASC)"
        case "DISTINCT": return "DISTINCT(name)"
        default: return "LIMIT(10)"
        }
    }

    private var current: Token { tokens[Swift.min(position, tokens.count - 1)] }

    private mutating func advance() { position += 1 }

    private func error(_ message: String) -> ObjDBError {
        .predicateSyntax(predicate: text, position: current.offset, message: message)
    }
}
