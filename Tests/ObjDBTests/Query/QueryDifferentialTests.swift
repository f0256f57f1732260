import Foundation
import TestSupport
import Testing

@testable import ObjDB

final class Item: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted(indexed: true) var count = 0
    @Persisted var score = 0.0
    @Persisted(indexed: true) var name = ""
    @Persisted var nickname: String?
    @Persisted var flag = false
    @Persisted(indexed: true) var when = Date(timeIntervalSince1970: 0)
    @Persisted var numbers: List<Int>
    @Persisted var owner: Owner?
}

final class Owner: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
}

/// Thousands of random predicates and sorts over random data: every result must equal
/// a naive evaluation of the same question over plain Swift values.
@Suite("Queries: differential")
struct QueryDifferentialTests {
    struct Row {
        var id: Int
        var count: Int
        var score: Double
        var name: String
        var nickname: String?
        var flag: Bool
        var when: Date
        var numbers: [Int]
        var ownerName: String?
    }

    static let words = [
        "", "a", "A", "ab", "Ab", "abc", "é", "e", "É", "ÉTÉ", "été", "ete", "straße", "STRASSE", "日本", "😀x", "x😀",
        "b*", "?",
    ]
    static let scores: [Double] = [.nan, -.infinity, -1.5, -0.0, 0, 0.5, 1, 2.25, .infinity]

    @Test(arguments: [7, 8, 9])
    func randomPredicatesAndSortsMatchANaiveEvaluation(seed: UInt64) throws {
        let run = try DifferentialRun(seed: seed)
        for mismatch in try run.mismatches(rounds: 700) { Issue.record("\(mismatch)") }
    }

    /// The differential test can fail: with any one operator of the naive evaluator wrong, it
    /// finds a query where the engine and the evaluator disagree.
    @Test(arguments: NaiveMutation.allCases)
    func aNaiveEvaluatorWithOneOperatorWrongIsCaught(mutation: NaiveMutation) throws {
        let run = try DifferentialRun(seed: 7)
        let mismatches = try run.mismatches(rounds: 3000, mutation: mutation, stoppingAtFirst: true)
        #expect(!mismatches.isEmpty, "a naive evaluator with \(mutation) agreed with the engine in 3000 rounds")
    }
}

/// A store of random rows beside the same rows as plain values, and the rounds of random queries
/// run on both.
struct DifferentialRun {
    typealias Row = QueryDifferentialTests.Row
    let directory = TemporaryDirectory()
    let db: Database
    let rows: [Row]
    let seed: UInt64

    init(seed: UInt64) throws {
        self.seed = seed
        db = try Database(path: directory.store(), types: [Item.self, Owner.self])
        var random = SeededGenerator(seed: seed)
        var rows: [Row] = []
        let words = QueryDifferentialTests.words
        try db.write { transaction in
            let owners = try (0..<4).map { id in
                try transaction.create(Owner.self, value: ["id": id, "name": words.randomElement(using: &random)!])
            }
            for id in 0..<250 {
                let item = Item()
                item.id = id
                item.count = Int.random(in: -5...5, using: &random)
                item.score = QueryDifferentialTests.scores.randomElement(using: &random)!
                item.name = words.randomElement(using: &random)!
                item.nickname = Bool.random(using: &random) ? words.randomElement(using: &random) : nil
                item.flag = Bool.random(using: &random)
                item.when = Date(timeIntervalSince1970: Double(Int.random(in: 0...4, using: &random)))
                item.numbers.append(
                    contentsOf: (0..<Int.random(in: 0...3, using: &random)).map { _ in
                        Int.random(in: -3...3, using: &random)
                    })
                item.owner = Int.random(in: 0...4, using: &random) == 0 ? nil : owners.randomElement(using: &random)
                try transaction.add(item)
                rows.append(
                    Row(
                        id: id, count: item.count, score: item.score, name: item.name, nickname: item.nickname,
                        flag: item.flag, when: item.when, numbers: Array(item.numbers), ownerName: item.owner?.name))
            }
        }
        self.rows = rows
    }

