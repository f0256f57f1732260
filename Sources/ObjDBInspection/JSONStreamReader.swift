import Foundation

/// A JSON value as the importer reads it. Numbers keep their text, so each is converted exactly
/// to the type of the property it fills (a Float from its own digits, never through a Double).
package indirect enum JSONValue: Equatable {
    case null
    case bool(Bool)
    /// The number's text, as written.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)), (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    /// A short name of the kind of value, for messages.
    var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number(let text): return "the number \(text)"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// Reads JSON values one after another from a file, in blocks, keeping only the value being read:
/// NDJSON (one object per line, `\n` or `\r\n`), a JSON text sequence, or one large document
/// whose elements the caller takes one by one.
final class JSONStreamReader {
    private let descriptor: Int32
    private let capacity = 1 << 20
    private var buffer: UnsafeMutablePointer<UInt8>
    private var position = 0
    private var end = 0
    private var isAtEnd = false
    private var scratch: [UInt8] = []
    /// The line being read, from 1.
    private(set) var line = 1
    /// Bytes consumed so far.
    private(set) var offset = 0
    /// How deep arrays and objects may nest.
    static let maximumDepth = 256

    init(descriptor: Int32) {
        self.descriptor = descriptor
        buffer = .allocate(capacity: capacity)
    }

    deinit {
        buffer.deallocate()
    }

    /// A syntax error at the current line.
    func error(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(line: line, message: message)
    }

    /// The next byte that is not white space, not consumed; `nil` at the end of the input.
    func peekSignificant() throws -> UInt8? {
        while true {
            if position == end, try !refill() { return nil }
            let byte = buffer[position]
            switch byte {
            case 0x0A:
                line += 1
            case 0x20, 0x09, 0x0D:
                break
            default:
                return byte
            }
            position += 1
            offset += 1
        }
    }

    /// Consumes the next significant byte, which must be `expected`.
    func expect(_ expected: UInt8, _ what: @autoclosure () -> String) throws {
        guard try peekSignificant() == expected else { throw error("expected \(what())\(try found())") }
        advance()
    }

    /// Consumes the significant byte just peeked.
    @inline(__always)
    func advance() {
        position += 1
        offset += 1
    }

    /// " but found …" for messages.
    func found() throws -> String {
        guard let byte = try peekSignificant() else { return " but the input ended" }
        if byte >= 0x20, byte < 0x7F { return " but found '\(Character(UnicodeScalar(byte)))'" }
        return String(format: " but found byte 0x%02X", byte)
    }

    /// The next value.
    func readValue(depth: Int = 0) throws -> JSONValue {
        guard let byte = try peekSignificant() else { throw error("expected a value but the input ended") }
        switch byte {
        case UInt8(ascii: "{"):
            advance()
            return .object(try readMembers(depth: depth + 1))
        case UInt8(ascii: "["):
            advance()
            guard depth < Self.maximumDepth else { throw error("arrays and objects nest too deeply") }
            var elements: [JSONValue] = []
            if try peekSignificant() == UInt8(ascii: "]") {
                advance()
                return .array(elements)
            }
            while true {
                elements.append(try readValue(depth: depth + 1))
                guard let next = try peekSignificant() else { throw error("an array is not closed") }
                advance()
                if next == UInt8(ascii: "]") { return .array(elements) }
                guard next == UInt8(ascii: ",") else { throw error("expected ',' or ']' in an array") }
            }
        case UInt8(ascii: "\""):
            advance()
            return .string(try readStringBody())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try readNumber())
        default:
            throw error("expected a value\(try found())")
        }
    }

    /// The members of an object whose `{` was consumed, through its `}`.
    func readMembers(depth: Int, first: String? = nil) throws -> [(key: String, value: JSONValue)] {
        guard depth <= Self.maximumDepth else { throw error("arrays and objects nest too deeply") }
        var members: [(key: String, value: JSONValue)] = []
        if let first {
            members.append((first, try readValue(depth: depth)))
            guard try continueObject() else { return members }
        } else if try peekSignificant() == UInt8(ascii: "}") {
            advance()
            return members
        }
        while true {
            let key = try readKey()
            members.append((key, try readValue(depth: depth)))
            guard try continueObject() else { return members }
        }
    }

    /// A member's key and its `:`.
    func readKey() throws -> String {
        try expect(UInt8(ascii: "\""), "a member name in quotes")
        let key = try readStringBody()
        try expect(UInt8(ascii: ":"), "':' after a member name")
        return key
    }

    /// After a member: `true` at `,`, `false` at `}`.
    private func continueObject() throws -> Bool {
        guard let next = try peekSignificant() else { throw error("an object is not closed") }
        advance()
        if next == UInt8(ascii: "}") { return false }
        guard next == UInt8(ascii: ",") else { throw error("expected ',' or '}' in an object") }
        return true
    }

    /// A string's characters after its opening quote, through its closing quote.
    private func readStringBody() throws -> String {
        // The common case: the whole string, without escapes, in the buffer.
        var index = position
        while index < end {
            let byte = buffer[index]
            if byte == UInt8(ascii: "\"") {
                let text = String(
                    decoding: UnsafeBufferPointer(start: buffer + position, count: index - position), as: UTF8.self)
                offset += index + 1 - position
                position = index + 1
                return text
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            index += 1
        }
        scratch.removeAll(keepingCapacity: true)
        while true {
            if position == end, try !refill() { throw error("a string is not closed") }
            let byte = buffer[position]
            advance()
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: scratch, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try readEscape()
            case 0x0A:
                throw error("a string is not closed on its line")
            case ..<0x20:
                throw error("a control character in a string must be escaped")
            default:
                scratch.append(byte)
            }
        }
    }

    private func readEscape() throws {
        guard let byte = try nextRaw() else { throw error("a string is not closed") }
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(byte)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "u"):
            var code = try hex4()
            if (0xD800..<0xDC00).contains(code) {
                guard try nextRaw() == UInt8(ascii: "\\"), try nextRaw() == UInt8(ascii: "u") else {
                    throw error("a lone UTF-16 surrogate in a string")
                }
                let low = try hex4()
                guard (0xDC00..<0xE000).contains(low) else { throw error("a lone UTF-16 surrogate in a string") }
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(code) {
                throw error("a lone UTF-16 surrogate in a string")
            }
            scratch.append(contentsOf: String(Character(UnicodeScalar(code)!)).utf8)
        default:
            throw error("an unknown escape '\\\(Character(UnicodeScalar(byte)))' in a string")
        }
    }

    private func hex4() throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = try nextRaw() else { throw error("a string is not closed") }
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("\\u needs four hexadecimal digits")
            }
            value = value << 4 | digit
        }
        return value
    }

    /// A number's text, checked against JSON's grammar.
    private func readNumber() throws -> String {
        scratch.removeAll(keepingCapacity: true)
        while true {
            if position == end, try !refill() { break }
            let byte = buffer[position]
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
                UInt8(ascii: "e"), UInt8(ascii: "E"):
                scratch.append(byte)
                advance()
                continue
            default:
                break
            }
            break
        }
        guard Self.isNumber(scratch) else {
            throw error("'\(String(decoding: scratch, as: UTF8.self))' is not a JSON number")
        }
        return String(decoding: scratch, as: UTF8.self)
    }

    /// Whether `text` is a number by JSON's grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    static func isNumber(_ text: [UInt8]) -> Bool {
        var index = 0
        func digits() -> Int {
            let start = index
            while index < text.count, text[index] >= UInt8(ascii: "0"), text[index] <= UInt8(ascii: "9") { index += 1 }
            return index - start
        }
        if index < text.count, text[index] == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        let integerDigits = digits()
        guard integerDigits > 0, integerDigits == 1 || text[integerStart] != UInt8(ascii: "0") else { return false }
        if index < text.count, text[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { return false }
        }
        if index < text.count, text[index] == UInt8(ascii: "e") || text[index] == UInt8(ascii: "E") {
            index += 1
            if index < text.count, text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { return false }
        }
        return index == text.count
    }

    private func literal(_ word: StaticString) throws {
        let bytes = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        for expected in bytes {
            guard try nextRaw() == expected else { throw error("expected '\(word)'") }
        }
    }

    private func nextRaw() throws -> UInt8? {
        if position == end, try !refill() { return nil }
        let byte = buffer[position]
        advance()
        return byte
    }

    /// Reads the next block; `false` at the end of the input.
    private func refill() throws -> Bool {
        guard !isAtEnd else { return false }
        position = 0
        end = 0
        while true {
            let count = read(descriptor, buffer, capacity)
            if count < 0 {
                if errno == EINTR { continue }
                throw error("cannot read: \(String(cString: strerror(errno)))")
            }
            if count == 0 {
                isAtEnd = true
                return false
            }
            end = count
            return true
        }
    }
}

/// Input that is not JSON, at a line.
struct JSONSyntaxError: Error {
    let line: Int
    let message: String
}
