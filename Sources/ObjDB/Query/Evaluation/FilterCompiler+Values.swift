import Foundation

/// Tests of one stored value against a comparison's constants.
extension FilterCompiler {
    func valueTest(_ comparison: QueryComparison, for schema: PropertySchema, into builder: inout ProgramBuilder)
        throws -> FieldTest
    {
        let op = comparison.op
        let label = "\(schema.name) (\(schema.type.rawValue))"
        if op == .text { throw invalid("TEXT searches a String property's words, but \(label) is not one") }
        if !comparison.options.isEmpty, schema.type != .string {
            // As in Realm, `[c]` also compares binary data (as UTF-8 text).
            guard schema.type == .data, comparison.options == .caseInsensitive else {
                throw invalid("[c] and [d] compare strings, but \(label) is not one")
            }
        }
        let readsAsNil = schema.isOptional || schema.type == .object || schema.type == .embedded
        if op == .in, case .list(let values) = comparison.value, values.contains(where: \.isNull) {
            // `x IN {nil, 1}`: nil matches, and the rest compares as usual.
            var withoutNil = comparison
            withoutNil.value = .list(values.filter { !$0.isNull })
            var test = try valueTest(withoutNil, for: schema, into: &builder)
            test.nilOutcome = true
            return test
        }
        if comparison.value.isNull {
            switch op {
            case .equal, .notEqual:
                var test = FieldTest(kind: .constant, op: .equal, type: schema.type, nilOutcome: op == .equal)
                test.constantOutcome = op == .notEqual
                test.absentReadsAsNil = readsAsNil
                return test
            default: throw invalid("only == and != compare with nil")
            }
        }
        let constants = operands(of: comparison)
        var test: FieldTest
        switch schema.type {
        case .int, .int8, .int16, .int32, .int64:
            if let infinite = constants.first(where: { $0.isInfinity }) {
                throw invalid("\(label) cannot be compared with \(infinite): an integer has no infinity (as in Realm)")
            }
            if let integers = constants.map(\.intValue) as? [Int64] {
                test = try ordered(op, label, .integer, schema.type, integers: integers, into: &builder)
            } else {
                test = try ordered(
                    op, label, .integerAsDouble, schema.type, doubles: try doubles(constants, label), into: &builder)
            }
        case .float:
            // The constant as the Float the property would hold: `score == 0.1` means 0.1 as a Float.
            let floats = try doubles(constants, label).map { Double(Float($0)) }
            test = try ordered(op, label, .float, .float, doubles: floats, into: &builder)
        case .double:
            test = try ordered(op, label, .double, .double, doubles: try doubles(constants, label), into: &builder)
        case .date:
            let seconds = try constants.map { constant -> Double in
                guard case .date(let date) = constant else { throw mismatch(label, constant) }
                return date.timeIntervalSinceReferenceDate
            }
            test = try ordered(op, label, .double, .date, doubles: seconds, into: &builder)
        case .bool:
            let flags = try constants.map { constant -> Int64 in
                guard case .bool(let flag) = constant else { throw mismatch(label, constant) }
                return flag ? 1 : 0
            }
            guard op == .equal || op == .notEqual || op == .in else {
                throw invalid("\(label) compares with == and != only")
            }
            test = try ordered(op, label, .bool, .bool, integers: flags, into: &builder)
        case .string:
            let texts = try constants.map { constant -> String in
                switch constant {
                case .string(let text): return text
                // A `B64"…"` literal: its bytes as the UTF-8 they would be, as Realm reads it.
                case .data(let data): return String(decoding: data, as: UTF8.self)
                default: throw mismatch(label, constant)
                }
            }
            test = try stringTest(op, texts, options: comparison.options, label: label, into: &builder)
        case .data:
            let blobs = try constants.map { constant -> [UInt8] in
                switch constant {
                case .data(let data): return Array(data)
                // A string literal compares with data as its UTF-8 bytes, as in Realm.
                case .string(let text): return Array(text.utf8)
                default: throw mismatch(label, constant)
                }
            }
            if op == .like || !comparison.options.isEmpty {
                // Realm's `LIKE` and `[c]` on data read the bytes as text.
                test = try stringTest(
                    op, blobs.map { String(decoding: $0, as: UTF8.self) }, options: comparison.options, label: label,
                    into: &builder)
            } else {
                test = try bytesTest(op, blobs, type: .data, label: label, into: &builder)
            }
        case .uuid:
            let ids = try constants.map { constant -> [UInt8] in
                guard case .uuid(let uuid) = constant else { throw mismatch(label, constant) }
                return withUnsafeBytes(of: uuid.uuid) { Array($0) }
            }
            // UUIDs order by their 16 bytes, as Realm orders them (the order of their hexadecimal text).
            guard ![.beginsWith, .endsWith, .contains, .like].contains(op) else {
                throw invalid("\(label) compares with ==, !=, <, <=, >, >=, IN and BETWEEN only")
            }
            test = try bytesTest(op, ids, type: .uuid, label: label, into: &builder)
        case .decimal:
            if let special = constants.first(where: { $0.isInfinity || $0.isNaN }) {
                test = try decimalAgainstNonFinite(op, special, constants.count, label)
                break
            }
            let decimals = try constants.map { constant -> Decimal in
                switch constant {
                case .decimal(let decimal): return decimal
                case .int(let number): return Decimal(number)
                case .float(let number):
                    return Decimal(string: "\(number)", locale: Locale(identifier: "en_US_POSIX"))
                        ?? Decimal(Double(number))
                case .double(let number):
                    // Through its shortest text, so 0.1 is the decimal 0.1, not the binary double's expansion.
                    return Decimal(string: "\(number)", locale: Locale(identifier: "en_US_POSIX")) ?? Decimal(number)
                default: throw mismatch(label, constant)
                }
            }
            test = try ordered(op, label, .decimal, .decimal, decimals: decimals, into: &builder)
        case .object:
            let keys = try constants.map { constant -> [UInt8] in
                guard case .link(let type, let key) = constant, type == schema.objectType else {
                    throw mismatch(label, constant)
                }
                return ObjectKeyCodec.encode(key)
            }
            guard [.equal, .notEqual, .in].contains(op) else { throw invalid("links compare with ==, != and IN only") }
            test = try bytesTest(op, keys, type: .object, label: label, into: &builder)
        case .embedded, .linkingObjects:
            throw invalid("\(label) cannot be compared with a value")
        }
        test.absentReadsAsNil = readsAsNil
        return test
    }

