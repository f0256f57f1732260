/// The objects of type `Origin` that link to this object: the inverse of a link, computed from the
/// store's backlinks, never stored.
///
/// ```swift
/// final class BeerStyle: Object {
///     @Persisted(primaryKey: true) var name = ""
///     @Persisted(originProperty: "style") var beers: LinkingObjects<Beer>
/// }
/// ```
///
/// The origin property may be a to-one link, a ``List``, a ``MutableSet`` or a
/// ``Map`` of `Origin`'s. An unmanaged object has no linking objects.
public final class LinkingObjects<Origin: Object>: RandomAccessCollection, Persistable {
    private let property: _ManagedProperty?
    /// For the value an unmanaged object's declaration made: the origin property it names.
    let declaredOriginProperty: String?
    /// The linking objects now, looked up once per snapshot.
    private var origins: [Origin] {
        guard let property else { return [] }
        return property.cachedElements { property.linkingObjects(Origin.self) }
    }

    /// Creates the empty linking objects of an unmanaged object.
    public init() {
        property = nil
        declaredOriginProperty = nil
    }

    /// The value of a `@Persisted(originProperty:)` declaration, which schema discovery reads.
    init(declaringOrigin originProperty: String) {
        property = nil
        declaredOriginProperty = originProperty
    }

    init(managed property: _ManagedProperty) {
        self.property = property
        declaredOriginProperty = nil
    }

    /// The position of the first object.
    public var startIndex: Int { 0 }
    /// The position after the last object.
    public var endIndex: Int { origins.count }
    /// The object at `position`, in the order of their keys.
    public subscript(position: Int) -> Origin { origins[position] }

    public static var _schemaKind: _SchemaKind { _SchemaKind(.linkingObjects, objectType: Origin.self) }
    public static var _defaultValue: LinkingObjects<Origin> { LinkingObjects() }
    public static func _read(_ property: _ManagedProperty) -> LinkingObjects<Origin> {
        LinkingObjects(managed: property)
    }
    public static func _fromStored(_ value: StoredValue, _ context: _ManagedProperty) -> LinkingObjects<Origin>? {
        nil
    }
    public func _toStored(_ context: _StoringContext) throws -> StoredValue { .null }
}

/// Linking objects as declared, of any origin type: what discovery reads their origin property through.
protocol DeclaredLinkingObjects {
    var declaredOriginProperty: String? { get }
}

extension LinkingObjects: DeclaredLinkingObjects {}
