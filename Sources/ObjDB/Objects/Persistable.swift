import Foundation

/// A type whose values an ``Object`` can store in a ``Persisted`` property.
///
/// ObjDB conforms `Bool`, the integer types, `Float`, `Double`, `String`,
/// `Data`, `Date`, `UUID`, `Decimal`, optionals of each, links to objects,
/// ``List``, ``MutableSet``, ``Map`` and ``LinkingObjects``. Enums conform by
/// declaring ``PersistableEnum``. Other types cannot conform: the requirements
/// are ObjDB's own.
public protocol Persistable {
    /// How a property of this type is described in the schema.
    static var _schemaKind: _SchemaKind { get }
    /// The value a property of this type starts with when its declaration gives none.
    static var _defaultValue: Self { get }
    /// Reads the value of a managed property.
    static func _read(_ property: _ManagedProperty) -> Self
    /// Converts a stored value; `nil` when it is of another kind.
    static func _fromStored(_ value: StoredValue, _ context: _ManagedProperty) -> Self?
    /// The value as the store holds it; linked unmanaged objects are added through `context`.
    func _toStored(_ context: _StoringContext) throws -> StoredValue
}

extension Persistable {
    /// Reads the field through its stored value: every type's general path.
    public static func _read(_ property: _ManagedProperty) -> Self {
        _fromStored(property.storedValue(), property) ?? _defaultValue
    }
}

/// The schema description of a ``Persistable`` type.
public struct _SchemaKind {
    var type: PropertyType
    var collection: CollectionKind = .single
    var isOptional = false
    var objectType: ObjectBase.Type?

    init(
        _ type: PropertyType, collection: CollectionKind = .single, isOptional: Bool = false,
        objectType: ObjectBase.Type? = nil
    ) {
        self.type = type
        self.collection = collection
        self.isOptional = isOptional
        self.objectType = objectType
    }
}

/// An enum stored by its raw value, a `String` or an integer.
///
/// ```swift
/// enum Language: String, PersistableEnum { case en, fr, ja }
/// final class Tweet: Object {
///     @Persisted var language = Language.en
/// }
/// ```
///
/// A stored raw value that matches no case reads as the first case.
public protocol PersistableEnum: Persistable, RawRepresentable, CaseIterable where RawValue: Persistable {}

extension PersistableEnum {
    public static var _schemaKind: _SchemaKind { RawValue._schemaKind }
    public static var _defaultValue: Self { allCases.first! }
    public static func _fromStored(_ value: StoredValue, _ context: _ManagedProperty) -> Self? {
        RawValue._fromStored(value, context).flatMap(Self.init(rawValue:))
    }
    public func _toStored(_ context: _StoringContext) throws -> StoredValue {
        try rawValue._toStored(context)
    }
}

extension Optional: Persistable where Wrapped: Persistable {
    public static var _schemaKind: _SchemaKind {
        var kind = Wrapped._schemaKind
        kind.isOptional = true
        return kind
    }
    public static var _defaultValue: Self { nil }
    public static func _fromStored(_ value: StoredValue, _ context: _ManagedProperty) -> Self? {
        if value.isNull { return .some(nil) }
        return Wrapped._fromStored(value, context).map { .some($0) }
    }
    public func _toStored(_ context: _StoringContext) throws -> StoredValue {
        switch self {
        case .none: return .null
        case .some(let value): return try value._toStored(context)
        }
    }
}

// MARK: - Primitive conformances

extension Bool: Persistable {
    public static func _read(_ property: _ManagedProperty) -> Bool {
        guard case .bytes(let bytes) = property.field() else { return false }
        return FieldDecoding.bool(bytes) ?? false
    }
    public static var _schemaKind: _SchemaKind { _SchemaKind(.bool) }
    public static var _defaultValue: Bool { false }
    public static func _fromStored(_ value: StoredValue, _ context: _ManagedProperty) -> Bool? {
        if case .bool(let flag) = value { return flag }
        return nil
    }
    public func _toStored(_ context: _StoringContext) throws -> StoredValue { .bool(self) }
}

/// The integer types, which share their stored form.
public protocol _PersistableInteger: Persistable, FixedWidthInteger {
    /// The property type of this width.
    static var _propertyType: PropertyType { get }
}

