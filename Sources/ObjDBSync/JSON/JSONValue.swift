import Foundation

/// One value in a ``JSONDocument``: read it as what it is, or step into it.
///
/// ```swift
/// let status = document.root[0]
/// let id = status?["id_str"]?.stringValue.flatMap(Int64.init)   // exact, never through Double
/// let name = status?["user"]?["screen_name"]?.stringValue
/// ```
///
/// A value is a position in its document: copying it copies no JSON. Strings and numbers decode
/// when read.
public struct JSONValue: Sendable, CustomStringConvertible {
    /// The JSON type of a value.
    public enum Kind: Sendable, Hashable {
        /// `null`.
        case null
        /// `true` or `false`.
        case bool
        /// A number.
        case number
        /// A string.
        case string
        /// An array.
        case array
        /// An object.
        case object
    }

    let document: JSONDocument
    let index: Int

    init(document: JSONDocument, index: Int) {
        self.document = document
        self.index = index
    }

    var node: JSONNode { document.nodes[index] }

    /// The JSON type.
    public var kind: Kind {
        switch node.kind {
        case .null: return .null
        case .false, .true: return .bool
        case .number: return .number
        case .string: return .string
        case .array: return .array
        case .object: return .object
        }
    }

    /// Whether the value is `null`.
    public var isNull: Bool { node.kind == .null }

    /// The string, decoded, if the value is a string.
    public var stringValue: String? {
        let node = self.node
        guard node.kind == .string else { return nil }
        return document.withBytes(of: node) { bytes in
            node.flag ? decodeJSONString(bytes) : String(decoding: bytes, as: UTF8.self)
        }
    }

    /// The Boolean, if the value is `true` or `false`.
    public var boolValue: Bool? {
        switch node.kind {
        case .true: return true
        case .false: return false
        default: return nil
        }
    }

    /// The integer, if the value is a number without fraction or exponent that fits in 64 bits: exact,
    /// never through `Double`.
    public var int64Value: Int64? {
        let node = self.node
        guard node.kind == .number, node.flag else { return nil }
        return document.withBytes(of: node) { parseInt64($0) }
    }

    /// The number as the nearest `Double`, if the value is a number.
    public var doubleValue: Double? {
        let node = self.node
        guard node.kind == .number else { return nil }
        return document.withBytes(of: node) { Double(String(decoding: $0, as: UTF8.self)) }
    }

    /// The number of elements of an array or members of an object; 0 for other values.
    public var count: Int {
        var count = 0
        forEachChild { _ in count += 1 }
        return node.kind == .object ? count / 2 : count
    }

    /// The member named `key`, if the value is an object that has it.
    public subscript(key: String) -> JSONValue? {
        member(JSONKey(key))
    }

    /// The element at `position`, if the value is an array that long.
    public subscript(position: Int) -> JSONValue? {
        guard node.kind == .array, position >= 0 else { return nil }
        var remaining = position
        var found: Int?
        forEachChild { child in
            if remaining == 0, found == nil { found = child }
            remaining -= 1
        }
        return found.map { JSONValue(document: document, index: $0) }
    }

    /// The elements, if the value is an array; empty otherwise.
    public var elements: [JSONValue] {
        guard node.kind == .array else { return [] }
        var elements: [JSONValue] = []
        forEachChild { elements.append(JSONValue(document: document, index: $0)) }
        return elements
    }

    /// The members in document order, if the value is an object; empty otherwise.
    public var members: [(key: String, value: JSONValue)] {
        guard node.kind == .object else { return [] }
        var members: [(key: String, value: JSONValue)] = []
        var key: String?
        forEachChild { child in
            if let name = key {
                members.append((name, JSONValue(document: document, index: child)))
                key = nil
            } else {
                key = JSONValue(document: document, index: child).stringValue ?? ""
            }
        }
        return members
    }

    /// Where the value sits in its document.
    public var path: JSONPath { document.path(to: index) }

    /// The value's JSON text, as the document has it.
    public var jsonText: String {
        let node = self.node
        var start = Int(node.start)
        var length = Int(node.length)
        if node.kind == .string {
            start -= 1
            length += 2
        }
        return document.storage.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0[start..<start + length]), as: UTF8.self)
        }
    }

    /// A short description for messages: `42`, `"text"`, `null`, `an object`, `an array`.
    public var description: String {
        switch node.kind {
        case .object: return "an object"
        case .array: return "an array"
        case .string:
            let text = stringValue ?? ""
            let shown = text.count > 40 ? text.prefix(40) + "…" : Substring(text)
            return "\"\(shown)\""
        default:
            let text = jsonText
            return text.count > 40 ? String(text.prefix(40)) + "…" : text
        }
    }

    // MARK: Internal fast paths

    /// The member whose key is `key`, compared as bytes.
    func member(_ key: JSONKey) -> JSONValue? {
        guard node.kind == .object else { return nil }
        let nodes = document.nodes
        var child = index + 1
        let end = Int(node.end)
        while child < end {
            let keyNode = nodes[child]
            if document.key(keyNode, equals: key) { return JSONValue(document: document, index: child + 1) }
            child = Int(nodes[child + 1].end)
        }
        return nil
    }

    /// Calls `body` with each child node's index: elements of an array, keys and values of an object.
    func forEachChild(_ body: (Int) -> Void) {
        let node = self.node
        guard node.kind == .array || node.kind == .object else { return }
        let nodes = document.nodes
        var child = index + 1
        let end = Int(node.end)
        while child < end {
            body(child)
            child = Int(nodes[child].end)
        }
    }

    /// Whether `other` has exactly the same JSON text: then it maps to the same values.
    func hasSameText(as other: JSONValue) -> Bool {
        let mine = node
        let theirs = other.node
        guard mine.length == theirs.length, mine.kind == theirs.kind else { return false }
        if document === other.document, mine.start == theirs.start { return true }
        return document.storage.withUnsafeBufferPointer { a in
            other.document.storage.withUnsafeBufferPointer { b in
                memcmp(a.baseAddress! + Int(mine.start), b.baseAddress! + Int(theirs.start), Int(mine.length)) == 0
            }
        }
    }

    /// Calls `body` with a string's UTF-8 bytes, decoded when it holds escapes; `nil` for other values.
    func withStringBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
        let node = self.node
        guard node.kind == .string else { return nil }
        if !node.flag { return document.withBytes(of: node, body) }
        var decoded = Array(stringValue!.utf8)
        return decoded.withUnsafeMutableBufferPointer { body(UnsafeBufferPointer($0)) }
    }
}

