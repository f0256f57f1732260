/// A path into nested JSON, written the way it reads: `user.screen_name`, `entities.hashtags`, `indices[0]`.
///
/// Each `.` steps into an object's member and each `[n]` into an array's element; the empty key
/// path (``root``) is the value itself. A key that itself holds a `.` or `[` is given with
/// ``init(components:)``.
public struct JSONKeyPath: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    enum Step: Hashable, Sendable {
        case key(JSONKey)
        case index(Int)
    }

    let steps: [Step]

    /// Parses `text`: keys separated by `.`, each optionally followed by `[n]` positions.
    ///
    /// - Precondition: `text` is a well-formed key path (no empty keys, numeric positions).
    public init(_ text: String) {
        var steps: [Step] = []
        if text.isEmpty {
            self.steps = []
            return
        }
        for segment in text.split(separator: ".", omittingEmptySubsequences: false) {
            var rest = Substring(segment)
            if let bracket = rest.firstIndex(of: "[") {
                let key = rest[..<bracket]
                if !key.isEmpty { steps.append(.key(JSONKey(String(key)))) }
                rest = rest[bracket...]
                while rest.first == "[" {
                    guard let close = rest.firstIndex(of: "]"),
                        let index = Int(rest[rest.index(after: rest.startIndex)..<close]), index >= 0
                    else { preconditionFailure("'\(text)' is not a JSON key path: a [ needs a position and a ]") }
                    steps.append(.index(index))
                    rest = rest[rest.index(after: close)...]
                }
                precondition(rest.isEmpty, "'\(text)' is not a JSON key path: text after ]")
            } else {
                precondition(!rest.isEmpty, "'\(text)' is not a JSON key path: an empty key")
                steps.append(.key(JSONKey(String(rest))))
            }
        }
        self.steps = steps
    }

    /// The value itself: a mapping of a partial copy reads the very object it is in
    /// (a mention is also a partial user).
    public static let root = JSONKeyPath(components: [])

    /// The key path of `text`.
    public init(stringLiteral text: String) {
        self.init(text)
    }

    /// The key path made of `components`, keys taken literally.
    public init(components: [JSONPath.Component]) {
        steps = components.map { component in
            switch component {
            case .key(let key): return .key(JSONKey(key))
            case .index(let index): return .index(index)
            }
        }
    }

    /// The steps as path components.
    public var components: [JSONPath.Component] {
        steps.map { step in
            switch step {
            case .key(let key): return .key(key.string)
            case .index(let index): return .index(index)
            }
        }
    }

    /// The key path as it was written.
    public var description: String { JSONPath(components).description }
}

/// Where a mapped value comes from: one key path, or several tried in order (a fallback).
///
/// ```swift
/// $0.map(\.text, ["full_text", "text"])   // full_text when present, else text
/// ```
///
/// The first key path that leads to a value other than `null` wins. When none does, the value is
/// `null` if one of them led to `null`, and absent otherwise.
public struct JSONSource: Hashable, Sendable, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    CustomStringConvertible
{
    /// The key paths, in the order they are tried.
    public let keyPaths: [JSONKeyPath]

    /// A source trying `keyPaths` in order.
    ///
    /// - Precondition: `keyPaths` is not empty.
    public init(_ keyPaths: [JSONKeyPath]) {
        precondition(!keyPaths.isEmpty, "A JSON source needs at least one key path.")
        self.keyPaths = keyPaths
    }

    /// The source of the one key path `text`.
    public init(stringLiteral text: String) {
        self.init([JSONKeyPath(text)])
    }

    /// A source trying `keyPaths` in order.
    public init(arrayLiteral keyPaths: JSONKeyPath...) {
        self.init(keyPaths)
    }

    /// The key paths, separated by ` or `.
    public var description: String { keyPaths.map(\.description).joined(separator: " or ") }

    /// The value this source finds in `object`: `nil` when absent.
    ///
    /// - Throws: ``SyncError`` when a step meets a value that is not an object (or array) to step into.
    func find(in object: JSONValue) throws -> JSONValue? {
        var null: JSONValue?
        for keyPath in keyPaths {
            guard let found = try object.value(at: keyPath) else { continue }
            if !found.isNull { return found }
            null = null ?? found
        }
        return null
    }
}

extension JSONValue {
    /// The value `keyPath` leads to from this one: `nil` when a step is absent; the `null` when a
    /// step meets `null` (an absent parent holds nothing, a `null` one says so).
    ///
    /// - Throws: ``SyncError`` (``SyncError/Code/unexpectedValue``) when a step meets a value of
    ///   another kind: a key into something other than an object, a position into something other
    ///   than an array.
    public func value(at keyPath: JSONKeyPath) throws -> JSONValue? {
        var current = self
        for (number, step) in keyPath.steps.enumerated() {
            if number > 0 && current.isNull { return current }
            switch step {
            case .key(let key):
                guard current.node.kind == .object else {
                    throw SyncError(
                        .unexpectedValue, at: current.path, "expected an object with '\(key.string)', found \(current)")
                }
                guard let member = current.member(key) else { return nil }
                current = member
            case .index(let index):
                guard current.node.kind == .array else {
                    throw SyncError(.unexpectedValue, at: current.path, "expected an array, found \(current)")
                }
                guard let element = current[index] else { return nil }
                current = element
            }
        }
        return current
    }
}