extension _PersistableInteger {
    public static func _read(_ property: _ManagedProperty) -> Self {
        // The hot path: the integer straight from the record.
        guard case .bytes(let bytes) = property.field(), let value = FieldDecoding.integer(bytes) else { return 0 }
        return Self(truncatingIfNeeded: value)
    }
    public static var _schemaKind: _SchemaKind { _SchemaKind(_propertyType) }
    public static var _defaultValue: Self { 0 }
    public static func _fromStored(_ value: StoredValue, _ context: _ManagedProperty) -> Self? {
        if case .int(let number) = value { return Self(truncatingIfNeeded: number) }
        return nil
    }
    public func _toStored(_ context: _StoringContext) throws -> StoredValue { .int(Int64(self)) }
}

extension Int: _PersistableInteger { public static var _propertyType: PropertyType { .int } }
extension Int8: _PersistableInteger { public static var _propertyType: PropertyType { .int8 } }
extension Int16: _PersistableInteger { public static var _propertyType: PropertyType { .int16 } }
extension Int32: _PersistableInteger { public static var _propertyType: PropertyType { .int32 } }
extension Int64: _PersistableInteger { public static var _propertyType: PropertyType { .int64 } }

extension Float: Persistable {
    public static var _schemaKind: _SchemaKind { _SchemaKind(.float) }
    public static var _defaultValue: Float { 0 }
    public static func _fromStored(_ value: StoredValue, _ context: _ManagedProperty) -> Float? {
        if case .float(let number) = value { return number }
        return nil
    }
    public func _toStored(_ context: _StoringContext) throws -> StoredValue { .float(self) }
}

extension Double: Persistable {
    public static func _read(_ property: _ManagedProperty) -> Double {
        guard case .bytes(let bytes) = property.field() else { return 0 }
        return FieldDecoding.double(bytes) ?? 0
    }
    public static var _schemaKind: _SchemaKind { _SchemaKind(.double) }
    public static var _defaultValue: Double { 0 }
    public static func _fromStored(_ value: StoredValue, _ context: _ManagedProperty) -> Double? {
        if case .double(let number) = value { return number }
        return nil
    }
    public func _toStored(_ context: _StoringContext) throws -> StoredValue { .double(self) }
}

extension String: Persistable {
    public static var _schemaKind: _SchemaKind { _SchemaKind(.string) }
    public static var _defaultValue: String { "" }
    public static func _read(_ property: _ManagedProperty) -> String {
        // The hot path: one String straight from the mapped bytes.
        guard case .bytes(let bytes) = property.field() else { return "" }
        return String(decoding: bytes, as: UTF8.self)
    }
    public static func _fromStored(_ value: StoredValue, _ context: _ManagedProperty) -> String? {
        if case .string(let text) = value { return text }
        return nil
    }
    public func _toStored(_ context: _StoringContext) throws -> StoredValue { .string(self) }
}

extension Data: Persistable {
    public static var _schemaKind: _SchemaKind { _SchemaKind(.data) }
    public static var _defaultValue: Data { Data() }
    public static func _fromStored(_ value: StoredValue, _ context: _ManagedProperty) -> Data? {
        if case .data(let data) = value { return data }
        return nil
    }
    public func _toStored(_ context: _StoringContext) throws -> StoredValue { .data(self) }
}

extension Date: Persistable {
    public static func _read(_ property: _ManagedProperty) -> Date {
        guard case .bytes(let bytes) = property.field() else { return _defaultValue }
        return FieldDecoding.date(bytes) ?? _defaultValue
    }
    public static var _schemaKind: _SchemaKind { _SchemaKind(.date) }
    public static var _defaultValue: Date { Date(timeIntervalSinceReferenceDate: 0) }
    public static func _fromStored(_ value: StoredValue, _ context: _ManagedProperty) -> Date? {
        if case .date(let date) = value { return date }
        return nil
    }
    public func _toStored(_ context: _StoringContext) throws -> StoredValue { .date(self) }
}

extension UUID: Persistable {
    public static var _schemaKind: _SchemaKind { _SchemaKind(.uuid) }
    public static var _defaultValue: UUID { UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)) }
    public static func _fromStored(_ value: StoredValue, _ context: _ManagedProperty) -> UUID? {
        if case .uuid(let uuid) = value { return uuid }
        return nil
    }
    public func _toStored(_ context: _StoringContext) throws -> StoredValue { .uuid(self) }
}

extension Decimal: Persistable {
    public static var _schemaKind: _SchemaKind { _SchemaKind(.decimal) }
    public static var _defaultValue: Decimal { 0 }
    public static func _fromStored(_ value: StoredValue, _ context: _ManagedProperty) -> Decimal? {
        if case .decimal(let decimal) = value { return decimal }
        return nil
    }
    public func _toStored(_ context: _StoringContext) throws -> StoredValue { .decimal(self) }
}