    /// Runs `rounds` random predicates (and a sort every seventh round) on the store and on the
    /// rows, the latter evaluated with `mutation`, and describes every disagreement.
    func mismatches(rounds: Int, mutation: NaiveMutation? = nil, stoppingAtFirst: Bool = false) throws -> [String] {
        var random = SeededGenerator(seed: seed &+ 1000)
        let items = try db.view().objects(Item.self)
        var found: [String] = []
        for round in 0..<rounds {
            var generator = PredicateGenerator(random: random, mutation: mutation)
            let predicate = generator.predicate(depth: 3)
            random = generator.random
            let expected = rows.filter { predicate.evaluate($0) }.map(\.id)
            let results = try items.filter(predicate.format, argumentArray: predicate.arguments)
            if results.map(\.id) != expected {
                found.append("round \(round): \(predicate.format) \(predicate.arguments)")
                if stoppingAtFirst { return found }
            }
            if round % 7 == 0 {
                let (descriptor, compare) = generator.sort()
                random = generator.random
                let sorted = try results.sorted(by: [descriptor, SortKey("id")]).map(\.id)
                let reference = rows.filter { predicate.evaluate($0) }
                    .sorted { compare($0, $1) ?? ($0.id < $1.id) }.map(\.id)
                if sorted != reference {
                    found.append("round \(round): \(predicate.format) sorted by \(descriptor)")
                    if stoppingAtFirst { return found }
                }
                // The same sort in the string (Realm's SORT has no [c]), with a LIMIT.
                if descriptor.options.isEmpty {
                    let direction = descriptor.ascending ? "ASC" : "DESC"
                    let limit = round % 3
                    let trailer = " SORT(\(descriptor.keyPath) \(direction), id ASC) LIMIT(\(limit * 10))"
                    let inString = try items.filter(
                        "(\(predicate.format))" + trailer, argumentArray: predicate.arguments)
                    if inString.map(\.id) != Array(reference.prefix(limit * 10)) {
                        found.append("round \(round): \(predicate.format)\(trailer)")
                        if stoppingAtFirst { return found }
                    }
                }
            }
        }
        return found
    }
}

/// One operator of the naive evaluator given a wrong meaning, to show the differential test
/// notices: each is a mistake an engine could plausibly make.
enum NaiveMutation: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case equalAsLessOrEqual, notEqualAsGreater, lessAsLessOrEqual, lessOrEqualAsLess, greaterAsGreaterOrEqual
    case greaterOrEqualAsGreater, beginsWithAsContains, endsWithAsContains, containsAsBeginsWith
    case likeAsEqual, caseInsensitivityIgnored, diacriticInsensitivityIgnored, betweenExcludingTheEnds
    case inTheFirstValueOnly, allAsAny, noneAsAll, anyAsAll, averageAsSum, minimumAsMaximum, countOneMore
    case andAsOr, orAsAnd, notIgnored, nilNicknameMatchesNotEqual, sortDirectionIgnored

    var testDescription: String { rawValue }

    /// What the evaluator takes `spelling` (an operator, a quantifier or an aggregate) to mean.
    func meaning(of spelling: String) -> String {
        let substitution: (String, String)
        switch self {
        case .equalAsLessOrEqual: substitution = ("==", "<=")
        case .notEqualAsGreater: substitution = ("!=", ">")
        case .lessAsLessOrEqual: substitution = ("<", "<=")
        case .lessOrEqualAsLess: substitution = ("<=", "<")
        case .greaterAsGreaterOrEqual: substitution = (">", ">=")
        case .greaterOrEqualAsGreater: substitution = (">=", ">")
        case .beginsWithAsContains: substitution = ("BEGINSWITH", "CONTAINS")
        case .endsWithAsContains: substitution = ("ENDSWITH", "CONTAINS")
        case .containsAsBeginsWith: substitution = ("CONTAINS", "BEGINSWITH")
        case .likeAsEqual: substitution = ("LIKE", "==")
        case .caseInsensitivityIgnored: substitution = ("[c]", "")
        case .diacriticInsensitivityIgnored: substitution = ("[d]", "")
        case .betweenExcludingTheEnds: substitution = ("BETWEEN", "BETWEEN-EXCLUSIVE")
        case .inTheFirstValueOnly: substitution = ("IN", "IN-FIRST")
        case .allAsAny: substitution = ("ALL", "ANY")
        case .noneAsAll: substitution = ("NONE", "ALL")
        case .anyAsAll: substitution = ("ANY", "ALL")
        case .averageAsSum: substitution = ("@avg", "@sum")
        case .minimumAsMaximum: substitution = ("@min", "@max")
        case .countOneMore: substitution = ("@count", "@count+1")
        case .andAsOr: substitution = ("AND", "OR")
        case .orAsAnd: substitution = ("OR", "AND")
        case .notIgnored: substitution = ("NOT", "")
        case .nilNicknameMatchesNotEqual: substitution = ("nil !=", "nil ==")
        case .sortDirectionIgnored: substitution = ("descending", "ascending")
        }
        return spelling == substitution.0 ? substitution.1 : spelling
    }
}

