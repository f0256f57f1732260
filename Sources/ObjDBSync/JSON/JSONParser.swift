import Foundation

/// Validates a JSON text (RFC 8259) in one pass and records its values as ``JSONNode``s.
///
/// Iterative, so nesting costs heap, not stack, and is capped by `maximumDepth`. Reads rely on
/// the zero byte the document puts after the text: every scan stops there.
struct JSONParser {
    let base: UnsafePointer<UInt8>
    let count: Int
    let maximumDepth: Int
    private(set) var nodes: [JSONNode] = []

    /// For each open container: its node, whether it is an object, how many values it holds so
    /// far, and (objects) the node of its latest key. Kept for error paths as much as for parsing.
    private var open: [(node: Int, isObject: Bool, values: Int, key: Int)] = []

    init(base: UnsafePointer<UInt8>, count: Int, maximumDepth: Int) {
        self.base = base
        self.count = count
        self.maximumDepth = maximumDepth
        nodes.reserveCapacity(count / 12 + 4)
    }

    mutating func parse() throws {
        var p = 0
        parsing: while true {
            // A value is expected at p.
            p = skipWhitespace(p)
            switch base[p] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = base[p] == UInt8(ascii: "{")
                guard open.count < maximumDepth else {
                    throw failure(at: p, "arrays and objects nest deeper than \(maximumDepth) levels")
                }
                nodes.append(JSONNode(isObject ? .object : .array, start: p, end: 0))
                open.append((nodes.count - 1, isObject, 0, -1))
                p = skipWhitespace(p + 1)
                if base[p] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    p = close(at: p)
                } else if isObject {
                    p = try parseKey(p)
                    continue parsing
                } else {
                    continue parsing
                }
            case UInt8(ascii: "\""):
                p = try parseString(p)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                p = try parseNumber(p)
            case UInt8(ascii: "t"):
                p = try parseLiteral(p, "true", .true)
            case UInt8(ascii: "f"):
                p = try parseLiteral(p, "false", .false)
            case UInt8(ascii: "n"):
                p = try parseLiteral(p, "null", .null)
            default:
                throw unexpected(at: p, expecting: "a value")
            }
            // A value ended before p: what follows it?
            while true {
                guard !open.isEmpty else {
                    p = skipWhitespace(p)
                    guard p == count else { throw unexpected(at: p, expecting: "the end of the text") }
                    return
                }
                let level = open.count - 1
                open[level].values += 1
                p = skipWhitespace(p)
                let byte = base[p]
                if byte == UInt8(ascii: ",") {
                    p = skipWhitespace(p + 1)
                    if open[level].isObject { p = try parseKey(p) }
                    continue parsing
                }
                if byte == (open[level].isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    p = close(at: p)
                    continue
                }
                throw unexpected(at: p, expecting: open[level].isObject ? "',' or '}'" : "',' or ']'")
            }
        }
    }

    /// Ends the innermost container at its closing bracket `p`; returns the position after it.
    private mutating func close(at p: Int) -> Int {
        let container = open.removeLast().node
        let start = Int(nodes[container].start)
        nodes[container].length = UInt32(truncatingIfNeeded: p + 1 - start)
        nodes[container].end = UInt32(truncatingIfNeeded: nodes.count)
        return p + 1
    }

    /// Parses `"key":` at `p` for the innermost object; returns the position after the colon.
    private mutating func parseKey(_ p: Int) throws -> Int {
        guard base[p] == UInt8(ascii: "\"") else { throw unexpected(at: p, expecting: "a key in quotes") }
        let next = try parseString(p)
        open[open.count - 1].key = nodes.count - 1
        let colon = skipWhitespace(next)
        guard base[colon] == UInt8(ascii: ":") else { throw unexpected(at: colon, expecting: "':'") }
        return colon + 1
    }

    private func skipWhitespace(_ start: Int) -> Int {
        var p = start
        while true {
            switch base[p] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): p += 1
            default: return p
            }
        }
    }

    // MARK: Strings

    /// Parses the string whose opening quote is at `p`; returns the position after its closing quote.
    private mutating func parseString(_ p: Int) throws -> Int {
        var q = p + 1
        var hasEscapes = false
        scanning: while true {
            // Eight plain bytes at a time: no quote, backslash, control character or non-ASCII byte.
            while q + 8 <= count {
                let word = UnsafeRawPointer(base + q).loadUnaligned(as: UInt64.self)
                let special =
                    Self.lowBytes(word) | word | Self.zeroBytes(word ^ Self.quotes)
                    | Self.zeroBytes(word ^ Self.backslashes)
                let flagged = special & Self.highBits
                if flagged == 0 {
                    q += 8
                } else {
                    q += flagged.trailingZeroBitCount >> 3
                    break
                }
            }
            let byte = base[q]
            switch byte {
            case UInt8(ascii: "\""):
                break scanning
            case UInt8(ascii: "\\"):
                hasEscapes = true
                q = try parseEscape(q)
            case 0..<0x20:
                if q >= count { throw failure(at: p, "a string starting here never ends") }
                throw failure(at: q, "a control character (U+\(hex(byte, digits: 4))) inside a string")
            case 0x80...:
                q = try parseUTF8(q)
            default:
                q += 1
            }
        }
        nodes.append(JSONNode(.string, start: p + 1, length: q - p - 1, end: nodes.count + 1, flag: hasEscapes))
        return q + 1
    }

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080
    private static let quotes: UInt64 = 0x2222_2222_2222_2222
    private static let backslashes: UInt64 = 0x5C5C_5C5C_5C5C_5C5C

    /// High bit set in (at least) the lowest byte that is zero, and never below it.
    private static func zeroBytes(_ word: UInt64) -> UInt64 {
        (word &- ones) & ~word & highBits
    }

    /// High bit set in (at least) the lowest byte below 0x20, and never below it.
    private static func lowBytes(_ word: UInt64) -> UInt64 {
        (word &- ones &* 0x20) & ~word & highBits
    }

    /// Checks the escape at `p` (a backslash); returns the position after it.
    private func parseEscape(_ p: Int) throws -> Int {
        guard p + 1 < count else { throw failure(at: p, "the text ends inside a string") }
        switch base[p + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return p + 2
        case UInt8(ascii: "u"):
            guard p + 6 <= count else { throw failure(at: p, "the text ends inside a \\u escape") }
            for offset in 2..<6 where hexValue(base[p + offset]) == nil {
                throw failure(at: p, "a \\u escape needs four hexadecimal digits")
            }
            return p + 6
        default:
            throw failure(at: p, "'\\\(Character(Unicode.Scalar(base[p + 1])))' is not a JSON escape")
        }
    }

    /// Checks the UTF-8 sequence starting with the non-ASCII byte at `p`; returns the position after it.
    private func parseUTF8(_ p: Int) throws -> Int {
        let lead = base[p]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            high = 0x9F  // no UTF-16 surrogates
        case 0xF0:
            length = 4
            low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            high = 0x8F  // nothing above U+10FFFF
        default:
            throw failure(at: p, "invalid UTF-8 (byte 0x\(hex(lead, digits: 2)))")
        }
        guard p + length <= count else { throw failure(at: p, "invalid UTF-8 (a sequence cut off by the end)") }
        let second = base[p + 1]
        guard second >= low && second <= high else {
            throw failure(at: p, "invalid UTF-8 (bytes 0x\(hex(lead, digits: 2)) 0x\(hex(second, digits: 2)))")
        }
        for offset in 2..<length where base[p + offset] & 0xC0 != 0x80 {
            throw failure(at: p, "invalid UTF-8 (a sequence cut short at byte \(p + offset))")
        }
        return p + length
    }

    // MARK: Numbers and literals

    /// Parses the number at `p`; returns the position after it.
    private mutating func parseNumber(_ p: Int) throws -> Int {
        var q = p
        if base[q] == UInt8(ascii: "-") { q += 1 }
        if base[q] == UInt8(ascii: "0") {
            q += 1
        } else if isDigit(base[q]) {
            while isDigit(base[q]) { q += 1 }
        } else {
            throw unexpected(at: q, expecting: "a digit")
        }
        var isInteger = true
        if base[q] == UInt8(ascii: ".") {
            isInteger = false
            q += 1
            guard isDigit(base[q]) else { throw unexpected(at: q, expecting: "a digit after '.'") }
            while isDigit(base[q]) { q += 1 }
        }
        if base[q] == UInt8(ascii: "e") || base[q] == UInt8(ascii: "E") {
            isInteger = false
            q += 1
            if base[q] == UInt8(ascii: "+") || base[q] == UInt8(ascii: "-") { q += 1 }
            guard isDigit(base[q]) else { throw unexpected(at: q, expecting: "a digit in the exponent") }
            while isDigit(base[q]) { q += 1 }
        }
        nodes.append(JSONNode(.number, start: p, length: q - p, end: nodes.count + 1, flag: isInteger))
        return q
    }

    private mutating func parseLiteral(_ p: Int, _ word: StaticString, _ kind: JSONNodeKind) throws -> Int {
        let length = word.utf8CodeUnitCount
        guard p + length <= count, memcmp(base + p, word.utf8Start, length) == 0 else {
            throw unexpected(at: p, expecting: "a value")
        }
        nodes.append(JSONNode(kind, start: p, length: length, end: nodes.count + 1))
        return p + length
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }

    // MARK: Errors

    private func unexpected(at p: Int, expecting expected: String) -> SyncError {
        if p >= count { return failure(at: p, "the text ends where \(expected) should be") }
        let byte = base[p]
        let found =
            byte >= 0x20 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(hex(byte, digits: 2))"
        return failure(at: p, "expected \(expected), found \(found)")
    }

    /// A syntax error at byte `p`, with the line and column and the path of the open containers.
    private func failure(at p: Int, _ problem: String) -> SyncError {
        let offset = min(p, count)
        var line = 1
        var lineStart = 0
        for index in 0..<offset where base[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        return SyncError(
            .malformedJSON, at: openPath(),
            "\(problem) (byte \(offset), line \(line), column \(offset - lineStart + 1))")
    }

    /// Where the parser was: each open container's current key or position.
    private func openPath() -> JSONPath {
        var components: [JSONPath.Component] = []
        for container in open {
            if container.isObject {
                guard container.key >= 0 else { break }
                let key = nodes[container.key]
                let bytes = UnsafeBufferPointer(start: base + Int(key.start), count: Int(key.length))
                components.append(.key(key.flag ? decodeJSONString(bytes) : String(decoding: bytes, as: UTF8.self)))
            } else {
                components.append(.index(container.values))
            }
        }
        return JSONPath(components)
    }
}

/// The value of a hexadecimal digit, or `nil`.
@inline(__always)
func hexValue(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
    default: return nil
    }
}

private func hex(_ byte: UInt8, digits: Int) -> String {
    let text = String(byte, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, digits - text.count)) + text
}
