/// Marks a property of an ``Object`` or ``EmbeddedObject`` as stored.
///
/// ```swift
/// final class TwitterUser: Object {
///     @Persisted(primaryKey: true) var id: Int64
///     @Persisted var name = ""
///     @Persisted(indexed: true) var screenName = ""
///     @Persisted(unique: true) var email: String?
///     @Persisted(originProperty: "user") var tweets: LinkingObjects<Tweet>
/// }
/// ```
///
/// A property without an initial value starts at its type's default: zero,
/// `false`, empty, or `nil`. Links to objects must be optional.
@propertyWrapper
public struct Persisted<Value: Persistable> {
    /// The property's place among its object's persisted properties.
    @usableFromInline let ordinal: Int
    /// The value while the object is unmanaged.
    @usableFromInline var unmanagedValue: Value
    /// What the declaration asked for.
    @usableFromInline var declaration: PersistedDeclaration

    /// Declares a stored property with an initial value.
    ///
    /// - Parameters:
    ///   - wrappedValue: the value of a new, unmanaged object. A stored object that lacks the
    ///     property (it was added later) reads its type's zero value instead.
    ///   - primaryKey: the property identifies the object: an `Int64` (or other integer), `String` or `UUID`.
    ///   - indexed: keep an index, so queries on the property need not scan.
    ///   - unique: keep an index that refuses a value another object already has.
    @inlinable
    public init(wrappedValue: Value, primaryKey: Bool = false, indexed: Bool = false, unique: Bool = false) {
        ordinal = PropertyOrdinal.next()
        unmanagedValue = wrappedValue
        declaration = PersistedDeclaration(isPrimaryKey: primaryKey, index: unique ? .unique : indexed ? .regular : nil)
    }

    /// Declares a stored property that starts at its type's default value.
    @inlinable
    public init(primaryKey: Bool = false, indexed: Bool = false, unique: Bool = false) {
        self.init(wrappedValue: Value._defaultValue, primaryKey: primaryKey, indexed: indexed, unique: unique)
    }

    /// Declares the inverse of a link: the objects whose `originProperty` links to this one.
    public init<Origin: Object>(originProperty: String) where Value == LinkingObjects<Origin> {
        ordinal = PropertyOrdinal.next()
        // Kept in the value, not in every Persisted: the declaration stays small and trivial to copy.
        unmanagedValue = LinkingObjects<Origin>(declaringOrigin: originProperty)
        declaration = PersistedDeclaration(isPrimaryKey: false, index: nil)
    }

    /// Unavailable: `@Persisted` works only on ``Object`` and ``EmbeddedObject`` subclasses.
    @available(*, unavailable, message: "@Persisted can only be used on Object and EmbeddedObject subclasses")
    public var wrappedValue: Value {
        get { fatalError("@Persisted used outside an ObjDB object") }
        // swift-format-ignore
        set { fatalError("@Persisted used outside an ObjDB object") }
    }

    /// Reads and writes the property through its object: in memory while unmanaged, in the store once managed.
    @inlinable
    public static subscript<EnclosingSelf: ObjectBase>(
        _enclosingInstance object: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Persisted<Value>>
    ) -> Value {
        // Inlined into each property's accessor, where the key paths are literals the
        // optimizer turns into a direct field access (not the key-path runtime, per call).
        @inline(__always) get {
            guard let accessor = object.accessor else {
                object.tracer?.record(object[keyPath: storageKeyPath].ordinal)
                return object[keyPath: storageKeyPath].unmanagedValue
            }
            let ordinal = object[keyPath: storageKeyPath].ordinal
            return Value._read((consume accessor).property(ordinal: ordinal))
        }
        @inline(__always) set {
            guard let accessor = object.accessor else {
                object[keyPath: storageKeyPath].unmanagedValue = newValue
                return
            }
            accessor.set(newValue, ordinal: object[keyPath: storageKeyPath].ordinal)
        }
    }
}

/// The options a ``Persisted`` declaration gave, read once when the schema is discovered.
/// Nothing reference-counted: every model object holds one per property.
@usableFromInline
struct PersistedDeclaration {
    @usableFromInline var isPrimaryKey: Bool
    @usableFromInline var index: IndexKind?

    @usableFromInline
    init(isPrimaryKey: Bool, index: IndexKind?) {
        self.isPrimaryKey = isPrimaryKey
        self.index = index
    }
}

/// Lets schema discovery read a `Persisted` of any value type through `Mirror`.
protocol DiscoverableProperty {
    var ordinal: Int { get }
    var declaration: PersistedDeclaration { get }
    var schemaKind: _SchemaKind { get }
    /// For linking objects, the origin property the declaration names.
    var originProperty: String? { get }
    /// The current value, for copying an unmanaged object into the store.
    func storedValue(_ context: _StoringContext) throws -> StoredValue
}

extension Persisted: DiscoverableProperty {
    var schemaKind: _SchemaKind { Value._schemaKind }
    var originProperty: String? { (unmanagedValue as? any DeclaredLinkingObjects)?.declaredOriginProperty }
    func storedValue(_ context: _StoringContext) throws -> StoredValue {
        try unmanagedValue._toStored(context)
    }
}

/// Reads a `Persisted` straight from an object's memory, once discovery has found and
/// verified where it lives: the fast path of adding objects, without `Mirror`.
protocol PersistedLayout: SendableMetatype {
    static var size: Int { get }
    static var alignment: Int { get }
    static func ordinal(at pointer: UnsafeRawPointer) -> Int
    /// Whether ``storedValue(at:_:)`` finds the value where Swift laid it out (checked once per class).
    static var isValueOffsetVerified: Bool { get }
    static func storedValue(at pointer: UnsafeRawPointer, _ context: _StoringContext) throws -> StoredValue
}

extension Persisted: PersistedLayout {
    static var size: Int { MemoryLayout<Self>.size }
    static var alignment: Int { MemoryLayout<Self>.alignment }
    static func ordinal(at pointer: UnsafeRawPointer) -> Int {
        pointer.assumingMemoryBound(to: Self.self).pointee.ordinal
    }
    /// Where `unmanagedValue` lives: after `ordinal`, at the value's alignment. Worked out from
    /// `Value` alone, since `Persisted<Value>`'s own metadata is a hash-table lookup per call.
    @inline(__always)
    static var valueOffset: Int {
        let alignment = MemoryLayout<Value>.alignment
        return (MemoryLayout<Int>.size + alignment - 1) / alignment * alignment
    }

    static var isValueOffsetVerified: Bool {
        MemoryLayout<Self>.offset(of: \Self.unmanagedValue) == valueOffset
    }

    static func storedValue(at pointer: UnsafeRawPointer, _ context: _StoringContext) throws -> StoredValue {
        try (pointer + valueOffset).assumingMemoryBound(to: Value.self).pointee._toStored(context)
    }
}
