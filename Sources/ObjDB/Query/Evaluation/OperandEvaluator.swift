import Foundation

/// Runs one ``OperandComparison`` on a record, as Realm's query engine does: each operand
/// becomes the values it reaches (one, or a collection's), which are then compared pairwise,
/// element by element when both are collections without a quantifier, otherwise quantified
/// (`ANY` by default). A ``FilterProgram`` runs it as one nested instruction.
///
/// Unlike the compiled field tests it decodes values (a `String` per string read): it serves
/// the forms that have no typed test (two properties, aggregates through links, arithmetic,
/// maps, subqueries), and simple forms never reach it (see ``QueryNormalizer``).
final class OperandEvaluator {
    let left: CompiledOperand
    let leftQuantifier: QueryQuantifier?
    let op: QueryOperator
    let options: QueryStringOptions
    let right: CompiledOperand
    let rightQuantifier: QueryQuantifier?
    let codec: ValueCodec

    init(
        left: CompiledOperand, leftQuantifier: QueryQuantifier?, op: QueryOperator, options: QueryStringOptions,
        right: CompiledOperand, rightQuantifier: QueryQuantifier?, schema: SchemaIndex
    ) {
        self.left = left
        self.leftQuantifier = leftQuantifier
        self.op = op
        self.options = options
        self.right = right
        self.rightQuantifier = rightQuantifier
        self.codec = ValueCodec(schema: schema)
    }

    /// Whether the object `key` of `binding`'s type, whose record is `reader`, matches.
    func matches(_ reader: RecordReader, key: UnsafeRawBufferPointer, of binding: TypeBinding, in source: QueryReader)
        throws -> Bool
    {
        let object = OperandItem.object(binding, reader, key: Array(key))
        let leftItems = try evaluate(left.node, from: object, in: source)
        let rightItems = try evaluate(right.node, from: object, in: source)
        return compare(leftItems, left.isList, rightItems, right.isList)
    }

    // MARK: Comparing

    private func compare(_ left: Reached, _ leftIsList: Bool, _ right: Reached, _ rightIsList: Bool) -> Bool {
        if op == .between {
            guard right.items.count == 2 else { return false }
            let (low, high) = (right.items[0], right.items[1])
            return Self.quantified(leftQuantifier ?? .any, leftIsList ? left.items[...] : left.items.prefix(1)) {
                value in
                guard let lower = order(value, low), let upper = order(value, high) else { return false }
                return lower >= 0 && upper <= 0
            }
        }
        if !leftIsList && !rightIsList {
            guard let first = left.items.first, let second = right.items.first else { return false }
            return test(first, second)
        }
        if leftIsList && rightIsList && leftQuantifier == nil && rightQuantifier == nil {
            // Two collections and no quantifier: element by element, in order.
            let count = left.total
            guard count == right.total else { return op == .notEqual }
            let lefts = left.ordered(limit: count)
            let rights = right.ordered(limit: count)
            for index in lefts.indices where !test(lefts[index], rights[index]) { return false }
            return true
        }
        let leftValues = leftIsList ? left.items[...] : left.items.prefix(1)
        let rightValues = rightIsList ? right.items[...] : right.items.prefix(1)
        return Self.quantified(leftQuantifier ?? .any, leftValues) { value in
            Self.quantified(rightQuantifier ?? .any, rightValues) { test(value, $0) }
        }
    }

    private static func quantified(
        _ quantifier: QueryQuantifier, _ items: ArraySlice<OperandItem>, _ matches: (OperandItem) -> Bool
    ) -> Bool {
        switch quantifier {
        case .any: return items.contains(where: matches)
        case .all: return items.allSatisfy(matches)
        case .none: return !items.contains(where: matches)
        }
    }

    private func test(_ left: OperandItem, _ right: OperandItem) -> Bool {
        switch op {
        case .equal, .in, .containsElement: return equal(left, right)
        case .notEqual: return !equal(left, right)
        case .less: return order(left, right).map { $0 < 0 } ?? false
        case .greater: return order(left, right).map { $0 > 0 } ?? false
        case .lessOrEqual: return left.isNull && right.isNull || (order(left, right).map { $0 <= 0 } ?? false)
        case .greaterOrEqual: return left.isNull && right.isNull || (order(left, right).map { $0 >= 0 } ?? false)
        case .between, .text: return false
        case .beginsWith, .endsWith, .contains, .like: return textTest(left, right)
        }
    }

