import Foundation
import ObjDB

/// How values print in tables and CSV: links as `Type(key)`, collections summarized.
enum ValueText {
    static func cell(_ value: StoredValue) -> String {
        switch value {
        case .null: return "nil"
        case .string(let text): return text
        case .link(let type, let key): return "\(type)(\(key.plain))"
        case .list(let values):
            if values.count <= 3 && values.allSatisfy({ !$0.isCollection }) {
                return "[" + values.map(cell).joined(separator: ", ") + "]"
            }
            return "[\(values.count) items]"
        case .map(let values): return "{\(values.count) entries}"
        case .embedded(let values):
            return "{" + values.keys.sorted().map { "\($0): \(cell(values[$0]!))" }.joined(separator: ", ") + "}"
        case .date(let date): return date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        default: return value.description
        }
    }
}

extension ObjectKey {
    /// The key without quotes, as a user types it.
    var plain: String {
        switch self {
        case .string(let text): return text
        default: return description
        }
    }
}

extension StoredValue {
    var isCollection: Bool {
        switch self {
        case .list, .map, .embedded: return true
        default: return false
        }
    }
}

/// JSON text of one value, keys sorted.
func jsonText(_ object: Any, pretty: Bool = false) throws -> String {
    var options: JSONSerialization.WritingOptions = [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes]
    if pretty { options.insert(.prettyPrinted) }
    return String(decoding: try JSONSerialization.data(withJSONObject: object, options: options), as: UTF8.self)
}
