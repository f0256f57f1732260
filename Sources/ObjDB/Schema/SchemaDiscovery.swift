import Synchronization

/// What reflection found in one model class, discovered once per class and cached.
final class DiscoveredType: Sendable {
    /// The class.
    let swiftType: ObjectBase.Type
    /// The declared schema; property IDs are assigned when a database binds it.
    let schema: ObjectSchema
    /// For each property ordinal, its index in `schema.properties`.
    let propertyIndexByOrdinal: [Int]
    /// For each property ordinal, where its `Persisted` lives in an instance; `nil` when the
    /// layout could not be verified, and `Mirror` is used instead.
    let layout: [(offset: Int, type: any PersistedLayout.Type)]?
    /// The classes its properties link to, embed or are linked from, in declaration order.
    let referencedTypes: [ObjectBase.Type]
    /// Whether a managed instance nobody holds may be pointed at another object of the class
    /// instead of making a new one: a top-level class whose every stored property is a
    /// `@Persisted` one, so an instance holds nothing of its own that would carry over.
    let isRecyclable: Bool

    private init(
        swiftType: ObjectBase.Type, schema: ObjectSchema, propertyIndexByOrdinal: [Int],
        layout: [(offset: Int, type: any PersistedLayout.Type)]?, referencedTypes: [ObjectBase.Type],
        isRecyclable: Bool
    ) {
        self.swiftType = swiftType
        self.schema = schema
        self.propertyIndexByOrdinal = propertyIndexByOrdinal
        self.layout = layout
        self.referencedTypes = referencedTypes
        self.isRecyclable = isRecyclable
    }

    /// `types` and every class they reach through links, embedded objects and linking
    /// objects, each discovered once: as in Realm, a model lists the classes it opens and
    /// the ones they use come along.
    static func reachable(from types: [ObjectBase.Type]) throws -> [DiscoveredType] {
        var found: [DiscoveredType] = []
        var seen = Set<ObjectIdentifier>()
        var pending = types[...]
        while let type = pending.popFirst() {
            guard seen.insert(ObjectIdentifier(type)).inserted else { continue }
            let discovered = try of(type)
            found.append(discovered)
            pending.append(contentsOf: discovered.referencedTypes)
        }
        return found
    }

    /// The object key an unmanaged object's primary key gives, or `nil` for a class without one
    /// (or one that cannot be stored: hashing an unmanaged object is no misuse, and opening a
    /// database with such a class throws ``ObjDBError/invalidSchema(type:reason:)`` with the reason).
    static func primaryKey(of object: ObjectBase) -> ObjectKey? {
        guard let discovered = try? of(type(of: object)), let property = discovered.schema.primaryKey,
            let ordinal = discovered.propertyIndexByOrdinal.firstIndex(where: {
                discovered.schema.properties[$0].name == property.name
            }),
            let value = try? discovered.storedValue(of: object, ordinal: ordinal, .readingScalars)
        else { return nil }
        return ObjectKeyCodec.key(fromPrimaryKey: value, type: property.type)
    }

    /// The stored value of one property of an unmanaged object.
    func storedValue(of object: ObjectBase, ordinal: Int, _ context: _StoringContext) throws -> StoredValue {
        guard let layout else { return try persistedProperties(of: object)[ordinal].storedValue(context) }
        let base = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
        return try withExtendedLifetime(object) {
            try layout[ordinal].type.storedValue(at: base + layout[ordinal].offset, context)
        }
    }

    /// The stored values of an unmanaged object's properties, in ordinal order.
    func storedValues(of object: ObjectBase, _ context: _StoringContext) throws -> [StoredValue] {
        guard let layout else {
            return try persistedProperties(of: object).map { try $0.storedValue(context) }
        }
        let base = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
        return try withExtendedLifetime(object) {
            try layout.map { try $0.type.storedValue(at: base + $0.offset, context) }
        }
    }

    /// Stores each property's value of an unmanaged object at its position in `values`:
    /// `positions` gives the position of each ordinal.
    func storeValues(
        of object: ObjectBase, into values: inout [StoredValue], positions: [Int], _ context: _StoringContext
    ) throws {
        guard let layout else {
            for (ordinal, property) in persistedProperties(of: object).enumerated() {
                values[positions[ordinal]] = try property.storedValue(context)
            }
            return
        }
        let base = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
        try withExtendedLifetime(object) {
            for ordinal in layout.indices {
                let (offset, type) = layout[ordinal]
                values[positions[ordinal]] = try type.storedValue(at: base + offset, context)
            }
        }
    }

