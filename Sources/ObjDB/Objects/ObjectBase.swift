/// What ``Object`` and ``EmbeddedObject`` share: unmanaged values in memory, or a managed
/// object's accessor to its record.
open class ObjectBase {
    /// How the object reads and writes its record once the store manages it; `nil` while unmanaged.
    ///
    /// Unchecked exclusivity: a managed object is confined to its view's thread, and every
    /// access is a load or store that never overlaps another, so the run-time check Swift would
    /// make on each property read (a class property also taken `inout` by recycling) buys nothing.
    @exclusivity(unchecked) @usableFromInline var accessor: ObjectAccessor?
    /// Set on the instances the `where` front-end uses to learn which property a key path reads.
    /// (Unchecked exclusivity, as for `accessor`: recycling reads it once per row.)
    @exclusivity(unchecked) @usableFromInline var tracer: PropertyTracer?

    /// Creates an unmanaged object: its values stay in memory until it is added to a store.
    public required init() {
        PropertyOrdinal.reset()
    }

    /// Whether a store manages the object: its properties read from and write to its record.
    public var isManaged: Bool { accessor != nil }

    /// Whether the object was deleted, or the view it came from has closed.
    ///
    /// Reading a property of an invalidated object stops the program, as Realm
    /// does; check this first where an object may have been deleted. A fault that keeps the
    /// object's record from being read (a full reader table, an I/O error, damage) does not
    /// invalidate it: it goes to ``Configuration/faultHandler``, and the properties read as zero values.
    public var isInvalidated: Bool {
        guard let accessor else { return false }
        return !accessor.isValid
    }
}

/// A class whose instances ObjDB stores: subclass it and mark stored properties with ``Persisted``.
///
/// ```swift
/// final class Tweet: Object {
///     @Persisted(primaryKey: true) var id: Int64
///     @Persisted var text = ""
///     @Persisted(indexed: true) var createdAt = Date()
///     @Persisted var user: TwitterUser?
///     @Persisted var tags: List<Tag>
/// }
/// ```
///
/// A new instance is unmanaged: a plain Swift object. Adding it in a write
/// transaction makes the same instance managed: its properties then read
/// lazily from the store's memory map, and writing them is allowed only inside
/// a write transaction.
///
/// - Warning: A managed object belongs to the view it came from, which is not
///   `Sendable`: pass the primary key across threads and read the object again there.
open class Object: ObjectBase {
    /// Creates an unmanaged object.
    public required init() {
        super.init()
    }

    /// Sets of properties whose values together identify at most one object, as Core Data's
    /// uniqueness constraints do: override to declare them, each a list of property names.
    ///
    /// ```swift
    /// final class Person: Object {
    ///     @Persisted var firstName = ""
    ///     @Persisted var lastName = ""
    ///     override class var uniquenessConstraints: [[String]] { [["firstName", "lastName"]] }
    /// }
    /// ```
    ///
    /// A write that would give two objects the same values for every property of a constraint
    /// throws ``ObjDBError/uniqueConstraintViolated(type:property:value:)`` and is rolled back;
    /// an object with `nil` in one of them is not constrained (as in SQL). Adding an object of a
    /// type without a primary key under ``UpdatePolicy/modified`` or ``UpdatePolicy/all`` updates
    /// the object with the same values instead, and a query that compares every property of a
    /// constraint with `==` looks the object up in the constraint's index. Each property must be a
    /// stored value of an indexable type (not a collection or a link).
    open class var uniquenessConstraints: [[String]] { [] }
}

/// An object owned by the object that holds it: stored inside its owner's record,
/// deleted with it, never on its own.
///
/// ```swift
/// final class Address: EmbeddedObject {
///     @Persisted var street = ""
///     @Persisted var city = ""
/// }
/// final class Brewery: Object {
///     @Persisted(primaryKey: true) var name = ""
///     @Persisted var address: Address?
/// }
/// ```
open class EmbeddedObject: ObjectBase {
    /// Creates an unmanaged embedded object.
    public required init() {
        super.init()
    }
}

extension Object: Persistable {
    public static var _schemaKind: _SchemaKind { _SchemaKind(.object, objectType: self) }
    public static var _defaultValue: Self { Self() }
    public static func _fromStored(_ value: StoredValue, _ context: _ManagedProperty) -> Self? {
        guard case .link(_, let key) = value else { return nil }
        return context.linkedObject(Self.self, key: key)
    }
    public func _toStored(_ context: _StoringContext) throws -> StoredValue {
        try context.link(to: self)
    }
}

extension EmbeddedObject: Persistable {
    public static var _schemaKind: _SchemaKind { _SchemaKind(.embedded, objectType: self) }
    public static var _defaultValue: Self { Self() }
    public static func _read(_ property: _ManagedProperty) -> Self {
        property.embeddedObject(Self.self) ?? Self()
    }
    public static func _fromStored(_ value: StoredValue, _ context: _ManagedProperty) -> Self? {
        guard case .embedded = value else { return nil }
        return context.embeddedObject(Self.self)
    }
    public func _toStored(_ context: _StoringContext) throws -> StoredValue {
        try context.embeddedValue(of: self)
    }
}

/// The object API that needs the concrete class (`Self`): observation and freezing.
/// ``Object`` conforms; there is nothing to implement.
public protocol ObjectObservable: AnyObject {}

extension Object: ObjectObservable {}
