/// An ordered list of values or objects, stored in its owner's record.
///
/// ```swift
/// final class Beer: Object {
///     @Persisted(primaryKey: true) var name = ""
///     @Persisted var breweries: List<Brewery>
///     @Persisted var ratings: List<Int>
/// }
/// try db.write { _ in beer.breweries.append(brewery) }
/// ```
///
/// A managed list reads lazily from the store and writes through to it; like
/// every managed property it can only change inside a write transaction.
/// Deleting a linked object removes it from every list that holds it.
public final class List<Element: Persistable>: RandomAccessCollection, Persistable {
    private var storage: CollectionStorage<Element>

    /// Creates an empty, unmanaged list.
    public init() {
        storage = .unmanaged([])
    }

    /// Creates an unmanaged list of `elements`.
    public init<Elements: Sequence>(_ elements: Elements) where Elements.Element == Element {
        storage = .unmanaged(Array(elements))
    }

    init(managed property: _ManagedProperty) {
        storage = .managed(property)
    }

    /// The position of the first element.
    public var startIndex: Int { 0 }
    /// The position after the last element.
    public var endIndex: Int { storage.elements.count }

    /// The element at `position`.
    public subscript(position: Int) -> Element {
        get { storage.elements[position] }
        set { storage.mutate { $0[position] = newValue } }
    }

    /// Adds `element` at the end.
    public func append(_ element: Element) {
        storage.mutate { $0.append(element) }
    }

    /// Adds `elements` at the end, in order.
    public func append<Elements: Sequence>(contentsOf elements: Elements) where Elements.Element == Element {
        storage.mutate { $0.append(contentsOf: elements) }
    }

    /// Inserts `element` at `index`.
    public func insert(_ element: Element, at index: Int) {
        storage.mutate { $0.insert(element, at: index) }
    }

    /// Removes and returns the element at `index`.
    @discardableResult
    public func remove(at index: Int) -> Element {
        let element = self[index]
        storage.mutate { $0.remove(at: index) }
        return element
    }

    /// Removes the first element.
    public func removeFirst() {
        storage.mutate { $0.removeFirst() }
    }

    /// Removes the last element.
    public func removeLast() {
        storage.mutate { $0.removeLast() }
    }

    /// Removes every element.
    public func removeAll() {
        storage.mutate { $0.removeAll() }
    }

    /// Moves the element at `source` to `destination`.
    public func move(from source: Int, to destination: Int) {
        storage.mutate { $0.insert($0.remove(at: source), at: destination) }
    }

    /// Exchanges the elements at `i` and `j`.
    public func swapAt(_ i: Int, _ j: Int) {
        storage.mutate { $0.swapAt(i, j) }
    }

    public static var _schemaKind: _SchemaKind {
        var kind = Element._schemaKind
        kind.collection = .list
        return kind
    }
    public static var _defaultValue: List<Element> { List() }
    public static func _read(_ property: _ManagedProperty) -> List<Element> { List(managed: property) }
    public static func _fromStored(_ value: StoredValue, _ context: _ManagedProperty) -> List<Element>? {
        guard case .list(let values) = value else { return nil }
        return List(values.compactMap { Element._fromStored($0, context) })
    }
    public func _toStored(_ context: _StoringContext) throws -> StoredValue {
        .list(try storage.elements.map { try $0._toStored(context) })
    }
}

extension List: CustomStringConvertible {
    /// The elements, as an array prints them.
    public var description: String { "List\(Array(self))" }
}

/// Where a collection's elements live: in memory, or in the owner's record.
enum CollectionStorage<Element: Persistable> {
    case unmanaged([Element])
    case managed(_ManagedProperty)

    /// The elements now, decoded from the record once per snapshot when managed.
    var elements: [Element] {
        switch self {
        case .unmanaged(let elements):
            return elements
        case .managed(let property):
            return property.cachedElements {
                guard case .list(let values) = property.storedValue() else { return [] }
                return values.enumerated().compactMap { Element._fromStored($1, property.element($0)) }
            }
        }
    }

    /// Changes the elements: in memory, or by rewriting the owner's record (write transactions only).
    mutating func mutate(_ body: (inout [Element]) -> Void) {
        switch self {
        case .unmanaged(var elements):
            body(&elements)
            self = .unmanaged(elements)
        case .managed(let property):
            var elements = self.elements
            body(&elements)
            property.write { context in .list(try elements.map { try $0._toStored(context) }) }
        }
    }
}
