import Foundation

/// Comparisons of one stored value, on its bytes in the map.
extension QueryCompiler {
    func valueMatcher(_ comparison: QueryComparison, for schema: PropertySchema) throws -> ValueMatcher {
        let op = comparison.op
        if op == .in, case .list(let values) = comparison.value, values.contains(where: \.isNull) {
            // `x IN {nil, 1}`: nil matches, and the rest compares as usual.
            var withoutNil = comparison
            withoutNil.value = .list(values.filter { !$0.isNull })
            return ValueMatcher(matches: try valueMatcher(withoutNil, for: schema).matches, nilOutcome: true)
        }
        if comparison.value.isNull {
            switch op {
            case .equal: return ValueMatcher(matches: { _ in false }, nilOutcome: true)
            case .notEqual: return ValueMatcher(matches: { _ in true }, nilOutcome: false)
            default: throw invalid("only == and != compare with nil")
            }
        }
        let constants = operands(of: comparison)
        let label = "\(schema.name) (\(schema.type.rawValue))"
        switch schema.type {
        case .int, .int8, .int16, .int32, .int64:
            let decode: (UnsafeRawBufferPointer) -> Int64 = { FieldDecoding.integer($0) ?? 0 }
            if let integers = constants.map(\.intValue) as? [Int64] {
                return try ordered(op, integers, label: label, decode: decode)
            }
            return try ordered(op, try doubles(constants, label), label: label) { Double(decode($0)) }
        case .float:
            // The constant as the Float the property would hold: `score == 0.1` means 0.1 as a Float.
            return try ordered(op, try doubles(constants, label).map { Double(Float($0)) }, label: label) {
                Double(FieldDecoding.float($0) ?? 0)
            }
        case .double:
            return try ordered(op, try doubles(constants, label), label: label) { FieldDecoding.double($0) ?? 0 }
        case .date:
            let seconds = try constants.map { constant -> Double in
                guard case .date(let date) = constant else { throw mismatch(label, constant) }
                return date.timeIntervalSinceReferenceDate
            }
            return try ordered(op, seconds, label: label) { FieldDecoding.double($0) ?? 0 }
        case .bool:
            let flags = try constants.map { constant -> Bool in
                guard case .bool(let flag) = constant else { throw mismatch(label, constant) }
                return flag
            }
            guard op == .equal || op == .notEqual || op == .in else {
                throw invalid("\(label) compares with == and != only")
            }
            return try ordered(op, flags.map { $0 ? 1 : 0 }, label: label) { FieldDecoding.bool($0) == true ? 1 : 0 }
        case .string:
            let texts = try constants.map { constant -> String in
                guard case .string(let text) = constant else { throw mismatch(label, constant) }
                return text
            }
            return try stringMatcher(op, texts, options: comparison.options, label: label)
        case .data:
            let blobs = try constants.map { constant -> [UInt8] in
                guard case .data(let data) = constant else { throw mismatch(label, constant) }
                return Array(data)
            }
            return try bytesMatcher(op, blobs, label: label)
        case .uuid:
            let ids = try constants.map { constant -> [UInt8] in
                guard case .uuid(let uuid) = constant else { throw mismatch(label, constant) }
                return withUnsafeBytes(of: uuid.uuid) { Array($0) }
            }
            guard [.equal, .notEqual, .in].contains(op) else {
                throw invalid("\(label) compares with ==, != and IN only")
            }
            return try bytesMatcher(op, ids, label: label)
        case .decimal:
            let decimals = try constants.map { constant -> Decimal in
                switch constant {
                case .decimal(let decimal): return decimal
                case .int(let number): return Decimal(number)
                case .double(let number):
                    // Through its shortest text, so 0.1 is the decimal 0.1, not the binary double's expansion.
                    return Decimal(string: "\(number)", locale: Locale(identifier: "en_US_POSIX")) ?? Decimal(number)
                default: throw mismatch(label, constant)
                }
            }
            return try ordered(op, decimals, label: label) { bytes in
                Decimal(string: String(decoding: bytes, as: UTF8.self), locale: Locale(identifier: "en_US_POSIX")) ?? 0
            }
        case .object:
            let keys = try constants.map { constant -> [UInt8] in
                guard case .link(let type, let key) = constant, type == schema.objectType else {
                    throw mismatch(label, constant)
                }
                return ObjectKeyCodec.encode(key)
            }
            guard [.equal, .notEqual, .in].contains(op) else { throw invalid("links compare with ==, != and IN only") }
            return try bytesMatcher(op, keys, label: label)
        case .embedded, .linkingObjects:
            throw invalid("\(label) cannot be compared with a value")
        }
    }

