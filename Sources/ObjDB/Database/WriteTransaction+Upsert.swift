import Synchronization

extension WriteTransaction {
    /// What ``upsert(_:updating:)`` did to the store.
    public enum UpsertOutcome: Sendable, Hashable {
        /// No object had the primary key: the object was added.
        case inserted
        /// An object had the primary key, and some of the properties written changed its values.
        case updated
        /// An object had the primary key, and already held every value written: nothing was written.
        case unchanged
    }

    /// Adds `object`, or updates the stored object with its primary key, writing only the properties
    /// `keyPaths` name, and reports which of the three it did.
    ///
    /// ```swift
    /// let user = TwitterUser()
    /// user.id = 12
    /// user.screenName = "jack"
    /// let outcome = try transaction.upsert(user, updating: [\.screenName])
    /// // .inserted the first time; .unchanged the next; any other stored property keeps its value
    /// ```
    ///
    /// This is what importers need: a payload that carries some properties of an object must not
    /// reset the others, and must be able to tell new objects from changed and unchanged ones.
    /// When no object has the primary key, every property of `object` is stored, as ``add(_:update:)-(Object,_)``
    /// stores it. When one does, the properties in `keyPaths` take `object`'s values (all of them when
    /// `keyPaths` is `nil`), the others keep their stored values, and nothing is written unless a value
    /// changed; observers then see only the properties whose values changed, as under
    /// ``UpdatePolicy/modified``. Either way `object` becomes managed, like an added object, and the
    /// unmanaged objects it links to are added under ``UpdatePolicy/modified``.
    ///
    /// - Parameters:
    ///   - object: an unmanaged object of a type with a primary key.
    ///   - keyPaths: the properties to write into an existing object, each a `@Persisted` property of
    ///     `T`; `nil` writes them all.
    /// - Returns: whether the object was inserted, updated or left unchanged.
    /// - Throws: ``ObjDBError/uniqueConstraintViolated(type:property:value:)``,
    ///   ``ObjDBError/keyTooLarge(size:maximum:operation:)``, and what adding a linked object meets.
    /// - Precondition: `object` is unmanaged, and `T` has a primary key.
    @discardableResult
    public func upsert<T: Object>(_ object: T, updating keyPaths: [PartialKeyPath<T>]? = nil) throws
        -> UpsertOutcome
    {
        precondition(!object.isManaged, "upsert(_:updating:) takes an unmanaged object; \(T.self) is managed.")
        let binding = try scope.catalog.binding(for: T.self)
        guard let primaryKeyOrdinal = binding.primaryKeyOrdinal else {
            preconditionFailure("upsert(_:updating:) needs a primary key, and \(T.self) has none.")
        }
        let discovered = try DiscoveredType.of(T.self)
        let storing = _StoringContext(writer: scope, catalog: scope.catalog, policy: .modified)
        let key = try scope.objectKey(
            from: try discovered.storedValue(of: object, ordinal: primaryKeyOrdinal, storing), in: binding)
        let keyBytes = try scope.tableKey(for: key, in: binding)

        // Registered while linked objects are added, so a link back to `object` resolves to its key.
        scope.objectsBeingAdded[ObjectIdentifier(object)] = (binding, key)
        defer { scope.objectsBeingAdded[ObjectIdentifier(object)] = nil }
        let writesBefore = scope.writeCount
        let outcome: UpsertOutcome
        do {
            var values = [StoredValue](repeating: .null, count: binding.properties.count)
            for (ordinal, value) in try discovered.storedValues(of: object, storing).enumerated() {
                values[binding.propertiesByOrdinal[ordinal].position] = value
            }
            if let oldRecord = try scope.record(in: binding, key: keyBytes) {
                if let keyPaths {
                    var merged = scope.values(of: oldRecord, in: binding)
                    for ordinal in UpsertKeyPaths.ordinals(of: keyPaths, in: discovered) {
                        let position = binding.propertiesByOrdinal[ordinal].position
                        merged[position] = values[position]
                    }
                    values = merged
                }
                let writesBeforePut = scope.writeCount
                try scope.put(values, key: key, in: binding, policy: .modified)
                outcome = scope.writeCount == writesBeforePut ? .unchanged : .updated
            } else {
                try scope.put(values, key: key, in: binding, policy: .modified)
                outcome = .inserted
            }
        } catch {
            // Linked objects this upsert stored stay in the transaction: it must not commit.
            if scope.writeCount != writesBefore, scope.deferredError == nil { scope.deferredError = error }
            throw error
        }
        object.accessor = ObjectAccessor(snapshot: scope.snapshot, binding: binding, key: keyBytes, objectKey: key)
        return outcome
    }
}

/// Which property ordinal each key path of an upsert names, learnt once per key path.
private enum UpsertKeyPaths {
    /// Key path objects by identity, each kept alive by its entry so its address is never reused.
    private struct Entry: @unchecked Sendable {
        // @unchecked because a key path is immutable once made.
        let keyPath: AnyKeyPath
        let ordinal: Int
    }

    private static let cache = Lock<[ObjectIdentifier: Entry]>([:])

    static func ordinals<T: Object>(of keyPaths: [PartialKeyPath<T>], in discovered: DiscoveredType) -> [Int] {
        var ordinals: [Int] = []
        ordinals.reserveCapacity(keyPaths.count)
        var unknown: [AnyKeyPath] = []
        cache.withLock { cache in
            for keyPath in keyPaths {
                if let entry = cache[ObjectIdentifier(keyPath)] {
                    ordinals.append(entry.ordinal)
                } else {
                    unknown.append(keyPath)
                }
            }
        }
        for keyPath in unknown {
            guard let name = try? PropertyTracer.propertyName(keyPath, on: T.self),
                let index = discovered.schema.properties.firstIndex(where: { $0.name == name }),
                let ordinal = discovered.propertyIndexByOrdinal.firstIndex(of: index)
            else { preconditionFailure("\(keyPath) is not a @Persisted property of \(T.self).") }
            cache.withLock { $0[ObjectIdentifier(keyPath)] = Entry(keyPath: keyPath, ordinal: ordinal) }
            ordinals.append(ordinal)
        }
        return ordinals
    }
}