    /// A test of an aggregate or a count, which arrives as a `Double`.
    func numberTest(_ comparison: QueryComparison, into builder: inout ProgramBuilder) throws -> FieldTest {
        let label = comparison.path.joined(separator: ".") + (comparison.aggregate.map { "." + $0.rawValue } ?? "")
        guard comparison.options.isEmpty else { throw invalid("[c] and [d] compare strings, but \(label) is a number") }
        return try ordered(
            comparison.op, label, .double, .double, doubles: try doubles(operands(of: comparison), label),
            into: &builder)
    }

    // MARK: Building blocks

    private func operands(of comparison: QueryComparison) -> [StoredValue] {
        switch comparison.op {
        case .in, .between:
            if case .list(let values) = comparison.value { return values }
            return [comparison.value]
        default:
            return [comparison.value]
        }
    }

    private func doubles(_ constants: [StoredValue], _ label: String) throws -> [Double] {
        try constants.map { constant in
            switch constant {
            case .int(let number): return Double(number)
            case .double(let number): return number
            case .float(let number): return Double(number)
            // A literal with more digits than a Double holds: the Double nearest it.
            case .decimal(let number): return Double("\(number)") ?? NSDecimalNumber(decimal: number).doubleValue
            default: throw mismatch(label, constant)
            }
        }
    }

    /// A `Decimal` against `inf`, `-inf` or `NaN`, which no decimal is: every decimal lies below
    /// infinity and above minus infinity, and equals no NaN.
    private func decimalAgainstNonFinite(_ op: QueryOperator, _ constant: StoredValue, _ count: Int, _ label: String)
        throws -> FieldTest
    {
        guard count == 1, case .double(let special) = constant else {
            throw invalid("\(label) cannot be compared with a list holding \(constant)")
        }
        let outcome: Bool
        switch op {
        case .equal: outcome = false
        case .notEqual: outcome = true
        case .less, .lessOrEqual: outcome = special == .infinity
        case .greater, .greaterOrEqual: outcome = special == -.infinity
        default: throw invalid("\(op.spelling) does not apply to \(label)")
        }
        var test = FieldTest(kind: .constant, op: .equal, type: .decimal, nilOutcome: op == .notEqual)
        test.constantOutcome = outcome
        return test
    }

    private func mismatch(_ label: String, _ constant: StoredValue) -> ObjDBError {
        invalid("\(label) cannot be compared with \(constant.kindName) \(constant)")
    }

    /// The operator of an ordered comparison (`==`, `!=`, `<`, `<=`, `>`, `>=`, `IN`, `BETWEEN`).
    private func orderedOperator(_ op: QueryOperator, count: Int, label: String) throws -> FieldTest.Operator {
        switch op {
        case .equal: return .equal
        case .notEqual: return .notEqual
        case .less: return .less
        case .lessOrEqual: return .lessOrEqual
        case .greater: return .greater
        case .greaterOrEqual: return .greaterOrEqual
        case .in: return .oneOf
        case .between:
            guard count == 2 else { throw invalid("BETWEEN needs two values") }
            return .between
        default:
            throw invalid("\(op.spelling) does not apply to \(label)")
        }
    }

    /// A test that matches nothing but, for `!=`, `nil` (an empty `IN {}` list).
    private func nothing(_ op: QueryOperator, _ type: PropertyType) -> FieldTest {
        FieldTest(kind: .constant, op: .equal, type: type, nilOutcome: false)
    }

