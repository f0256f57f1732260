/// One token of a string predicate, with its character offset for error messages.
struct Token {
    enum Kind: Equatable {
        case identifier(String)
        case string(String)
        case number(String)
        case argument(String)
        case symbol(String)
        /// A literal read whole by the lexer (a date, `uuid(…)`, `B64"…"`, `inf`, `NaN`), with its text.
        case literal(StoredValue, String)
        case end
    }

    let kind: Kind
    let offset: Int

    func isKeyword(_ word: String) -> Bool {
        if case .identifier(let name) = kind { return name.uppercased() == word }
        return false
    }

    var describe: String {
        switch kind {
        case .identifier(let name): return "'\(name)'"
        case .string(let text): return "the string \"\(text)\""
        case .number(let text): return "the number \(text)"
        case .argument(let text): return text
        case .symbol(let symbol): return "'\(symbol)'"
        case .literal(_, let text): return text
        case .end: return "the end of the predicate"
        }
    }
}

/// Splits a predicate into tokens, reading it as Unicode scalars: a quote or an operator is
/// itself even when a combining mark or a joiner follows it (which would fuse them into one
/// `Character`), and offsets count scalars, as ``ObjDBError/predicateSyntax(predicate:position:message:)``
/// positions do.
struct Lexer {
    private let scalars: [Unicode.Scalar]
    private let text: String

    init(_ text: String) {
        self.text = text
        scalars = Array(text.unicodeScalars)
    }

    private static let symbols: [[Unicode.Scalar]] = [
        "==", "!=", "<>", "<=", ">=", "=<", "=>", "&&", "||", "=", "<", ">", "!", "(", ")", "{", "}", "[", "]", ",",
        ".", "+", "-", "*", "/",
    ].map { Array($0.unicodeScalars) }