extension NaiveMutation? {
    /// The meaning of `spelling` to an evaluator with this mutation, or none.
    func meaning(of spelling: String) -> String { self?.meaning(of: spelling) ?? spelling }
}

/// A random predicate: its string form with arguments, and its meaning over a row.
struct GeneratedPredicate {
    var format: String
    var arguments: [Any]
    var evaluate: (QueryDifferentialTests.Row) -> Bool
}

struct PredicateGenerator {
    var random: SeededGenerator
    /// The naive evaluator's deliberate mistake, if any (see ``NaiveMutation``).
    var mutation: NaiveMutation?
    typealias Row = QueryDifferentialTests.Row

    init(random: SeededGenerator, mutation: NaiveMutation? = nil) {
        self.random = random
        self.mutation = mutation
    }

    mutating func predicate(depth: Int) -> GeneratedPredicate {
        if depth > 0, Int.random(in: 0..<3, using: &random) == 0 {
            let left = predicate(depth: depth - 1)
            let right = predicate(depth: depth - 1)
            let and: (Bool, Bool) -> Bool = { $0 && $1 }
            let or: (Bool, Bool) -> Bool = { $0 || $1 }
            switch Int.random(in: 0..<3, using: &random) {
            case 0:
                let meant = mutation.meaning(of: "AND") == "AND" ? and : or
                return GeneratedPredicate(
                    format: "(\(left.format)) AND (\(right.format))", arguments: left.arguments + right.arguments,
                    evaluate: { meant(left.evaluate($0), right.evaluate($0)) })
            case 1:
                let meant = mutation.meaning(of: "OR") == "OR" ? or : and
                return GeneratedPredicate(
                    format: "(\(left.format)) OR (\(right.format))", arguments: left.arguments + right.arguments,
                    evaluate: { meant(left.evaluate($0), right.evaluate($0)) })
            default:
                let negates = mutation.meaning(of: "NOT") == "NOT"
                return GeneratedPredicate(
                    format: "NOT (\(left.format))", arguments: left.arguments,
                    evaluate: { left.evaluate($0) != negates })
            }
        }
        return atom()
    }

    private mutating func pick<T>(_ values: [T]) -> T { values.randomElement(using: &random)! }

