import Synchronization

/// Learns which persisted property a key path reads, by reading it on a traced instance.
@usableFromInline
final class PropertyTracer {
    private(set) var ordinals: [Int] = []

    @usableFromInline
    func record(_ ordinal: Int) {
        ordinals.append(ordinal)
    }

    /// A key path as a cache key: key paths never change once made.
    private struct CacheKey: Hashable, @unchecked Sendable {
        let keyPath: AnyKeyPath
    }

    private static let cache = Lock<[CacheKey: String]>([:])

    /// The name of the persisted property `keyPath` reads on `Root`.
    ///
    /// - Precondition: `keyPath` reads exactly one `@Persisted` property.
    static func propertyName<Root: ObjectBase, Value>(_ keyPath: KeyPath<Root, Value>) -> String {
        if let known = cache.withLock({ $0[CacheKey(keyPath: keyPath)] }) { return known }
        let discovered: DiscoveredType
        do {
            discovered = try DiscoveredType.of(Root.self)
        } catch {
            preconditionFailure("\(Root.self) cannot be stored, so it cannot be queried: \(error)")
        }
        PropertyOrdinal.reset()
        let instance = Root()
        let tracer = PropertyTracer()
        instance.tracer = tracer
        _ = instance[keyPath: keyPath]
        guard let ordinal = tracer.ordinals.first, tracer.ordinals.count == 1,
            ordinal < discovered.propertyIndexByOrdinal.count
        else {
            preconditionFailure("\(keyPath) does not read exactly one @Persisted property of \(Root.self).")
        }
        let name = discovered.schema.properties[discovered.propertyIndexByOrdinal[ordinal]].name
        cache.withLock { $0[CacheKey(keyPath: keyPath)] = name }
        return name
    }

    /// The property an untyped key path reads on `type`.
    ///
    /// - Throws: ``ObjDBError/invalidSchema(type:reason:)`` when `type` cannot be stored,
    ///   ``ObjDBError/invalidQuery(type:reason:)`` when `keyPath` is not one stored property.
    static func propertyName(_ keyPath: AnyKeyPath, on type: ObjectBase.Type) throws -> String {
        let discovered = try DiscoveredType.of(type)
        PropertyOrdinal.reset()
        let instance = type.init()
        let tracer = PropertyTracer()
        instance.tracer = tracer
        _ = instance[keyPath: keyPath]
        guard tracer.ordinals.count == 1, let ordinal = tracer.ordinals.first,
            ordinal < discovered.propertyIndexByOrdinal.count
        else {
            throw ObjDBError.invalidQuery(
                type: discovered.schema.name, reason: "#Predicate: \(keyPath) is not one stored property")
        }
        return discovered.schema.properties[discovered.propertyIndexByOrdinal[ordinal]].name
    }
}
