/// String keys to values or objects, stored in the owner's record.
///
/// ```swift
/// final class Beer: Object {
///     @Persisted(primaryKey: true) var name = ""
///     @Persisted var scores: Map<String, Double>
/// }
/// try db.write { _ in beer.scores["untappd"] = 4.1 }
/// ```
public final class Map<Key: _MapKey, Value: Persistable>: Persistable {
    private var storage: Storage

    private enum Storage {
        case unmanaged([Key: Value])
        case managed(_ManagedProperty)
    }

    /// Creates an empty, unmanaged map.
    public init() {
        storage = .unmanaged([:])
    }

    /// Creates an unmanaged map of `entries`.
    public init(_ entries: [Key: Value]) {
        storage = .unmanaged(entries)
    }

    init(managed property: _ManagedProperty) {
        storage = .managed(property)
    }

    /// The entries now, as a dictionary.
    public var dictionary: [Key: Value] {
        switch storage {
        case .unmanaged(let entries):
            return entries
        case .managed(let property):
            return property.cachedElements {
                guard case .map(let values) = property.storedValue() else { return [:] }
                var entries: [Key: Value] = [:]
                for (key, value) in values {
                    if let value = Value._fromStored(value, property) { entries[Key(_mapKey: key)] = value }
                }
                return entries
            }
        }
    }

    /// The number of entries.
    public var count: Int { dictionary.count }
    /// The keys, sorted.
    public var keys: [Key] { dictionary.keys.sorted() }

    /// The value for `key`; assigning `nil` removes the entry.
    public subscript(key: Key) -> Value? {
        get { dictionary[key] }
        set { mutate { $0[key] = newValue } }
    }

    /// Removes every entry.
    public func removeAll() {
        mutate { $0.removeAll() }
    }

    private func mutate(_ body: (inout [Key: Value]) -> Void) {
        switch storage {
        case .unmanaged(var entries):
            body(&entries)
            storage = .unmanaged(entries)
        case .managed(let property):
            var entries = dictionary
            body(&entries)
            property.write { context in try Self.stored(entries, context) }
        }
    }

    private static func stored(_ entries: [Key: Value], _ context: _StoringContext) throws -> StoredValue {
        var values: [String: StoredValue] = [:]
        for (key, value) in entries { values[key._mapKey] = try value._toStored(context) }
        return .map(values)
    }

    public static var _schemaKind: _SchemaKind {
        var kind = Value._schemaKind
        kind.collection = .map
        return kind
    }
    public static var _defaultValue: Map<Key, Value> { Map() }
    public static func _read(_ property: _ManagedProperty) -> Map<Key, Value> { Map(managed: property) }
    public static func _fromStored(_ value: StoredValue, _ context: _ManagedProperty) -> Map<Key, Value>? {
        guard case .map(let values) = value else { return nil }
        var entries: [Key: Value] = [:]
        for (key, value) in values {
            if let value = Value._fromStored(value, context) { entries[Key(_mapKey: key)] = value }
        }
        return Map(entries)
    }
    public func _toStored(_ context: _StoringContext) throws -> StoredValue {
        try Self.stored(dictionary, context)
    }
}

/// The key types a ``Map`` accepts: `String`.
public protocol _MapKey: Hashable, Comparable {
    /// The key as stored.
    var _mapKey: String { get }
    /// The key from its stored form.
    init(_mapKey: String)
}

extension String: _MapKey {
    public var _mapKey: String { self }
    public init(_mapKey: String) { self = _mapKey }
}