    private mutating func atom() -> GeneratedPredicate {
        let ordered = ["==", "!=", "<", "<=", ">", ">="]
        let mutation = self.mutation
        switch Int.random(in: 0..<14, using: &random) {
        case 11:
            return literal()
        case 12, 13:
            return operands()
        case 0:
            let op = pick(ordered)
            let meant = mutation.meaning(of: op)
            let value = Int.random(in: -6...6, using: &random)
            return GeneratedPredicate(format: "count \(op) %@", arguments: [value]) { compare($0.count, meant, value) }
        case 1:
            let low = Int.random(in: -5...3, using: &random)
            let high = low + Int.random(in: 0...4, using: &random)
            if Bool.random(using: &random) {
                let exclusive = mutation.meaning(of: "BETWEEN") != "BETWEEN"
                return GeneratedPredicate(format: "count BETWEEN {\(low), \(high)}", arguments: []) {
                    exclusive ? ($0.count > low && $0.count < high) : ($0.count >= low && $0.count <= high)
                }
            }
            let values = mutation.meaning(of: "IN") == "IN" ? [low, high] : [low]
            return GeneratedPredicate(format: "count IN {\(low), \(high)}", arguments: []) {
                values.contains($0.count)
            }
        case 2:
            let op = pick(ordered)
            let meant = mutation.meaning(of: op)
            let value = pick(QueryDifferentialTests.scores)
            return GeneratedPredicate(format: "score \(op) %@", arguments: [value]) { compare($0.score, meant, value) }
        case 3, 4:
            let op = pick(["==", "!=", "<", ">", "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE"])
            let meant = mutation.meaning(of: op)
            let modifier = pick(["", "[c]", "[d]", "[cd]"])
            var options: QueryStringOptions = []
            if modifier.contains("c"), mutation.meaning(of: "[c]") == "[c]" { options.insert(.caseInsensitive) }
            if modifier.contains("d"), mutation.meaning(of: "[d]") == "[d]" { options.insert(.diacriticInsensitive) }
            let value =
                op == "LIKE" ? pick(["*", "a*", "?", "*é*", "?b*", "É??", "*😀"]) : pick(QueryDifferentialTests.words)
            return GeneratedPredicate(format: "name \(op)\(modifier) %@", arguments: [value]) { [options] in
                compareText($0.name, meant, value, options)
            }
        case 5:
            switch Int.random(in: 0..<3, using: &random) {
            case 0: return GeneratedPredicate(format: "nickname == nil", arguments: []) { $0.nickname == nil }
            case 1: return GeneratedPredicate(format: "nickname != nil", arguments: []) { $0.nickname != nil }
            default:
                let value = pick(QueryDifferentialTests.words)
                let op = pick(["==", "!=", "BEGINSWITH"])
                let meant = mutation.meaning(of: op)
                let nilMatches = op == "!=" && mutation.meaning(of: "nil !=") == "nil !="
                return GeneratedPredicate(format: "nickname \(op) %@", arguments: [value]) { row in
                    guard let nickname = row.nickname else { return nilMatches }
                    return compareText(nickname, meant, value, [])
                }
            }
        case 6:
            let value = Bool.random(using: &random)
            return GeneratedPredicate(format: "flag == \(value ? "YES" : "false")", arguments: []) { $0.flag == value }
        case 7:
            let op = pick(ordered)
            let meant = mutation.meaning(of: op)
            let value = Date(timeIntervalSince1970: Double(Int.random(in: 0...4, using: &random)))
            return GeneratedPredicate(format: "when \(op) %@", arguments: [value]) { compare($0.when, meant, value) }
        case 8:
            let quantifier = pick(["ANY", "ALL", "NONE"])
            let meantQuantifier = mutation.meaning(of: quantifier)
            let op = pick(ordered)
            let meant = mutation.meaning(of: op)
            let value = Int.random(in: -3...3, using: &random)
            return GeneratedPredicate(format: "\(quantifier) numbers \(op) %@", arguments: [value]) { row in
                let outcomes = row.numbers.map { compare($0, meant, value) }
                switch meantQuantifier {
                case "ANY": return outcomes.contains(true)
                case "ALL": return outcomes.allSatisfy { $0 }
                default: return !outcomes.contains(true)
                }
            }
        case 9:
            let aggregate = pick(["@count", "@sum", "@min", "@max", "@avg"])
            let meantAggregate = mutation.meaning(of: aggregate)
            let op = pick(ordered)
            let meant = mutation.meaning(of: op)
            let value = Int.random(in: -3...3, using: &random)
            return GeneratedPredicate(format: "numbers.\(aggregate) \(op) \(value)", arguments: []) { row in
                let numbers = row.numbers.map(Double.init)
                let reduced: Double?
                switch meantAggregate {
                case "@count": reduced = Double(numbers.count)
                case "@count+1": reduced = Double(numbers.count + 1)
                case "@sum": reduced = numbers.reduce(0, +)
                case "@min": reduced = numbers.min()
                case "@max": reduced = numbers.max()
                default: reduced = numbers.isEmpty ? nil : numbers.reduce(0, +) / Double(numbers.count)
                }
                guard let reduced else { return op == "!=" }
                return compare(reduced, meant, Double(value))
            }
        default:
            if Int.random(in: 0..<4, using: &random) == 0 {
                return GeneratedPredicate(format: "owner == nil", arguments: []) { $0.ownerName == nil }
            }
            let op = pick(["==", "!=", "BEGINSWITH", "<"])
            let meant = mutation.meaning(of: op)
            let modifier = pick(["", "[c]"])
            let folds = !modifier.isEmpty && mutation.meaning(of: "[c]") == "[c]"
            let value = pick(QueryDifferentialTests.words)
            return GeneratedPredicate(format: "owner.name \(op)\(modifier) %@", arguments: [value]) { row in
                guard let name = row.ownerName else { return op == "!=" }
                return compareText(name, meant, value, folds ? [.caseInsensitive] : [])
            }
        }
    }