    /// A matcher of aggregates, compared as doubles: the row's value arrives as a native `Double`.
    func numberMatcher(_ comparison: QueryComparison) throws -> ValueMatcher {
        let label = comparison.path.joined(separator: ".") + (comparison.aggregate?.rawValue ?? "")
        return try ordered(comparison.op, try doubles(operands(of: comparison), label), label: label) {
            $0.loadUnaligned(as: Double.self)
        }
    }

    /// Reduces a collection field to a number: count, sum, min, max or average; `nil` for an empty min, max or average.
    func aggregator(_ aggregate: QueryAggregate, for schema: PropertySchema) throws -> (UnsafeRawBufferPointer?) ->
        Double?
    {
        let codec = ValueCodec(schema: source.catalog.schemaIndex)
        if aggregate == .count {
            return { field in field.map { Double(ValueCodec.elementCount($0)) } ?? 0 }
        }
        guard [.int, .int8, .int16, .int32, .int64, .float, .double, .decimal].contains(schema.type) else {
            throw invalid(
                "\(aggregate.rawValue) needs a collection of numbers; \(schema.name) holds \(schema.type.rawValue)")
        }
        return { field in
            guard let field else { return aggregate == .sum ? 0 : nil }
            var numbers: [Double] = []
            codec.forEachElement(field, as: schema) { element in
                guard let element, let value = codec.decodeValue(element, as: schema) else { return }
                switch value {
                case .int(let number): numbers.append(Double(number))
                case .float(let number): numbers.append(Double(number))
                case .double(let number): numbers.append(number)
                case .decimal(let number): numbers.append(NSDecimalNumber(decimal: number).doubleValue)
                default: break
                }
            }
            switch aggregate {
            case .sum: return numbers.reduce(0, +)
            case .min: return numbers.min()
            case .max: return numbers.max()
            case .average: return numbers.isEmpty ? nil : numbers.reduce(0, +) / Double(numbers.count)
            case .count: return Double(numbers.count)
            }
        }
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
            default: throw mismatch(label, constant)
            }
        }
    }

    private func mismatch(_ label: String, _ constant: StoredValue) -> ObjDBError {
        invalid("\(label) cannot be compared with \(constant.kindName) \(constant)")
    }

    /// `==`, `!=`, `<`, `<=`, `>`, `>=`, `IN` and `BETWEEN` on a decoded, comparable value.
    private func ordered<Value: Comparable>(
        _ op: QueryOperator, _ constants: [Value], label: String, decode: @escaping (UnsafeRawBufferPointer) -> Value
    ) throws -> ValueMatcher {
        guard let first = constants.first else {
            return ValueMatcher(matches: { _ in false }, nilOutcome: false)
        }
        let test: (UnsafeRawBufferPointer) -> Bool
        switch op {
        case .equal: test = { decode($0) == first }
        case .notEqual: test = { decode($0) != first }
        case .less: test = { decode($0) < first }
        case .lessOrEqual: test = { decode($0) <= first }
        case .greater: test = { decode($0) > first }
        case .greaterOrEqual: test = { decode($0) >= first }
        case .in:
            test = { value in
                let decoded = decode(value); return constants.contains(decoded)
            }
        case .between:
            guard constants.count == 2 else { throw invalid("BETWEEN needs two values") }
            let high = constants[1]
            test = { value in
                let decoded = decode(value); return decoded >= first && decoded <= high
            }
        default:
            throw invalid("\(op.rawValue) does not apply to \(label)")
        }
        return ValueMatcher(matches: test, nilOutcome: op == .notEqual)
    }

    /// Comparisons of raw bytes: equality, order, prefix, suffix and containment.
    private func bytesMatcher(_ op: QueryOperator, _ constants: [[UInt8]], label: String) throws -> ValueMatcher {
        guard let first = constants.first else { return ValueMatcher(matches: { _ in false }, nilOutcome: false) }
        let test: (UnsafeRawBufferPointer) -> Bool
        switch op {
        case .equal: test = { $0.elementsEqual(first) }
        case .notEqual: test = { !$0.elementsEqual(first) }
        case .less: test = { compareBytes($0, first) < 0 }
        case .lessOrEqual: test = { compareBytes($0, first) <= 0 }
        case .greater: test = { compareBytes($0, first) > 0 }
        case .greaterOrEqual: test = { compareBytes($0, first) >= 0 }
        case .in: test = { value in constants.contains { value.elementsEqual($0) } }
        case .between:
            guard constants.count == 2 else { throw invalid("BETWEEN needs two values") }
            let high = constants[1]
            test = { compareBytes($0, first) >= 0 && compareBytes($0, high) <= 0 }
        case .beginsWith: test = { $0.starts(with: first) }
        case .endsWith: test = { $0.count >= first.count && $0.suffix(first.count).elementsEqual(first) }
        case .contains: test = { containsBytes($0, first) }
        default:
            throw invalid("\(op.rawValue) does not apply to \(label)")
        }
        return ValueMatcher(matches: test, nilOutcome: op == .notEqual)
    }

    /// String comparisons: on UTF-8 bytes, or on folded strings for `[c]` and `[d]`.
    private func stringMatcher(_ op: QueryOperator, _ texts: [String], options: QueryStringOptions, label: String)
        throws
        -> ValueMatcher
    {
        if op == .like {
            guard let pattern = texts.first else { return ValueMatcher(matches: { _ in false }, nilOutcome: false) }
            let folded = Array(QueryText.fold(pattern, options).unicodeScalars)
            return ValueMatcher(
                matches: { bytes in
                    let text = QueryText.fold(String(decoding: bytes, as: UTF8.self), options)
                    return QueryText.like(Array(text.unicodeScalars)[...], folded[...])
                }, nilOutcome: false)
        }
        if options.isEmpty {
            return try bytesMatcher(op, texts.map { Array($0.utf8) }, label: label)
        }
        let inner = try bytesMatcher(op, texts.map { Array(QueryText.fold($0, options).utf8) }, label: label)
        return ValueMatcher(
            matches: { bytes in
                let folded = Array(QueryText.fold(String(decoding: bytes, as: UTF8.self), options).utf8)
                return folded.withUnsafeBytes { inner.matches($0) }
            }, nilOutcome: inner.nilOutcome)
    }
}

