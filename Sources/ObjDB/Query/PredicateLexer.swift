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

/// Splits a predicate into tokens.
struct Lexer {
    private let characters: [Character]
    private let text: String

    init(_ text: String) {
        self.text = text
        characters = Array(text)
    }

    func tokens() throws -> [Token] {
        var tokens: [Token] = []
        var index = 0
        let symbols = [
            "==", "!=", "<>", "<=", ">=", "=<", "=>", "&&", "||", "=", "<", ">", "!", "(", ")", "{", "}", "[", "]", ",",
            ".",
        ]
        while index < characters.count {
            let character = characters[index]
            if character.isWhitespace {
                index += 1
                continue
            }
            let start = index
            if character == "\"" || character == "'" {
                var value = ""
                index += 1
                var closed = false
                while index < characters.count {
                    let next = characters[index]
                    if next == "\\", index + 1 < characters.count {
                        let escaped = characters[index + 1]
                        switch escaped {
                        case "n": value.append("\n")
                        case "t": value.append("\t")
                        default: value.append(escaped)
                        }
                        index += 2
                        continue
                    }
                    if next == character {
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
                tokens.append(Token(kind: .string(value), offset: start))
                continue
            }
            if character == "%" {
                guard index + 1 < characters.count, characters[index + 1] == "@" || characters[index + 1] == "K" else {
                    throw ObjDBError.predicateSyntax(predicate: text, position: start, message: "use %@ or %K")
                }
                tokens.append(Token(kind: .argument("%" + String(characters[index + 1])), offset: start))
                index += 2
                continue
            }
            if character.isNumber
                || (character == "-" && index + 1 < characters.count && characters[index + 1].isNumber)
            {
                var number = String(character)
                index += 1
                while index < characters.count,
                    characters[index].isNumber || characters[index] == "." || characters[index] == "e"
                        || characters[index] == "E"
                        || ((characters[index] == "-" || characters[index] == "+")
                            && (characters[index - 1] == "e" || characters[index - 1] == "E"))
                {
                    number.append(characters[index])
                    index += 1
                }
                tokens.append(Token(kind: .number(number), offset: start))
                continue
            }
            if character.isLetter || character == "_" || character == "@" || character == "$" {
                var name = String(character)
                index += 1
                while index < characters.count,
                    characters[index].isLetter || characters[index].isNumber || characters[index] == "_"
                {
                    name.append(characters[index])
                    index += 1
                }
                tokens.append(Token(kind: .identifier(name), offset: start))
                continue
            }
            guard
                let symbol = symbols.first(where: { symbol in
                    let end = index + symbol.count
                    return end <= characters.count && String(characters[index..<end]) == symbol
                })
            else {
                throw ObjDBError.predicateSyntax(
                    predicate: text, position: start, message: "unexpected character '\(character)'")
            }
            tokens.append(Token(kind: .symbol(symbol), offset: start))
            index += symbol.count
        }
        tokens.append(Token(kind: .end, offset: characters.count))
        return tokens
    }
}