    /// A comparison with one of Realm's literals: a date (`1970-01-01@00:00:02`, `T2:0`), a signed,
    /// hexadecimal or exponent number, `inf`, `-inf` or `NaN`.
    private mutating func literal() -> GeneratedPredicate {
        let op = pick(["==", "!=", "<", "<=", ">", ">="])
        let meant = mutation.meaning(of: op)
        switch Int.random(in: 0..<3, using: &random) {
        case 0:
            let second = Int.random(in: 0...4, using: &random)
            let nanoseconds = pick([0, 0, 500_000_000])
            let spelled =
                Bool.random(using: &random)
                ? "1970-01-01@00:00:0\(second)" + (nanoseconds == 0 ? "" : ":\(nanoseconds)")
                : "T\(second):\(nanoseconds)"
            let value = Date(timeIntervalSince1970: Double(second) + Double(nanoseconds) / 1e9)
            return GeneratedPredicate(format: "when \(op) \(spelled)", arguments: []) { compare($0.when, meant, value) }
        case 1:
            let value = Int.random(in: -6...6, using: &random)
            let spelled = pick([
                value >= 0 ? "+\(value)" : "\(value)", value >= 0 ? "0x\(String(value, radix: 16))" : "-0x\(-value)",
                "\(value)e0",
            ])
            return GeneratedPredicate(format: "count \(op) \(spelled)", arguments: []) {
                compare(Double($0.count), meant, Double(value))
            }
        default:
            let (spelled, value) = pick([
                ("inf", Double.infinity), ("-inf", -.infinity), ("NaN", .nan), ("+2.25", 2.25),
            ])
            return GeneratedPredicate(format: "score \(op) \(spelled)", arguments: []) {
                compare($0.score, meant, value)
            }
        }
    }

