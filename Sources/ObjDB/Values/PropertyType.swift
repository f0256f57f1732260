/// The kind of value a property stores.
public enum PropertyType: String, Codable, Sendable, Hashable, CaseIterable {
    /// `Bool`.
    case bool
    /// `Int`, stored in 8 bytes.
    case int
    /// `Int8`.
    case int8
    /// `Int16`.
    case int16
    /// `Int32`.
    case int32
    /// `Int64`.
    case int64
    /// `Float`.
    case float
    /// `Double`.
    case double
    /// `String`, stored as UTF-8.
    case string
    /// `Data`.
    case data
    /// `Date`.
    case date
    /// `UUID`.
    case uuid
    /// `Decimal`.
    case decimal
    /// A link to an object of another type (``PropertySchema/objectType``).
    case object
    /// An embedded object, owned by the object holding it and stored inside its record.
    case embedded
    /// The objects linking to this one through ``PropertySchema/originProperty``: computed, not stored.
    case linkingObjects

    /// Whether values of the type may be a primary key.
    public var canBePrimaryKey: Bool {
        switch self {
        case .int, .int8, .int16, .int32, .int64, .string, .uuid: return true
        default: return false
        }
    }

    /// Whether values of the type may be indexed.
    public var canBeIndexed: Bool {
        switch self {
        case .bool, .int, .int8, .int16, .int32, .int64, .float, .double, .string, .data, .date, .uuid: return true
        default: return false
        }
    }

    /// Whether the type is an integer of any width.
    public var isInteger: Bool {
        switch self {
        case .int, .int8, .int16, .int32, .int64: return true
        default: return false
        }
    }

    /// The bytes a value takes in a record, or `nil` for variable-width types.
    var fixedWidth: Int? {
        switch self {
        case .bool, .int8: return 1
        case .int16: return 2
        case .int32, .float: return 4
        case .int, .int64, .double, .date: return 8
        case .uuid: return 16
        default: return nil
        }
    }
}

/// Whether a property holds one value or a collection of them.
public enum CollectionKind: String, Codable, Sendable, Hashable {
    /// One value.
    case single
    /// An ordered list (`List`).
    case list
    /// A set of distinct values (`MutableSet`).
    case set
    /// String keys to values (`Map`).
    case map
}

/// How a property is indexed.
public enum IndexKind: String, Codable, Sendable, Hashable {
    /// Values may repeat; equality and range queries use the index.
    case regular
    /// Values must be distinct; a duplicate fails the write with ``ObjDBError/uniqueConstraintViolated(type:property:value:)``.
    case unique
    /// The words of a `String` or `String?`, for `TEXT` queries and ranked search (see ``Persisted``'s
    /// `indexed: .fullText`). Its postings are written in the same transaction as the object.
    case fullText
}
