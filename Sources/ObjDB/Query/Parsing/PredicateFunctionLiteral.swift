import Foundation

/// Realm's literals that a predicate writes as calls or as a letter and a number:
///
/// - `bin('…')` (or `bin("…")`): binary data, the string's UTF-8 bytes;
/// - `obj('Type', key)`: a link to the object of `Type` whose primary key is `key` (a string, a
///   number or a `uuid(…)`), as realm-core's grammar reads `OBJ '(' STRING ',' primary_key ')'`;
/// - `O<n>`: a link to the object whose key is `n` (its internal ID, or its integer primary key), of
///   the type the link it is compared with leads to. As in Realm's lexer, `O` and digits is always
///   this literal, never a property name.
///
/// Links are checked against the store when the query is made (``ObjectLiteralResolver``): the
/// type must exist, and a key no object has is the null link, as realm-core's
/// `find_primary_key` makes it.
enum PredicateFunctionLiteral {
    /// The literal that starts at `tokens[index]`, and how many tokens it takes; `nil` when none does.
    static func read(_ tokens: [Token], at index: Int, text: String) throws -> (value: StoredValue, count: Int)? {
        guard case .identifier(let word) = tokens[index].kind else { return nil }
        func kind(_ offset: Int) -> Token.Kind { tokens[Swift.min(index + offset, tokens.count - 1)].kind }
        func fail(_ message: String, at offset: Int) -> ObjDBError {
            .predicateSyntax(
                predicate: text, position: tokens[Swift.min(index + offset, tokens.count - 1)].offset, message: message)
        }
        if let key = linkKey(word) {
            return (.link(type: "", key: key), 1)
        }
        guard kind(1) == .symbol("(") else { return nil }
        switch word.lowercased() {
        case "bin":
            guard case .string(let bytes) = kind(2) else {
                throw fail("bin( takes a quoted string, such as bin('abc')", at: 2)
            }
            guard kind(3) == .symbol(")") else { throw fail("expected ')' to close bin(…)", at: 3) }
            return (.data(Data(bytes.utf8)), 4)
        case "obj":
            guard case .string(let type) = kind(2) else {
                throw fail("obj( takes a type name in quotes first, such as obj('Tweet', 12)", at: 2)
            }
            guard kind(3) == .symbol(",") else { throw fail("expected ',' after obj('\(type)'", at: 3) }
            let key: ObjectKey
            switch kind(4) {
            case .string(let value): key = .string(value)
            case .number(let digits):
                guard let number = Int64(digits) else {
                    throw fail("a primary key is a whole number, a string or a uuid(…), not \(digits)", at: 4)
                }
                key = .int(number)
            case .literal(.uuid(let uuid), _): key = .uuid(uuid)
            default:
                throw fail("obj('\(type)', …) takes a primary key: a whole number, a string or a uuid(…)", at: 4)
            }
            guard kind(5) == .symbol(")") else { throw fail("expected ')' to close obj(…)", at: 5) }
            return (.link(type: type, key: key), 6)
        default:
            return nil
        }
    }

    /// The key `O<n>` names, or `nil` when `word` is not such a literal.
    private static func linkKey(_ word: String) -> ObjectKey? {
        let digits = word.utf8.dropFirst()
        guard word.utf8.first == UInt8(ascii: "O"), !digits.isEmpty,
            digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let number = UInt64(String(decoding: digits, as: UTF8.self))
        else { return nil }
        return .internalID(number)
    }
}