    private func ordered(
        _ op: QueryOperator, _ label: String, _ kind: FieldTest.Kind, _ type: PropertyType, integers: [Int64],
        into builder: inout ProgramBuilder
    ) throws -> FieldTest {
        let testOperator = try orderedOperator(op, count: integers.count, label: label)
        guard let first = integers.first else { return nothing(op, type) }
        var test = FieldTest(kind: kind, op: testOperator, type: type, nilOutcome: op == .notEqual)
        switch testOperator {
        case .oneOf: (test.integer, test.integer2) = Self.pair(builder.addSortedIntegers(integers))
        case .between: (test.integer, test.integer2) = (first, integers[1])
        default: test.integer = first
        }
        return test
    }

    private func ordered(
        _ op: QueryOperator, _ label: String, _ kind: FieldTest.Kind, _ type: PropertyType, doubles: [Double],
        into builder: inout ProgramBuilder
    ) throws -> FieldTest {
        let testOperator = try orderedOperator(op, count: doubles.count, label: label)
        guard let first = doubles.first else { return nothing(op, type) }
        var test = FieldTest(kind: kind, op: testOperator, type: type, nilOutcome: op == .notEqual)
        switch testOperator {
        case .oneOf: (test.integer, test.integer2) = (Int64(builder.addDoubles(doubles)), Int64(doubles.count))
        case .between: (test.double, test.double2) = (first, doubles[1])
        default: test.double = first
        }
        return test
    }

    private func ordered(
        _ op: QueryOperator, _ label: String, _ kind: FieldTest.Kind, _ type: PropertyType, decimals: [Decimal],
        into builder: inout ProgramBuilder
    ) throws -> FieldTest {
        let testOperator = try orderedOperator(op, count: decimals.count, label: label)
        guard !decimals.isEmpty else { return nothing(op, type) }
        var test = FieldTest(kind: kind, op: testOperator, type: type, nilOutcome: op == .notEqual)
        test.integer = Int64(builder.addDecimals(decimals))
        return test
    }

    /// Comparisons of raw bytes: equality, order, prefix, suffix and containment.
    private func bytesTest(
        _ op: QueryOperator, _ constants: [[UInt8]], type: PropertyType, label: String,
        into builder: inout ProgramBuilder
    ) throws -> FieldTest {
        let testOperator: FieldTest.Operator
        switch op {
        case .beginsWith: testOperator = .beginsWith
        case .endsWith: testOperator = .endsWith
        case .contains: testOperator = .contains
        default: testOperator = try orderedOperator(op, count: constants.count, label: label)
        }
        guard let first = constants.first else { return nothing(op, type) }
        var test = FieldTest(kind: .bytes, op: testOperator, type: type, nilOutcome: op == .notEqual)
        switch testOperator {
        case .oneOf: (test.integer, test.integer2) = Self.pair(builder.addByteTable(constants, sorted: true))
        case .between: (test.integer, test.integer2) = Self.pair(builder.addByteTable(constants, sorted: false))
        default: (test.integer, test.integer2) = (Int64(builder.addBytes(first)), Int64(first.count))
        }
        return test
    }

    /// String comparisons: on UTF-8 bytes, or on folded text for `[c]` and `[d]`.
    private func stringTest(
        _ op: QueryOperator, _ texts: [String], options: QueryStringOptions, label: String,
        into builder: inout ProgramBuilder
    ) throws -> FieldTest {
        if op == .like {
            guard let pattern = texts.first else { return nothing(op, .string) }
            var test = FieldTest(kind: .like, op: .equal, type: .string, nilOutcome: false)
            test.integer = Int64(builder.addText(TextConstant(options: options, likePattern: pattern)))
            return test
        }
        if options.isEmpty {
            return try bytesTest(op, texts.map { Array($0.utf8) }, type: .string, label: label, into: &builder)
        }
        // The operator as bytes would take it, then the same over folded text.
        var test = try bytesTest(op, texts.map { Array($0.utf8) }, type: .string, label: label, into: &builder)
        guard test.kind == .bytes else { return test }
        test.kind = .folded
        test.integer = Int64(
            builder.addText(TextConstant(options: options, constants: texts, sorted: test.op == .oneOf)))
        test.integer2 = 0
        return test
    }

    private static func pair(_ value: (offset: Int, count: Int)) -> (Int64, Int64) {
        (Int64(value.offset), Int64(value.count))
    }
}

extension StoredValue {
    /// Whether the value is a `Double` or `Float` infinity (`inf`, `-inf`).
    fileprivate var isInfinity: Bool {
        switch self {
        case .double(let number): return number.isInfinite
        case .float(let number): return number.isInfinite
        default: return false
        }
    }

    fileprivate var isNaN: Bool {
        switch self {
        case .double(let number): return number.isNaN
        case .float(let number): return number.isNaN
        default: return false
        }
    }
}
