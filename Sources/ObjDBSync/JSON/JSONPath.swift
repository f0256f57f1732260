/// Where a value sits in a JSON document: the keys and array positions leading to it from the top.
///
/// It prints the way a reader would point at the value, `response.docs[3].pub_date`, and as
/// `(top level)` for the document itself.
public struct JSONPath: Hashable, Sendable, CustomStringConvertible {
    /// One step down: an object's member by key, or an array's element by position.
    public enum Component: Hashable, Sendable {
        /// The member named by the key.
        case key(String)
        /// The element at the zero-based position.
        case index(Int)
    }

    /// The steps from the top of the document.
    public var components: [Component]

    /// The path made of `components`.
    public init(_ components: [Component] = []) {
        self.components = components
    }

    /// Whether this is the document itself.
    public var isEmpty: Bool { components.isEmpty }

    /// This path followed by `other`.
    public func appending(_ other: JSONPath) -> JSONPath {
        JSONPath(components + other.components)
    }

    /// This path followed by one more step.
    public func appending(_ component: Component) -> JSONPath {
        JSONPath(components + [component])
    }

    /// `response.docs[3].pub_date`; keys that are not plain words print quoted, `["a.b"]`.
    public var description: String {
        if components.isEmpty { return "(top level)" }
        var text = ""
        for component in components {
            switch component {
            case .index(let index):
                text += "[\(index)]"
            case .key(let key):
                if Self.isPlain(key) {
                    if !text.isEmpty { text += "." }
                    text += key
                } else {
                    text += "[\"\(key.replacingOccurrences(of: "\"", with: "\\\""))\"]"
                }
            }
        }
        return text
    }

    private static func isPlain(_ key: String) -> Bool {
        !key.isEmpty
            && key.utf8.allSatisfy { byte in
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                    || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                    || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                    || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "$")
            }
    }
}