    private func equal(_ left: OperandItem, _ right: OperandItem) -> Bool {
        switch (left.objectIdentity, right.objectIdentity) {
        case (let a?, let b?): return a.type == b.type && a.key == b.key
        case (.some, nil), (nil, .some): return false
        case (nil, nil): break
        }
        guard case .value(let a) = left, case .value(let b) = right else { return false }
        if let (x, y) = alike(a, b) { return equal(.value(x), .value(y)) }
        switch (a, b) {
        case (.null, .null): return true
        case (.null, _), (_, .null): return false
        case (.string(let x), .string(let y)):
            return options.isEmpty ? x == y : QueryText.fold(x, options) == QueryText.fold(y, options)
        case (.data(let x), .data(let y)): return x == y
        case (.bool(let x), .bool(let y)): return x == y
        case (.date(let x), .date(let y)): return x == y
        case (.uuid(let x), .uuid(let y)): return x == y
        default:
            guard let x = OperandNumber(a), let y = OperandNumber(b) else { return false }
            return x.compare(y) == 0
        }
    }

    /// The order of two values (negative, zero, positive), or `nil` when they have none (`nil`, NaN, other kinds).
    private func order(_ left: OperandItem, _ right: OperandItem) -> Int? {
        guard case .value(let a) = left, case .value(let b) = right else { return nil }
        if let (x, y) = alike(a, b) { return order(.value(x), .value(y)) }
        switch (a, b) {
        case (.string(let x), .string(let y)):
            let (x, y) = options.isEmpty ? (x, y) : (QueryText.fold(x, options), QueryText.fold(y, options))
            return Self.compareBytes(Array(x.utf8), Array(y.utf8))
        case (.data(let x), .data(let y)): return Self.compareBytes(Array(x), Array(y))
        case (.date(let x), .date(let y)): return x < y ? -1 : (x > y ? 1 : 0)
        case (.uuid(let x), .uuid(let y)):
            return Self.compareBytes(
                withUnsafeBytes(of: x.uuid) { Array($0) }, withUnsafeBytes(of: y.uuid) { Array($0) })
        default:
            guard let x = OperandNumber(a), let y = OperandNumber(b) else { return nil }
            return x.compare(y)
        }
    }

    private static func compareBytes(_ x: [UInt8], _ y: [UInt8]) -> Int {
        if x == y { return 0 }
        return x.lexicographicallyPrecedes(y) ? -1 : 1
    }

    /// `BEGINSWITH`, `ENDSWITH`, `CONTAINS`, `LIKE` of `left` by `right`, on text or on bytes.
    private func textTest(_ left: OperandItem, _ right: OperandItem) -> Bool {
        guard case .value(let a) = left, case .value(let b) = right else { return false }
        if a.isNull || b.isNull {
            // realm-core's conditions on values (query_conditions.hpp): `LIKE` matches two nulls,
            // `CONTAINS` of a null pattern matches every value that is not null, and nothing else
            // matches a null on either side.
            switch op {
            case .like: return a.isNull && b.isNull
            case .contains: return b.isNull && !a.isNull
            default: return false
            }
        }
        if let (x, y) = alike(a, b) { return textTest(.value(x), .value(y)) }
        switch (a, b) {
        case (.string(let text), .string(let pattern)):
            let folded = QueryText.fold(text, options)
            let needle = QueryText.fold(pattern, options)
            switch op {
            case .beginsWith: return folded.utf8.starts(with: needle.utf8)
            case .endsWith: return folded.utf8.reversed().starts(with: needle.utf8.reversed())
            case .contains: return needle.isEmpty || Self.contains(Array(folded.utf8), Array(needle.utf8))
            default: return QueryText.like(Array(folded.unicodeScalars)[...], Array(needle.unicodeScalars)[...])
            }
        case (.data(let bytes), .data(let pattern)):
            switch op {
            case .beginsWith: return bytes.starts(with: pattern)
            case .endsWith: return bytes.reversed().starts(with: pattern.reversed())
            case .contains: return pattern.isEmpty || Self.contains(Array(bytes), Array(pattern))
            default: return false
            }
        default:
            return false
        }
    }

