/// One property of one managed object: what a ``Persistable`` type reads and writes through.
public struct _ManagedProperty {
    let accessor: ObjectAccessor
    /// One of `accessor.binding`'s properties. Unowned and unsafe, so reading a property does
    /// not retain and release it: the accessor held above keeps its (immutable) binding, and
    /// the binding its properties, alive; ``init(accessor:property:element:)`` checks it is one.
    unowned(unsafe) let property: BoundProperty
    /// For an element of a list or set: its position.
    var element: Int? = nil

    /// The same property, addressing its element at `position`.
    init(accessor: ObjectAccessor, property: BoundProperty, element: Int? = nil) {
        assert(
            accessor.binding.properties.contains { $0 === property },
            "A managed property must be one of its accessor's binding's properties.")
        self.accessor = accessor
        self.property = property
        self.element = element
    }

    func element(_ position: Int) -> _ManagedProperty {
        _ManagedProperty(accessor: accessor, property: property, element: position)
    }

    /// The property's field in the current record.
    @inline(__always)
    func field() -> RecordField {
        accessor.validReader().field(property.slot)
    }

    /// The property's value, decoded.
    func storedValue() -> StoredValue {
        ValueCodec(schema: accessor.snapshot.catalog.schemaIndex).decodeField(field(), of: property.schema)
    }

    /// The object a link points to, from the same view; `nil` when it no longer exists.
    func linkedObject<T: ObjectBase>(_ type: T.Type, key: ObjectKey) -> T? {
        do {
            return try accessor.snapshot.object(type, key: key)
        } catch {
            accessor.snapshot.catalog.faults.report(error)
            return nil
        }
    }

    /// The embedded object the property holds, or `nil`.
    func embeddedObject<T: ObjectBase>(_ type: T.Type) -> T? {
        guard let name = property.schema.objectType, let binding = accessor.snapshot.catalog.bindings[name] else {
            return nil
        }
        if element == nil, case .bytes = field() {} else if element == nil { return nil }
        PropertyOrdinal.reset()
        let object = binding.swiftType.map { ($0 as! T.Type).init() } ?? type.init()
        object.accessor = ObjectAccessor(
            embeddedIn: EmbeddedLocation(accessor: accessor, property: property, element: element), binding: binding)
        return object
    }

    /// A decoded collection, cached for the current snapshot.
    func cachedElements<Result>(_ build: () -> Result) -> Result {
        accessor.cachedCollection(slot: property.slot, build)
    }

    /// The objects of type `Origin` whose origin property links to this object.
    func linkingObjects<Origin: Object>(_ type: Origin.Type) -> [Origin] {
        do {
            return try accessor.snapshot.linkingObjects(of: accessor, through: property, as: type)
        } catch {
            accessor.snapshot.catalog.faults.report(error)
            return []
        }
    }

    /// Replaces the property's value; the object's snapshot must be writing.
    ///
    /// Property assignments cannot throw: an error here (such as a unique-index
    /// violation) fails the transaction's commit instead.
    func write(_ value: (_StoringContext) throws -> StoredValue) {
        guard let writer = accessor.snapshot.writer else {
            preconditionFailure(
                "A managed \(accessor.binding.schema.name) was modified outside a write transaction; "
                    + "change it inside db.write { … } or view.write { … }.")
        }
        do {
            let storing = _StoringContext(writer: writer, catalog: accessor.snapshot.catalog, policy: .modified)
            try writer.setValue(try value(storing), of: property, in: accessor)
        } catch {
            writer.deferError(error)
        }
    }
}