    private static let cache = Lock<[ObjectIdentifier: DiscoveredType]>([:])

    /// The schema of `type`, discovered on first use.
    ///
    /// - Throws: ``ObjDBError/invalidSchema(type:reason:)`` when the class cannot be stored as declared.
    static func of(_ type: ObjectBase.Type) throws -> DiscoveredType {
        if let known = cache.withLock({ $0[ObjectIdentifier(type)] }) { return known }
        let discovered = try discover(type)
        return cache.withLock { cache in
            if let known = cache[ObjectIdentifier(type)] { return known }
            cache[ObjectIdentifier(type)] = discovered
            return discovered
        }
    }

    /// The name a class is stored under: its unqualified name.
    static func name(of type: ObjectBase.Type) -> String {
        String(describing: type)
    }

    /// The persisted properties of `object`, in ordinal order.
    func persistedProperties(of object: ObjectBase) -> [any DiscoverableProperty] {
        var found: [any DiscoverableProperty] = []
        found.reserveCapacity(propertyIndexByOrdinal.count)
        var mirror: Mirror? = Mirror(reflecting: object)
        var levels: [Mirror] = []
        while let current = mirror {
            levels.append(current)
            mirror = current.superclassMirror
        }
        for level in levels.reversed() {
            for child in level.children {
                if let property = child.value as? any DiscoverableProperty { found.append(property) }
            }
        }
        return found.sorted { $0.ordinal < $1.ordinal }
    }

    private static func discover(_ type: ObjectBase.Type) throws -> DiscoveredType {
        let name = self.name(of: type)
        PropertyOrdinal.reset()
        let prototype = type.init()
        var levels: [Mirror] = []
        var mirror: Mirror? = Mirror(reflecting: prototype)
        while let current = mirror {
            levels.append(current)
            mirror = current.superclassMirror
        }
        var properties: [PropertySchema] = []
        var ordinals: [Int] = []
        var referenced: [ObjectBase.Type] = []
        for level in levels.reversed() {
            for child in level.children {
                guard let property = child.value as? any DiscoverableProperty, let label = child.label else { continue }
                let propertyName = label.hasPrefix("_") ? String(label.dropFirst()) : label
                properties.append(try describe(property, named: propertyName, in: name))
                ordinals.append(property.ordinal)
                if let objectType = property.schemaKind.objectType { referenced.append(objectType) }
            }
        }
        guard Set(ordinals) == Set(0..<ordinals.count) else {
            throw ObjDBError.invalidSchema(
                type: name,
                reason:
                    "its properties were created out of order; a property's initial value must not create an ObjDB object"
            )
        }
        var indexByOrdinal = Array(repeating: 0, count: ordinals.count)
        for (index, ordinal) in ordinals.enumerated() { indexByOrdinal[ordinal] = index }
        let schema = ObjectSchema(name: name, properties: properties, isEmbedded: prototype is EmbeddedObject)
        try validate(schema)
        let holdsOnlyPersisted = levels.allSatisfy { level in
            level.subjectType == ObjectBase.self || level.children.allSatisfy { $0.value is any DiscoverableProperty }
        }
        return DiscoveredType(
            swiftType: type, schema: schema, propertyIndexByOrdinal: indexByOrdinal,
            layout: verifiedLayout(of: prototype, levels: levels, count: ordinals.count), referencedTypes: referenced,
            isRecyclable: holdsOnlyPersisted && !schema.isEmbedded)
    }