    /// The operand forms: a property against another, quantified constant lists on either side,
    /// list indexes, `.length`, arithmetic and an aggregate against a property.
    private mutating func operands() -> GeneratedPredicate {
        let mutation = self.mutation
        let op = pick(["==", "!=", "<", "<=", ">", ">="])
        let meant = mutation.meaning(of: op)
        let quantifier = pick(["ANY", "ALL", "NONE"])
        let meantQuantifier = mutation.meaning(of: quantifier)
        func quantified(_ outcomes: [Bool]) -> Bool {
            switch meantQuantifier {
            case "ANY": return outcomes.contains(true)
            case "ALL": return outcomes.allSatisfy { $0 }
            default: return !outcomes.contains(true)
            }
        }
        let values = (0..<Int.random(in: 1...3, using: &random)).map { _ in Int.random(in: -3...3, using: &random) }
        let list = "{" + values.map(String.init).joined(separator: ", ") + "}"
        switch Int.random(in: 0..<10, using: &random) {
        case 0:
            return GeneratedPredicate(format: "count \(op) score", arguments: []) {
                compare(Double($0.count), meant, $0.score)
            }
        case 1:
            return GeneratedPredicate(format: "count \(op) \(quantifier) \(list)", arguments: []) { row in
                quantified(values.map { compare(row.count, meant, $0) })
            }
        case 2:
            return GeneratedPredicate(format: "\(quantifier) \(list) IN numbers", arguments: []) { row in
                quantified(
                    values.map { value in
                        mutation.meaning(of: "IN") == "IN" ? row.numbers.contains(value) : row.numbers.first == value
                    })
            }
        case 3:
            // An index past the end reads nothing, which no comparison matches.
            let op = pick(["==", "<", "<=", ">", ">="])
            let meant = mutation.meaning(of: op)
            let (spelled, element): (String, ([Int]) -> Int?) = pick([
                ("numbers[0]", { $0.first }), ("numbers[1]", { $0.count > 1 ? $0[1] : nil }),
                ("numbers[FIRST]", { $0.first }), ("numbers[LAST]", { $0.last }), ("numbers[SIZE]", { $0.count }),
            ])
            let value = Int.random(in: -3...3, using: &random)
            return GeneratedPredicate(format: "\(spelled) \(op) \(value)", arguments: []) { row in
                element(row.numbers).map { compare($0, meant, value) } ?? false
            }
        case 4:
            let value = Int.random(in: 0...7, using: &random)
            return GeneratedPredicate(format: "name.length \(op) \(value)", arguments: []) {
                compare($0.name.utf8.count, meant, value)
            }
        case 5:
            let (spelled, apply): (String, (Int) -> Int) = pick([
                ("count + 2", { $0 + 2 }), ("count * 3", { $0 * 3 }), ("count - 1", { $0 - 1 }),
                ("2 * count + 1", { 2 * $0 + 1 }), ("(count + 1) * 2", { ($0 + 1) * 2 }),
            ])
            let value = Int.random(in: -8...8, using: &random)
            return GeneratedPredicate(format: "\(spelled) \(op) \(value)", arguments: []) {
                compare(apply($0.count), meant, value)
            }
        case 6:
            let textOp = pick(["==", "!=", "BEGINSWITH", "CONTAINS"])
            let meantText = mutation.meaning(of: textOp)
            let modifier = pick(["", "[c]"])
            let folds = !modifier.isEmpty && mutation.meaning(of: "[c]") == "[c]"
            return GeneratedPredicate(format: "nickname \(textOp)\(modifier) name", arguments: []) { row in
                guard let nickname = row.nickname else { return textOp == "!=" }
                return compareText(nickname, meantText, row.name, folds ? [.caseInsensitive] : [])
            }
        case 7:
            let aggregate = pick(["@sum", "@count", "@max"])
            let meantAggregate = mutation.meaning(of: aggregate)
            return GeneratedPredicate(format: "numbers.\(aggregate) \(op) count", arguments: []) { row in
                let reduced: Int?
                switch meantAggregate {
                case "@sum": reduced = row.numbers.reduce(0, +)
                case "@count": reduced = row.numbers.count
                case "@count+1": reduced = row.numbers.count + 1
                case "@min": reduced = row.numbers.min()
                default: reduced = row.numbers.max()
                }
                guard let reduced else { return op == "!=" }
                return compare(reduced, meant, row.count)
            }
        case 8:
            // A `%K` key path continued in the predicate: `%K.@count`, `%K.@sum`, `%K.name`.
            let value = Int.random(in: -3...3, using: &random)
            if Bool.random(using: &random) {
                let word = pick(QueryDifferentialTests.words)
                let textOp = pick(["==", "!=", "BEGINSWITH", "<"])
                let meantText = mutation.meaning(of: textOp)
                return GeneratedPredicate(format: "%K.name \(textOp) %@", arguments: ["owner", word]) { row in
                    guard let name = row.ownerName else { return textOp == "!=" }
                    return compareText(name, meantText, word, [])
                }
            }
            let aggregate = pick(["@count", "@sum", "@size"])
            let meantAggregate = mutation.meaning(of: aggregate)
            return GeneratedPredicate(format: "%K.\(aggregate) \(op) \(value)", arguments: ["numbers"]) { row in
                let reduced = meantAggregate == "@sum" ? row.numbers.reduce(0, +) : row.numbers.count
                return compare(reduced + (meantAggregate == "@count+1" ? 1 : 0), meant, value)
            }
        default:
            let value = Int.random(in: -3...3, using: &random)
            return GeneratedPredicate(format: "\(value) \(op) count", arguments: []) { compare(value, meant, $0.count) }
        }
    }