/// A member key as UTF-8 bytes, made once and compared without decoding the document's keys.
struct JSONKey: Hashable, Sendable {
    let bytes: [UInt8]
    let string: String

    init(_ string: String) {
        self.string = string
        self.bytes = Array(string.utf8)
    }
}

extension JSONDocument {
    /// Calls `body` with the bytes of a string's contents or a number's text.
    @inline(__always)
    func withBytes<Result>(of node: JSONNode, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        storage.withUnsafeBufferPointer { buffer in
            body(UnsafeBufferPointer(start: buffer.baseAddress! + Int(node.start), count: Int(node.length)))
        }
    }

    /// Whether the key node `node` spells `key`.
    @inline(__always)
    func key(_ node: JSONNode, equals key: JSONKey) -> Bool {
        if node.flag {
            return withBytes(of: node) { decodeJSONString($0) } == key.string
        }
        guard Int(node.length) == key.bytes.count else { return false }
        return storage.withUnsafeBufferPointer { buffer in
            key.bytes.withUnsafeBufferPointer { wanted in
                wanted.count == 0
                    || memcmp(buffer.baseAddress! + Int(node.start), wanted.baseAddress!, wanted.count) == 0
            }
        }
    }

    /// The path from the top to node `target`, found by walking down the containers that hold it.
    func path(to target: Int) -> JSONPath {
        var components: [JSONPath.Component] = []
        var current = 0
        descending: while current != target {
            let node = nodes[current]
            guard node.kind == .array || node.kind == .object else { break }
            var child = current + 1
            var position = 0
            while child < Int(node.end) {
                if node.kind == .object {
                    let value = child + 1
                    let memberEnd = Int(nodes[value].end)
                    if target >= child && target < memberEnd {
                        components.append(.key(JSONValue(document: self, index: child).stringValue ?? ""))
                        // A key is not a value of its own: its path is its member's.
                        if target == child { break descending }
                        current = value
                        continue descending
                    }
                    child = memberEnd
                } else {
                    let elementEnd = Int(nodes[child].end)
                    if target >= child && target < elementEnd {
                        components.append(.index(position))
                        current = child
                        continue descending
                    }
                    child = elementEnd
                }
                position += 1
            }
            break
        }
        return JSONPath(components)
    }
}

/// Decodes the contents of a JSON string that holds escapes; a lone UTF-16 surrogate becomes U+FFFD.
func decodeJSONString(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count)
    var index = 0
    func hex4(_ at: Int) -> UInt32 {
        guard at + 4 <= bytes.count else { return 0xFFFD }
        var value: UInt32 = 0
        for offset in 0..<4 { value = value << 4 | (hexValue(bytes[at + offset]) ?? 0) }
        return value
    }
    while index < bytes.count {
        let byte = bytes[index]
        guard byte == UInt8(ascii: "\\"), index + 1 < bytes.count else {
            output.append(byte)
            index += 1
            continue
        }
        let escape = bytes[index + 1]
        index += 2
        switch escape {
        case UInt8(ascii: "b"): output.append(0x08)
        case UInt8(ascii: "f"): output.append(0x0C)
        case UInt8(ascii: "n"): output.append(0x0A)
        case UInt8(ascii: "r"): output.append(0x0D)
        case UInt8(ascii: "t"): output.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = hex4(index)
            index += 4
            if (0xD800..<0xDC00).contains(scalar) {
                if index + 6 <= bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u"),
                    case let low = hex4(index + 2), (0xDC00..<0xE000).contains(low)
                {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    index += 6
                } else {
                    scalar = 0xFFFD
                }
            } else if (0xDC00..<0xE000).contains(scalar) {
                scalar = 0xFFFD
            }
            output.append(contentsOf: UTF8.encode(Unicode.Scalar(scalar) ?? "\u{FFFD}")!)
        default: output.append(escape)  // \" \\ \/
        }
    }
    return String(decoding: output, as: UTF8.self)
}

/// Parses `-?[0-9]+` into an `Int64`, or `nil` when it is anything else or out of range.
func parseInt64(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
    guard !bytes.isEmpty else { return nil }
    var index = 0
    let negative = bytes[0] == UInt8(ascii: "-")
    if negative { index = 1 }
    guard index < bytes.count else { return nil }
    var value: Int64 = 0
    while index < bytes.count {
        let digit = bytes[index] &- UInt8(ascii: "0")
        guard digit < 10 else { return nil }
        let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
        // Accumulated negatively, so Int64.min parses too.
        let (next, overflow2) = times10.subtractingReportingOverflow(Int64(digit))
        guard !overflow1, !overflow2 else { return nil }
        value = next
        index += 1
    }
    if negative { return value }
    guard value != Int64.min else { return nil }
    return -value
}