    /// Where each `Persisted` of `prototype` lives, computed from Swift's class layout (stored
    /// properties in declaration order after the superclass's, each at its alignment) and
    /// checked against what `Mirror` read: every ordinal must be found where computed.
    private static func verifiedLayout(
        of prototype: ObjectBase, levels: [Mirror], count: Int
    ) -> [(offset: Int, type: any PersistedLayout.Type)]? {
        // The heap object header (metadata, reference counts) and ObjectBase's two references.
        var offset = 16 + MemoryLayout<ObjectAccessor?>.size + MemoryLayout<PropertyTracer?>.size
        var found: [(ordinal: Int, offset: Int, type: any PersistedLayout.Type)] = []
        for level in levels.reversed() where level.subjectType != ObjectBase.self {
            for child in level.children {
                let (size, alignment) = memoryLayout(of: Swift.type(of: child.value))
                offset = (offset + alignment - 1) / alignment * alignment
                if let property = child.value as? any DiscoverableProperty,
                    let layoutType = Swift.type(of: child.value) as? any PersistedLayout.Type
                {
                    found.append((property.ordinal, offset, layoutType))
                }
                offset += size
            }
        }
        guard found.count == count else { return nil }
        let base = UnsafeRawPointer(Unmanaged.passUnretained(prototype).toOpaque())
        let verified = withExtendedLifetime(prototype) {
            found.allSatisfy { $0.type.ordinal(at: base + $0.offset) == $0.ordinal && $0.type.isValueOffsetVerified }
        }
        guard verified else { return nil }
        return found.sorted { $0.ordinal < $1.ordinal }.map { ($0.offset, $0.type) }
    }

    private static func memoryLayout(of type: Any.Type) -> (size: Int, alignment: Int) {
        func measure<T>(_: T.Type) -> (size: Int, alignment: Int) {
            (MemoryLayout<T>.size, MemoryLayout<T>.alignment)
        }
        return _openExistential(type, do: measure)
    }

    private static func describe(
        _ property: any DiscoverableProperty, named name: String, in type: String
    ) throws -> PropertySchema {
        let kind = property.schemaKind
        let declaration = property.declaration
        return PropertySchema(
            name: name, type: kind.type, collection: kind.collection, isOptional: kind.isOptional,
            isPrimaryKey: declaration.isPrimaryKey, index: declaration.index,
            objectType: kind.objectType.map { self.name(of: $0) }, originProperty: property.originProperty)
    }

    /// Checks the rules one class must follow on its own; rules across classes are checked by ``Schema/validate()``.
    static func validate(_ schema: ObjectSchema) throws {
        func invalid(_ reason: String) -> ObjDBError { .invalidSchema(type: schema.name, reason: reason) }
        let primaryKeys = schema.properties.filter(\.isPrimaryKey)
        if primaryKeys.count > 1 {
            throw invalid(
                "it declares \(primaryKeys.count) primary keys (\(primaryKeys.map(\.name).joined(separator: ", ")))")
        }
        if schema.isEmbedded, let key = primaryKeys.first {
            throw invalid("embedded objects have no primary key, but \(key.name) is one")
        }
        if schema.name.utf8.count > 200 {
            throw invalid("its name is longer than 200 bytes, which keys that name the type cannot hold")
        }
        var names = Set<String>()
        for property in schema.properties {
            if !names.insert(property.name).inserted { throw invalid("two properties are named \(property.name)") }
            let label = "\(property.name) (\(property.typeDescription))"
            if property.isPrimaryKey {
                guard property.type.canBePrimaryKey, property.collection == .single, !property.isOptional else {
                    throw invalid("\(label) cannot be a primary key: use a non-optional Int64, Int, String or UUID")
                }
            }
            if property.index == .fullText {
                guard property.type == .string, property.collection == .single, !property.isPrimaryKey else {
                    throw invalid("\(label) cannot have a full-text index: declare it on a String or String?")
                }
            } else if let index = property.index, !property.isPrimaryKey {
                guard property.type.canBeIndexed, property.collection == .single else {
                    throw invalid("\(label) cannot have a\(index == .unique ? " unique" : "n") index")
                }
            }
            switch property.type {
            case .object where property.collection == .single && !property.isOptional:
                throw invalid("the link \(label) must be optional: declare it as \(property.objectType ?? "")?")
            case .object where (property.collection == .list || property.collection == .set) && property.isOptional:
                throw invalid("\(label) cannot hold nil links")
            case .embedded where property.collection == .single && !property.isOptional:
                throw invalid("the embedded object \(label) must be optional")
            case .embedded where property.collection == .map || property.collection == .set:
                throw invalid("\(label): embedded objects can be held alone or in a List")
            case .linkingObjects where property.originProperty == nil:
                throw invalid("\(property.name) needs @Persisted(originProperty:)")
            default:
                break
            }
        }
    }
}
