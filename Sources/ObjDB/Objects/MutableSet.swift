/// An unordered collection of distinct values or objects, stored in its owner's record.
///
/// ```swift
/// final class Photo: Object {
///     @Persisted(primaryKey: true) var id = ""
///     @Persisted var tags: MutableSet<Tag>
/// }
/// ```
///
/// Elements keep the order they were first inserted in. Inserting an element
/// the set holds already changes nothing.
public final class MutableSet<Element: Persistable & Hashable>: RandomAccessCollection, Persistable {
    private var storage: CollectionStorage<Element>

    /// Creates an empty, unmanaged set.
    public init() {
        storage = .unmanaged([])
    }

    /// Creates an unmanaged set of the distinct `elements`.
    public init<Elements: Sequence>(_ elements: Elements) where Elements.Element == Element {
        var seen = Set<Element>()
        storage = .unmanaged(elements.filter { seen.insert($0).inserted })
    }

    init(managed property: _ManagedProperty) {
        storage = .managed(property)
    }

    /// The position of the first element.
    public var startIndex: Int { 0 }
    /// The position after the last element.
    public var endIndex: Int { storage.elements.count }
    /// The element at `position`, in insertion order.
    public subscript(position: Int) -> Element { storage.elements[position] }

    /// Whether the set holds `element`.
    public func contains(_ element: Element) -> Bool {
        storage.elements.contains(element)
    }

    /// Adds `element` unless the set holds it already.
    public func insert(_ element: Element) {
        storage.mutate { elements in
            if !elements.contains(element) { elements.append(element) }
        }
    }

    /// Adds each of `elements` the set does not hold yet.
    public func insert<Elements: Sequence>(contentsOf elements: Elements) where Elements.Element == Element {
        storage.mutate { current in
            for element in elements where !current.contains(element) { current.append(element) }
        }
    }

    /// Removes `element`, if the set holds it.
    public func remove(_ element: Element) {
        storage.mutate { $0.removeAll { $0 == element } }
    }

    /// Removes every element.
    public func removeAll() {
        storage.mutate { $0.removeAll() }
    }

    public static var _schemaKind: _SchemaKind {
        var kind = Element._schemaKind
        kind.collection = .set
        return kind
    }
    public static var _defaultValue: MutableSet<Element> { MutableSet() }
    public static func _read(_ property: _ManagedProperty) -> MutableSet<Element> { MutableSet(managed: property) }
    public static func _fromStored(_ value: StoredValue, _ context: _ManagedProperty) -> MutableSet<Element>? {
        guard case .list(let values) = value else { return nil }
        return MutableSet(values.compactMap { Element._fromStored($0, context) })
    }
    public func _toStored(_ context: _StoringContext) throws -> StoredValue {
        .list(try storage.elements.map { try $0._toStored(context) })
    }
}

extension Object: Hashable {
    /// Two objects are equal when they are the same instance, or the same stored object.
    public static func == (lhs: Object, rhs: Object) -> Bool {
        if lhs === rhs { return true }
        guard let left = lhs.accessor, let right = rhs.accessor else { return false }
        return left.isSameObject(as: right)
    }

    /// Hashes the object's class and primary key, which adding it does not change, so an
    /// object in a `Set` or a `Dictionary` stays findable after it is added to a store.
    ///
    /// Objects of a class without a primary key hash by class alone.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(type(of: self)))
        if let accessor {
            if accessor.binding.primaryKey != nil { hasher.combine(accessor.objectKey) }
        } else if let key = DiscoveredType.primaryKey(of: self) {
            hasher.combine(key)
        }
    }
}