    /// A string and binary data compare as bytes, and `[c]` or `LIKE` read data as text, as in
    /// Realm: the pair as two values of one kind, or `nil` when it is one already (or not text).
    private func alike(_ a: StoredValue, _ b: StoredValue) -> (StoredValue, StoredValue)? {
        func bytes(_ value: StoredValue) -> [UInt8]? {
            switch value {
            case .string(let text): return Array(text.utf8)
            case .data(let data): return Array(data)
            default: return nil
            }
        }
        let asText = !options.isEmpty || op == .like
        switch (a, b) {
        case (.string, .string): return nil
        case (.data, .data) where !asText: return nil
        default: break
        }
        guard let x = bytes(a), let y = bytes(b) else { return nil }
        guard asText else { return (.data(Data(x)), .data(Data(y))) }
        return (.string(String(decoding: x, as: UTF8.self)), .string(String(decoding: y, as: UTF8.self)))
    }

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        for start in 0...(haystack.count - needle.count)
        where haystack[start..<start + needle.count].elementsEqual(needle) {
            return true
        }
        return false
    }

    // MARK: Evaluating operands

    private func evaluate(_ node: OperandNode, from object: OperandItem, in source: QueryReader) throws -> Reached {
        switch node {
        case .constant(let item): return Reached(items: [item])
        case .constantList(let items): return Reached(items: items)
        case .path(let steps): return try reach(steps, from: object, in: source)
        case .arithmetic(let op, let left, let right):
            let lefts = try evaluate(left, from: object, in: source)
            let rights = try evaluate(right, from: object, in: source)
            if lefts.total == 1, let value = lefts.items.first?.storedValue {
                return rights.mapItems { .value(OperandNumber.apply(op, value, $0.storedValue)) }
            }
            if rights.total == 1, let value = rights.items.first?.storedValue {
                return lefts.mapItems { .value(OperandNumber.apply(op, $0.storedValue, value)) }
            }
            let pairs = zip(lefts.ordered(limit: .max), rights.ordered(limit: .max))
            return Reached(items: pairs.map { .value(OperandNumber.apply(op, $0.storedValue, $1.storedValue)) })
        case .subqueryCount(let steps, _, let program):
            // Each element once, counted as often as the collection holds it.
            let elements = try reach(steps, from: object, in: source)
            var count = 0
            for (element, times) in zip(elements.items, elements.counts) {
                guard case .object(_, let record, let key) = element else { continue }
                if try key.withUnsafeBytes({ try program.matches(record, key: $0, in: source) }) {
                    count = Reached.adding(count, times)
                }
            }
            return Reached(items: [.value(.int(Int64(count)))])
        }
    }
}

/// A compiled operand: what it reads, the kind of value it yields, and whether that is a collection.
struct CompiledOperand {
    let node: OperandNode
    let kind: OperandKind
    /// Whether the operand yields a collection's values (compared under a quantifier), not one value.
    let isList: Bool
    /// The operand as written, for messages.
    let label: String
    let position: Int?
}

indirect enum OperandNode {
    case constant(OperandItem)
    case constantList([OperandItem])
    case path([OperandStep])
    case arithmetic(QueryArithmetic, OperandNode, OperandNode)
    /// How many of the objects the path reaches match the program.
    case subqueryCount([OperandStep], TypeBinding, FilterProgram)
}

/// One step of a compiled key path, from the items the previous step reached.
enum OperandStep {
    /// A property of each object: its value, the linked or embedded object, or a collection's elements.
    case property(slot: Int, schema: PropertySchema, target: TypeBinding?)
    /// A map property of each object, read as `access` says.
    case map(slot: Int, schema: PropertySchema, target: TypeBinding?, access: MapAccess)
    /// The objects of `origin` linking to each object through the property (once per link).
    case backlinks(origin: TypeBinding, propertyID: UInt16)
    /// The number of links to each object, from any type.
    case allBacklinksCount
    case index(QueryListIndex)
    /// One number for every item reached (`dogs.@count`, `items.@sum.price`).
    case aggregate(QueryAggregate)
    /// One number for each collection of values the step before read (`photos.ratings.@count`).
    case collectionAggregate(QueryAggregate)
    /// The length of each string (UTF-8 bytes, as Realm counts) or binary value; `nil` for `nil`.
    case length
    /// The length of each string or binary value of a collection; 0 for a `nil` element.
    case elementLength
}

enum MapAccess: Equatable {
    case values, keys
    case key(String)
}

/// A value an operand reaches: an object (with its record, valid for the transaction) or a value.
enum OperandItem {
    case object(TypeBinding, RecordReader, key: [UInt8])
    case value(StoredValue)
    /// An object given as a constant.
    case link(type: String, key: [UInt8])

    init(constant: StoredValue) {
        if case .link(let type, let key) = constant {
            self = .link(type: type, key: ObjectKeyCodec.encode(key))
        } else {
            self = .value(constant)
        }
    }

    var isNull: Bool {
        if case .value(.null) = self { return true }
        return false
    }

    var objectIdentity: (type: String, key: [UInt8])? {
        switch self {
        case .object(let binding, _, let key): return (binding.schema.name, key)
        case .link(let type, let key): return (type, key)
        case .value: return nil
        }
    }

    /// The item as a value (objects are not numbers or strings: they read as `nil` here).
    var storedValue: StoredValue {
        if case .value(let value) = self { return value }
        return .null
    }
}

/// A number of any kind, compared and combined as Realm does: integers exactly, decimals as
/// decimals, everything else as `Double`.
enum OperandNumber {
    case int(Int64)
    case double(Double)
    case decimal(Decimal)

    init?(_ value: StoredValue) {
        switch value {
        case .int(let number): self = .int(number)
        case .float(let number): self = .double(Double(number))
        case .double(let number): self = .double(number)
        case .decimal(let number): self = .decimal(number)
        default: return nil
        }
    }

