/// One token of a string predicate, with its character offset for error messages.
struct Token {
    enum Kind: Equatable {
        case identifier(String)
        case string(String)
        case number(String)
        case argument(String)
        case symbol(String)
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
            if scalar.properties.isWhitespace {
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
            if Self.isDigit(scalar) || (scalar == "-" && index + 1 < scalars.count && Self.isDigit(scalars[index + 1]))
            {
                var number = String.UnicodeScalarView([scalar])
                index += 1
                while index < scalars.count,
                    Self.isDigit(scalars[index]) || scalars[index] == "." || scalars[index] == "e"
                        || scalars[index] == "E"
                        || ((scalars[index] == "-" || scalars[index] == "+")
                            && (scalars[index - 1] == "e" || scalars[index - 1] == "E"))
                {
                    number.append(scalars[index])
                    index += 1
                }
                tokens.append(Token(kind: .number(String(number)), offset: start))
                continue
            }
            if scalar.properties.isXIDStart || scalar == "_" || scalar == "@" || scalar == "$" {
                var name = String.UnicodeScalarView([scalar])
                index += 1
                while index < scalars.count, scalars[index].properties.isXIDContinue {
                    name.append(scalars[index])
                    index += 1
                }
                tokens.append(Token(kind: .identifier(String(name)), offset: start))
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
            tokens.append(Token(kind: .symbol(String(String.UnicodeScalarView(symbol))), offset: start))
            index += symbol.count
        }
        tokens.append(Token(kind: .end, offset: scalars.count))
        return tokens
    }

    /// An ASCII digit: numbers in a predicate are written in ASCII, as in Realm's query language.
    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        scalar >= "0" && scalar <= "9"
    }
}
