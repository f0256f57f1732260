import Foundation

/// A value as the store holds it, independent of Swift model classes.
///
/// The dynamic API, migrations and `create(_:value:)` speak in stored values;
/// typed objects convert to and from them.
// Not `indirect`: a scalar is made without a heap allocation (collections and embedded
// objects already keep their elements in storage of their own).
public enum StoredValue: Hashable, Sendable {
    /// No value (`nil`).
    case null
    /// A `Bool`.
    case bool(Bool)
    /// An integer of any width.
    case int(Int64)
    /// A `Float`.
    case float(Float)
    /// A `Double`.
    case double(Double)
    /// A `String`.
    case string(String)
    /// A `Data`.
    case data(Data)
    /// A `Date`.
    case date(Date)
    /// A `UUID`.
    case uuid(UUID)
    /// A `Decimal`.
    case decimal(Decimal)
    /// A link to the object of type `type` whose primary key (or internal ID) is `key`.
    case link(type: String, key: ObjectKey)
    /// An embedded object's property values, by property name.
    case embedded([String: StoredValue])
    /// The elements of a list or a set, in order.
    case list([StoredValue])
    /// The entries of a map.
    case map([String: StoredValue])

    /// Whether the value is ``null``.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

/// The key that identifies an object in its type's table: its primary key or, for
/// types without one, an internal ID that only grows.
public enum ObjectKey: Hashable, Sendable, CustomStringConvertible {
    /// An integer primary key.
    case int(Int64)
    /// A string primary key.
    case string(String)
    /// A UUID primary key.
    case uuid(UUID)
    /// The internal ID of an object whose type has no primary key.
    case internalID(UInt64)

    /// The key as it prints in messages and `objdb-inspect`: `42`, `"ada"`, a UUID, or `#7`.
    public var description: String {
        switch self {
        case .int(let value): return String(value)
        case .string(let value): return "\"\(value)\""
        case .uuid(let value): return value.uuidString
        case .internalID(let value): return "#\(value)"
        }
    }

    /// The key as a stored value, as the primary-key property holds it.
    package var storedValue: StoredValue {
        switch self {
        case .int(let value): return .int(value)
        case .string(let value): return .string(value)
        case .uuid(let value): return .uuid(value)
        case .internalID(let value): return .int(Int64(bitPattern: value))
        }
    }
}
