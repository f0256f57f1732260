import Foundation

extension StoredValue: CustomStringConvertible {
    /// The value as messages and `objdb-inspect` print it.
    public var description: String {
        switch self {
        case .null: return "nil"
        case .bool(let flag): return String(flag)
        case .int(let number): return String(number)
        case .float(let number): return String(number)
        case .double(let number): return String(number)
        case .string(let text): return "\"\(text)\""
        case .data(let data): return "<\(data.count) bytes>"
        case .date(let date): return date.formatted(.iso8601)
        case .uuid(let uuid): return uuid.uuidString
        case .decimal(let decimal): return decimal.description
        case .link(let type, let key): return "\(type)(\(key))"
        case .embedded(let values):
            return "{" + values.keys.sorted().map { "\($0): \(values[$0]!)" }.joined(separator: ", ") + "}"
        case .list(let values): return "[" + values.map(\.description).joined(separator: ", ") + "]"
        case .map(let values):
            return "[" + values.keys.sorted().map { "\($0): \(values[$0]!)" }.joined(separator: ", ") + "]"
        }
    }
}
