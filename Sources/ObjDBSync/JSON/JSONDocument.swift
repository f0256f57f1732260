import Foundation

/// A JSON text, parsed once into a flat index of its values; the values stay in the bytes.
///
/// ```swift
/// let document = try JSONDocument(data)
/// let docs = document.root["response"]?["docs"]
/// print(docs?.count ?? 0, docs?.path ?? JSONPath())   // 10 response.docs
/// ```
///
/// Parsing validates the whole text (syntax, UTF-8, nesting depth) and records where each
/// value starts and ends, without decoding strings or numbers: a mapping then decodes only the
/// values it reads, and compares keys as bytes. That is what lets an import cost little more than
/// parsing itself (see `objdb-bench` W9).
///
/// - Throws: ``SyncError`` with code ``SyncError/Code/malformedJSON`` naming the byte, the line and
///   column, and the path of the containers open where the text went wrong.
public final class JSONDocument: Sendable {
    /// The text, followed by one zero byte that stops every scan at the end.
    let storage: [UInt8]
    /// The values in document order; a container's children follow it.
    let nodes: [JSONNode]
    /// The length of the text, without the terminating zero.
    let byteCount: Int

    /// The deepest nesting of arrays and objects ``init(_:maximumDepth:)`` accepts by default.
    public static let defaultMaximumDepth = 512

    /// Parses `data`.
    ///
    /// - Parameter maximumDepth: the deepest nesting of arrays and objects accepted; deeper is an error.
    public convenience init(_ data: Data, maximumDepth: Int = JSONDocument.defaultMaximumDepth) throws {
        var bytes = [UInt8]()
        bytes.reserveCapacity(data.count + 1)
        bytes.append(contentsOf: data)
        try self.init(terminated: bytes, maximumDepth: maximumDepth)
    }

    /// Parses the UTF-8 bytes `bytes`.
    public convenience init(bytes: [UInt8], maximumDepth: Int = JSONDocument.defaultMaximumDepth) throws {
        try self.init(terminated: bytes, maximumDepth: maximumDepth)
    }

    private init(terminated bytes: [UInt8], maximumDepth: Int) throws {
        var storage = bytes
        let count = storage.count
        storage.append(0)
        guard count < Int(UInt32.max) else {
            throw SyncError(.malformedJSON, "the JSON text is \(count) bytes; the most an import reads is 4 GiB")
        }
        self.nodes = try storage.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(base: buffer.baseAddress!, count: count, maximumDepth: maximumDepth)
            try parser.parse()
            return parser.nodes
        }
        self.storage = storage
        self.byteCount = count
    }

    /// The top-level value.
    public var root: JSONValue { JSONValue(document: self, index: 0) }
}

/// What the parser records of one value: 16 bytes, no pointers.
struct JSONNode: Sendable {
    /// The kind, in the low three bits, and ``JSONNode/flagBit``.
    let header: UInt32
    /// Where the value starts: a string's first byte inside the quotes; a number's first byte; a
    /// container's opening bracket.
    let start: UInt32
    /// A string's byte length inside the quotes; a number's; a container's, brackets included.
    var length: UInt32
    /// The index of the node after this one and all it contains.
    var end: UInt32

    /// On a string: it holds escapes and must be decoded. On a number: it is an integer (no fraction or exponent).
    static let flagBit: UInt32 = 8

    init(_ kind: JSONNodeKind, start: Int, length: Int = 0, end: Int, flag: Bool = false) {
        header = UInt32(kind.rawValue) | (flag ? JSONNode.flagBit : 0)
        self.start = UInt32(truncatingIfNeeded: start)
        self.length = UInt32(truncatingIfNeeded: length)
        self.end = UInt32(truncatingIfNeeded: end)
    }

    var kind: JSONNodeKind { JSONNodeKind(rawValue: UInt8(header & 7))! }
    var flag: Bool { header & JSONNode.flagBit != 0 }
}

/// The kinds of value a node records.
enum JSONNodeKind: UInt8 {
    case null, `false`, `true`, number, string, array, object
}