    func tokens() throws -> [Token] {
        var tokens: [Token] = []
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if Self.isWhitespace(scalar) {
                index += 1
                continue
            }
            let start = index
            if scalar == "\"" || scalar == "'" {
                var value = String.UnicodeScalarView()
                index += 1
                var closed = false
                while index < scalars.count {
                    let next = scalars[index]
                    if next == "\\", index + 1 < scalars.count {
                        let escaped = scalars[index + 1]
                        switch escaped {
                        case "n": value.append("\n")
                        case "t": value.append("\t")
                        case "r": value.append("\r")
                        case "b": value.append("\u{8}")
                        case "f": value.append("\u{C}")
                        case "0": value.append("\0")
                        case "u":
                            // Realm's `\uXXXX`: four hexadecimal digits.
                            let digits = index + 2 + 4 <= scalars.count ? scalars[(index + 2)..<(index + 6)] : []
                            guard digits.count == 4, digits.allSatisfy(Self.isHexDigit),
                                let code = UInt32(String(String.UnicodeScalarView(digits)), radix: 16),
                                let decoded = Unicode.Scalar(code)
                            else {
                                throw ObjDBError.predicateSyntax(
                                    predicate: text, position: index, message: "\\u needs four hexadecimal digits")
                            }
                            value.append(decoded)
                            index += 6
                            continue
                        default: value.append(escaped)
                        }
                        index += 2
                        continue
                    }
                    if next == scalar {
                        closed = true
                        index += 1
                        break
                    }
                    value.append(next)
                    index += 1
                }
                guard closed else {
                    throw ObjDBError.predicateSyntax(predicate: text, position: start, message: "unterminated string")
                }
                tokens.append(Token(kind: .string(String(value)), offset: start))
                continue
            }
            if scalar == "%" {
                guard index + 1 < scalars.count, scalars[index + 1] == "@" || scalars[index + 1] == "K" else {
                    throw ObjDBError.predicateSyntax(predicate: text, position: start, message: "use %@ or %K")
                }
                tokens.append(Token(kind: .argument("%" + String(scalars[index + 1])), offset: start))
                index += 2
                continue
            }
            if let literal = try literal(at: &index) {
                tokens.append(literal)
                continue
            }
            if startsNumber(at: index) {
                index += 1
                while index < scalars.count,
                    Self.isDigit(scalars[index]) || scalars[index] == "." || scalars[index] == "e"
                        || scalars[index] == "E"
                        || ((scalars[index] == "-" || scalars[index] == "+")
                            && (scalars[index - 1] == "e" || scalars[index - 1] == "E"))
                        || (Self.isHexDigit(scalars[index]) || scalars[index] == "x" || scalars[index] == "X")
                            && isHexNumber(from: start)
                {
                    index += 1
                }
                // Realm's `f` suffix: a Float.
                if index < scalars.count, scalars[index] == "f" || scalars[index] == "F", !isHexNumber(from: start),
                    index + 1 == scalars.count || !Self.isIdentifierContinue(scalars[index + 1])
                {
                    index += 1
                }
                tokens.append(Token(kind: .number(spelling(start..<index)), offset: start))
                continue
            }
            if Self.isIdentifierStart(scalar) || scalar == "_" || scalar == "@" || scalar == "$" {
                index += 1
                // A variable (`$name`, not an argument `$0`) may hold `-`, as Realm's identifiers may:
                // `SUBQUERY(items, $my-item, …)`.
                let mayHoldDash =
                    scalar == "$" && index < scalars.count
                    && (Self.isIdentifierStart(scalars[index]) || scalars[index] == "_")
                    && !(scalars[index] == "K" && index + 1 < scalars.count && Self.isDigit(scalars[index + 1]))
                var escaped = false
                while index < scalars.count {
                    if Self.isIdentifierContinue(scalars[index])
                        || (mayHoldDash && scalars[index] == "-" && index + 1 < scalars.count
                            && Self.isIdentifierContinue(scalars[index + 1]))
                    {
                        index += 1
                    } else if scalars[index] == "\\", index + 1 < scalars.count,
                        " trn".unicodeScalars.contains(scalars[index + 1])
                    {
                        // Realm's `\ `, `\t`, `\r`, `\n` in a name: `scores.second\ try` is the key "second try".
                        escaped = true
                        index += 2
                    } else {
                        break
                    }
                }
                let name = escaped ? Self.unescaped(scalars[start..<index]) : spelling(start..<index)
                tokens.append(Token(kind: .identifier(name), offset: start))
                continue
            }
            guard
                let symbol = Self.symbols.first(where: { symbol in
                    let end = index + symbol.count
                    return end <= scalars.count && scalars[index..<end].elementsEqual(symbol)
                })
            else {
                throw ObjDBError.predicateSyntax(
                    predicate: text, position: start,
                    message: "unexpected character '\(scalar)' (U+\(String(scalar.value, radix: 16, uppercase: true)))")
            }
            tokens.append(Token(kind: .symbol(spelling(index..<index + symbol.count)), offset: start))
            index += symbol.count
        }
        tokens.append(Token(kind: .end, offset: scalars.count))
        return tokens
    }

    // Unicode's properties are a table lookup each (a fifth of parsing a short query); the ASCII
    // answers, which nearly every predicate needs, are worked out here.

    /// A name's text with its escapes (`\ `, `\t`, `\r`, `\n`) replaced by what they stand for.
    private static func unescaped(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var text = String.UnicodeScalarView()
        var index = scalars.startIndex
        while index < scalars.endIndex {
            if scalars[index] == "\\", index + 1 < scalars.endIndex {
                switch scalars[index + 1] {
                case "t": text.append("\t")
                case "r": text.append("\r")
                case "n": text.append("\n")
                default: text.append(" ")
                }
                index += 2
            } else {
                text.append(scalars[index])
                index += 1
            }
        }
        return String(text)
    }

    /// Unicode's `White_Space`.
    @inline(__always)
    private static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.isASCII else { return scalar.properties.isWhitespace }
        return scalar == " " || (scalar.value >= 0x09 && scalar.value <= 0x0D)
    }

    /// Unicode's `XID_Start`.
    @inline(__always)
    private static func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.isASCII else { return scalar.properties.isXIDStart }
        return (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z")
    }

    /// Unicode's `XID_Continue`.
    @inline(__always)
    private static func isIdentifierContinue(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.isASCII else { return scalar.properties.isXIDContinue }
        return isIdentifierStart(scalar) || isDigit(scalar) || scalar == "_"
    }

    /// The text of the scalars at `range`; ASCII (nearly every token) is copied byte by byte.
    private func spelling(_ range: Range<Int>) -> String {
        guard scalars[range].allSatisfy(\.isASCII) else { return String(String.UnicodeScalarView(scalars[range])) }
        return String(unsafeUninitializedCapacity: range.count) { buffer in
            for (offset, scalar) in scalars[range].enumerated() { buffer[offset] = UInt8(scalar.value) }
            return range.count
        }
    }

    /// Whether the scalars at `range` spell the ASCII `word`, in any case when `ignoringCase`.
    private func spells(_ range: Range<Int>, _ word: String, ignoringCase: Bool = true) -> Bool {
        guard range.count == word.utf8.count else { return false }
        return zip(scalars[range], word.unicodeScalars).allSatisfy { scalar, letter in
            scalar == letter
                || (ignoringCase && scalar.isASCII && letter.isASCII
                    && scalar.value | 0x20 == letter.value | 0x20 && (letter >= "a" && letter <= "z"))
        }
    }

    /// An ASCII digit: numbers in a predicate are written in ASCII, as in Realm's query language.
    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        scalar >= "0" && scalar <= "9"
    }

    private static func isHexDigit(_ scalar: Unicode.Scalar) -> Bool {
        isDigit(scalar) || (scalar >= "a" && scalar <= "f") || (scalar >= "A" && scalar <= "F")
    }

    // MARK: Literals

    /// Whether a number starts at `index`: a digit, or `+`, `-` or `.` before one.
    private func startsNumber(at index: Int) -> Bool {
        func digit(_ offset: Int) -> Bool { index + offset < scalars.count && Self.isDigit(scalars[index + offset]) }
        switch scalars[index] {
        case "0"..."9": return true
        case ".": return digit(1)
        case "+", "-": return digit(1) || (index + 1 < scalars.count && scalars[index + 1] == "." && digit(2))
        default: return false
        }
    }

    /// Whether the number starting at `start` is hexadecimal: `0x…`, after an optional sign.
    private func isHexNumber(from start: Int) -> Bool {
        var index = start
        if scalars[index] == "+" || scalars[index] == "-" { index += 1 }
        return index + 1 < scalars.count && scalars[index] == "0"
            && (scalars[index + 1] == "x" || scalars[index + 1] == "X")
    }

    /// The literal Realm reads at `index` as one token (a date, `T<s>:<ns>`, `uuid(…)`, `B64"…"`,
    /// `inf`, `NaN`), moving `index` past it; `nil` (and `index` unmoved) when none starts there.
    private func literal(at index: inout Int) throws -> Token? {
        let start = index
        func fail(_ message: String) -> ObjDBError {
            .predicateSyntax(predicate: text, position: start, message: message)
        }
        func spelled(_ end: Int) -> String { spelling(start..<end) }
        func value<T>(_ result: Result<T, LiteralError>) throws -> T {
            switch result {
            case .success(let value): return value
            case .failure(let error): throw fail(error.message)
            }
        }
        let scalar = scalars[index]

        if Self.isDigit(scalar), let (fields, end) = try dateFields(at: start) {
            let date = try value(PredicateLiteral.date(fields))
            index = end
            return Token(kind: .literal(.date(date), spelled(end)), offset: start)
        }
        if scalar == "T", let (seconds, afterSeconds) = signedDigits(at: start + 1), afterSeconds < scalars.count,
            scalars[afterSeconds] == ":"
        {
            guard let (nanoseconds, end) = signedDigits(at: afterSeconds + 1) else {
                throw fail("a timestamp is T<seconds>:<nanoseconds>, such as T1512130073:0")
            }
            guard let seconds, let nanoseconds else { throw fail("\(spelled(end)) is out of range") }
            let date = try value(PredicateLiteral.timestamp(seconds, nanoseconds))
            index = end
            return Token(kind: .literal(.date(date), spelled(end)), offset: start)
        }

        var wordStart = start
        if scalar == "+" || scalar == "-" { wordStart += 1 }
        guard wordStart < scalars.count, Self.isIdentifierStart(scalars[wordStart]) else { return nil }
        var end = wordStart + 1
        while end < scalars.count, Self.isIdentifierContinue(scalars[end]) { end += 1 }
        // Compared scalar by scalar: most words are property names, and making a `String` of
        // each was most of what lexing a short query cost.
        let word = wordStart..<end
        let special: Double? =
            spells(word, "inf") || spells(word, "infinity") ? .infinity : spells(word, "nan") ? .nan : nil
        if let special {
            index = end
            return Token(
                kind: .literal(.double(scalar == "-" ? -special : special), spelled(end)), offset: start)
        }
        guard wordStart == start else { return nil }
        let opensParenthesis = end < scalars.count && scalars[end] == "("
        switch word {
        case _ where opensParenthesis && spells(word, "uuid", ignoringCase: false):
            guard let close = scalars[end...].firstIndex(of: ")") else { throw fail("uuid( needs its closing ')'") }
            let uuid = try value(PredicateLiteral.uuid(spelling((end + 1)..<close)))
            index = close + 1
            return Token(kind: .literal(.uuid(uuid), spelled(close + 1)), offset: start)
        case _ where opensParenthesis && spells(word, "oid", ignoringCase: false):
            throw fail("ObjectId literals (oid(…)) need a property type ObjDB does not have")
        case _ where spells(word, "b64") && end < scalars.count && (scalars[end] == "\"" || scalars[end] == "'"):
            let quote = scalars[end]
            guard let close = scalars[(end + 1)...].firstIndex(of: quote) else {
                throw fail("B64\" needs its closing quote")
            }
            let data = try value(
                PredicateLiteral.base64(spelling((end + 1)..<close)))
            index = close + 1
            return Token(kind: .literal(.data(data), spelled(close + 1)), offset: start)
        default:
            return nil
        }
    }

    /// The fields of `YYYY-MM-DD@HH:MM:SS[:NANOS]` (or with `T` for `@`) at `start` and the index
    /// past it; `nil` when no date starts there (no `@` or `T` after three numbers joined by `-`).
    private func dateFields(at start: Int) throws -> ([Int64], Int)? {
        var fields: [Int64] = []
        var index = start
        for separator in ["-", "-"] as [Unicode.Scalar] {
            guard let (field, end) = digits(at: index), end < scalars.count, scalars[end] == separator else {
                return nil
            }
            fields.append(field ?? .max)
            index = end + 1
        }
        guard let (day, afterDay) = digits(at: index), afterDay < scalars.count,
            scalars[afterDay] == "@" || scalars[afterDay] == "T"
        else { return nil }
        fields.append(day ?? .max)
        index = afterDay + 1
        for field in 0..<4 {
            if field > 0 {
                guard index < scalars.count, scalars[index] == ":" else {
                    if field == 3 { break }
                    throw ObjDBError.predicateSyntax(
                        predicate: text, position: start,
                        message: "a date is YYYY-MM-DD@HH:MM:SS or YYYY-MM-DD@HH:MM:SS:NANOS")
                }
                index += 1
            }
            guard let (value, end) = digits(at: index) else {
                throw ObjDBError.predicateSyntax(
                    predicate: text, position: start,
                    message: "a date is YYYY-MM-DD@HH:MM:SS or YYYY-MM-DD@HH:MM:SS:NANOS")
            }
            fields.append(value ?? .max)
            index = end
        }
        return (fields, index)
    }

    /// The ASCII digits at `index` as a number (`nil` past Int64) and the index past them; `nil` without a digit.
    private func digits(at index: Int) -> (Int64?, Int)? {
        var end = index
        while end < scalars.count, Self.isDigit(scalars[end]) { end += 1 }
        guard end > index else { return nil }
        var value: Int64? = 0
        for digit in scalars[index..<end] {
            guard let sofar = value else { break }
            let (shifted, overflowShift) = sofar.multipliedReportingOverflow(by: 10)
            let (sum, overflowAdd) = shifted.addingReportingOverflow(Int64(digit.value - 48))
            value = overflowShift || overflowAdd ? nil : sum
        }
        return (value, end)
    }

    /// Like ``digits(at:)`` after an optional `+` or `-`.
    private func signedDigits(at index: Int) -> (Int64?, Int)? {
        guard index < scalars.count else { return nil }
        let negative = scalars[index] == "-"
        let signed = negative || scalars[index] == "+"
        guard let (magnitude, end) = digits(at: signed ? index + 1 : index) else { return nil }
        return (magnitude.map { negative ? -$0 : $0 }, end)
    }
}