    mutating func sort() -> (SortKey, (Row, Row) -> Bool?) {
        let ascending = Bool.random(using: &random)
        let meantAscending = ascending || mutation.meaning(of: "descending") != "descending"
        func order<T>(_ left: T, _ right: T, _ less: (T, T) -> Bool) -> Bool? {
            if less(left, right) { return meantAscending }
            if less(right, left) { return !meantAscending }
            return nil
        }
        switch Int.random(in: 0..<4, using: &random) {
        case 0:
            return (SortKey("count", ascending: ascending), { order($0.count, $1.count, <) })
        case 1:
            let folded = Bool.random(using: &random)
            return (
                SortKey("name", ascending: ascending, options: folded ? .caseInsensitive : []),
                { left, right in
                    let a = Array(QueryText.fold(left.name, folded ? .caseInsensitive : []).utf8)
                    let b = Array(QueryText.fold(right.name, folded ? .caseInsensitive : []).utf8)
                    return order(a, b) { $0.lexicographicallyPrecedes($1) }
                }
            )
        case 2:
            // NaN sorts first among numbers
            return (
                SortKey("score", ascending: ascending),
                { order($0.score, $1.score) { a, b in a.isNaN ? !b.isNaN : (!b.isNaN && a < b) } }
            )
        default:
            // nil links sort first
            return (
                SortKey("owner.name", ascending: ascending),
                { left, right in
                    order(left.ownerName, right.ownerName) { a, b in
                        guard let a else { return b != nil }
                        guard let b else { return false }
                        return Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8))
                    }
                }
            )
        }
    }
}

private func compare<T: Comparable>(_ value: T, _ op: String, _ constant: T) -> Bool {
    switch op {
    case "==": return value == constant
    case "!=": return value != constant
    case "<": return value < constant
    case "<=": return value <= constant
    case ">": return value > constant
    case ">=": return value >= constant
    default: preconditionFailure("no comparison \(op)")
    }
}

private func compareText(_ value: String, _ op: String, _ constant: String, _ options: QueryStringOptions) -> Bool {
    let text = QueryText.fold(value, options)
    let other = QueryText.fold(constant, options)
    let a = Array(text.utf8)
    let b = Array(other.utf8)
    switch op {
    case "==": return a == b
    case "!=": return a != b
    case "<": return a.lexicographicallyPrecedes(b)
    case ">": return b.lexicographicallyPrecedes(a)
    case "BEGINSWITH": return a.starts(with: b)
    case "ENDSWITH": return a.count >= b.count && Array(a.suffix(b.count)) == b
    case "CONTAINS":
        return b.isEmpty
            || (a.count >= b.count && (0...(a.count - b.count)).contains { Array(a[$0..<$0 + b.count]) == b })
    case "LIKE":
        return QueryText.like(Array(text.unicodeScalars)[...], Array(other.unicodeScalars)[...])
    case "<=": return !b.lexicographicallyPrecedes(a)
    case ">=": return !a.lexicographicallyPrecedes(b)
    default: preconditionFailure("no string comparison \(op)")
    }
}