    var double: Double {
        switch self {
        case .int(let number): return Double(number)
        case .double(let number): return number
        case .decimal(let number): return NSDecimalNumber(decimal: number).doubleValue
        }
    }

    var decimal: Decimal? {
        switch self {
        case .int(let number): return Decimal(number)
        case .decimal(let number): return number
        case .double: return nil
        }
    }

    var storedValue: StoredValue {
        switch self {
        case .int(let number): return .int(number)
        case .double(let number): return .double(number)
        case .decimal(let number): return .decimal(number)
        }
    }

    /// Negative, zero or positive; `nil` for NaN.
    func compare(_ other: OperandNumber) -> Int? {
        switch (self, other) {
        case (.int(let a), .int(let b)): return a < b ? -1 : (a > b ? 1 : 0)
        case (.decimal, .decimal), (.decimal, .int), (.int, .decimal):
            let (a, b) = (decimal!, other.decimal!)
            return a < b ? -1 : (a > b ? 1 : 0)
        default:
            let (a, b) = (double, other.double)
            if a.isNaN || b.isNaN { return nil }
            return a < b ? -1 : (a > b ? 1 : 0)
        }
    }

    /// `left op right`; `nil` when either is `nil` or not a number, or for an integer or decimal division by zero.
    static func apply(_ op: QueryArithmetic, _ left: StoredValue, _ right: StoredValue) -> StoredValue {
        guard let a = OperandNumber(left), let b = OperandNumber(right) else { return .null }
        switch (a, b) {
        case (.int(let x), .int(let y)):
            let result: (partialValue: Int64, overflow: Bool)
            switch op {
            case .add: result = x.addingReportingOverflow(y)
            case .subtract: result = x.subtractingReportingOverflow(y)
            case .multiply: result = x.multipliedReportingOverflow(by: y)
            case .divide:
                guard y != 0 else { return .null }
                result = x.dividedReportingOverflow(by: y)
            }
            if !result.overflow { return .int(result.partialValue) }
            return .double(apply(op, a.double, b.double))
        case (.decimal, .decimal), (.decimal, .int), (.int, .decimal):
            let (x, y) = (a.decimal!, b.decimal!)
            switch op {
            case .add: return .decimal(x + y)
            case .subtract: return .decimal(x - y)
            case .multiply: return .decimal(x * y)
            case .divide: return y == 0 ? .null : .decimal(x / y)
            }
        default:
            return .double(apply(op, a.double, b.double))
        }
    }

    private static func apply(_ op: QueryArithmetic, _ x: Double, _ y: Double) -> Double {
        switch op {
        case .add: return x + y
        case .subtract: return x - y
        case .multiply: return x * y
        case .divide: return x / y
        }
    }

    /// `@count`, `@sum`, `@min`, `@max` or `@avg` of items, each counted `counts[i]` times (once when
    /// `counts` is `nil`); `nil` values are skipped, and an empty `@min`, `@max` or `@avg` is `nil`
    /// (an empty `@sum` is 0).
    static func aggregate(_ aggregate: QueryAggregate, _ items: [OperandItem], counts: [Int]?) -> StoredValue {
        let counts = counts ?? Array(repeating: 1, count: items.count)
        if aggregate == .count { return .int(Int64(counts.reduce(0, Reached.adding))) }
        var values: [(StoredValue, Int)] = []
        for (item, count) in zip(items, counts) where !item.storedValue.isNull {
            values.append((item.storedValue, count))
        }
        switch aggregate {
        case .count: return .null
        case .min, .max:
            var best: StoredValue?
            for (value, _) in values {
                guard let current = best else {
                    best = value
                    continue
                }
                let order: Int?
                if case .date(let a) = value, case .date(let b) = current {
                    order = a < b ? -1 : (a > b ? 1 : 0)
                } else if let a = OperandNumber(value), let b = OperandNumber(current) {
                    order = a.compare(b)
                } else {
                    order = nil
                }
                if let order, aggregate == .min ? order < 0 : order > 0 { best = value }
            }
            return best ?? .null
        case .sum, .average:
            var sum = OperandNumber.int(0)
            var total = 0
            for (value, count) in values {
                guard OperandNumber(value) != nil else { continue }
                let weighted = count == 1 ? value : apply(.multiply, value, .int(Int64(count)))
                sum = OperandNumber(apply(.add, sum.storedValue, weighted)) ?? sum
                total = Reached.adding(total, count)
            }
            if aggregate == .average && total == 0 { return .null }
            guard aggregate == .average else { return sum.storedValue }
            if case .decimal(let sum) = sum { return .decimal(sum / Decimal(total)) }
            return .double(sum.double / Double(total))
        }
    }
}