/// Bytewise order, as LMDB and `memcmp` order keys: the shorter of two prefixes first.
@inline(__always)
func compareBytes(_ lhs: UnsafeRawBufferPointer, _ rhs: [UInt8]) -> Int {
    let common = min(lhs.count, rhs.count)
    for index in 0..<common where lhs[index] != rhs[index] {
        return lhs[index] < rhs[index] ? -1 : 1
    }
    return lhs.count - rhs.count
}

/// Whether `needle` occurs in `haystack`.
func containsBytes(_ haystack: UnsafeRawBufferPointer, _ needle: [UInt8]) -> Bool {
    guard !needle.isEmpty else { return true }
    guard haystack.count >= needle.count else { return false }
    let first = needle[0]
    for start in 0...(haystack.count - needle.count) where haystack[start] == first {
        var matched = true
        for offset in 1..<needle.count where haystack[start + offset] != needle[offset] {
            matched = false
            break
        }
        if matched { return true }
    }
    return false
}

/// String semantics shared by the evaluator and the tests' reference evaluator.
enum QueryText {
    /// `text` without the distinctions `options` ignores.
    static func fold(_ text: String, _ options: QueryStringOptions) -> String {
        var folding: String.CompareOptions = []
        if options.contains(.caseInsensitive) { folding.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { folding.insert(.diacriticInsensitive) }
        return folding.isEmpty ? text : text.folding(options: folding, locale: nil)
    }

    /// `LIKE`: `*` matches any run of characters, `?` exactly one (Unicode scalars).
    static func like(_ text: ArraySlice<Unicode.Scalar>, _ pattern: ArraySlice<Unicode.Scalar>) -> Bool {
        var text = text
        var pattern = pattern
        var star: (pattern: ArraySlice<Unicode.Scalar>, text: ArraySlice<Unicode.Scalar>)?
        while true {
            if let next = pattern.first, next == "*" {
                pattern = pattern.dropFirst()
                star = (pattern, text)
                continue
            }
            if let character = text.first {
                if let next = pattern.first, next == "?" || next == character {
                    pattern = pattern.dropFirst()
                    text = text.dropFirst()
                    continue
                }
                guard let resume = star, !resume.text.isEmpty else { return false }
                star = (resume.pattern, resume.text.dropFirst())
                pattern = resume.pattern
                text = resume.text.dropFirst()
                continue
            }
            return pattern.allSatisfy { $0 == "*" }
        }
    }
}
