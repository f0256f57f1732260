/// A write in progress: everything done through it commits together, or not at all.
///
/// ```swift
/// try db.write { transaction in
///     let user = try transaction.create(TwitterUser.self, value: ["id": 12, "screenName": "jack"], update: .modified)
///     let tweet = Tweet()
///     tweet.id = 20
///     tweet.user = user
///     try transaction.add(tweet)
/// }
/// ```
///
/// Objects, their indexes, their links and the backlinks behind them all
/// change in one LMDB transaction. Managed objects read through the transaction
/// see its changes at once.
///
/// - Warning: A write transaction belongs to the thread that began it.
///
/// ## Topics
///
/// ### Adding and creating
/// - ``add(_:update:)-(Object,_)``
/// - ``add(_:update:)-(Objects,_)``
/// - ``create(_:value:update:)``
/// - ``dynamicCreate(_:value:update:)``
///
/// ### Deleting
/// - ``delete(_:)-(Object)``
/// - ``delete(_:)-(Objects)``
/// - ``delete(_:)-(DynamicObject)``
/// - ``deleteAll(_:)``
/// - ``deleteAll()``
///
/// ### Reading what the write sees
/// - ``objects(_:)``
/// - ``object(ofType:forPrimaryKey:)``
/// - ``dynamicObjects(_:)``
///
/// ### Ending the write
/// - ``commit()``
/// - ``cancel()``
/// - ``isFinished``
public final class WriteTransaction {
    package let scope: WriteScope
    /// Whether ``commit()`` or ``cancel()`` ended the transaction.
    public private(set) var isFinished = false
    /// Whether the write is one of an async batch: the batch commits, not the transaction.
    let isGrouped: Bool
    /// Whether ``cancel()`` was called in a grouped write.
    private(set) var wasCancelled = false
    /// The object the last point read returned, for the next one to reuse once the caller lets go
    /// (as ``ReadView`` does: W7 and W8 in docs/BENCHMARKS.md).
    private var recycledObject: ObjectBase?

    init(scope: WriteScope, isGrouped: Bool = false) {
        self.scope = scope
        self.isGrouped = isGrouped
    }

    deinit {
        if !isFinished && !isGrouped { scope.cancel() }
    }

    /// Adds an unmanaged object, and the unmanaged objects it links to; the same instance becomes managed.
    ///
    /// - Parameters:
    ///   - object: an unmanaged object, or one this database already manages (which is left as it is).
    ///   - update: what to do when an object with the same primary key exists.
    /// - Throws: ``ObjDBError/primaryKeyExists(type:key:)`` under ``UpdatePolicy/error``,
    ///   ``ObjDBError/uniqueConstraintViolated(type:property:value:)``, ``ObjDBError/keyTooLarge(size:maximum:operation:)``.
    public func add(_ object: Object, update: UpdatePolicy = .error) throws {
        try scope.add(object, policy: update)
    }

    /// Adds each of `objects`.
    public func add<Objects: Sequence>(_ objects: Objects, update: UpdatePolicy = .error) throws
    where Objects.Element: Object {
        for object in objects { try scope.add(object, policy: update) }
    }

    /// Creates (or, by `update`, updates) an object of `type` from a dictionary of property values.
    ///
    /// Values may be Swift values (`Int`, `String`, `Date`, …), arrays for lists
    /// and sets, dictionaries for maps and embedded objects, objects or
    /// dictionaries for links (creating or updating the linked object), or
    /// ``StoredValue``s. A property left out keeps its stored value when updating,
    /// and takes its type's default when creating.
    @discardableResult
    public func create<T: Object>(_ type: T.Type, value: [String: Any], update: UpdatePolicy = .error) throws -> T {
        let binding = try scope.catalog.binding(for: type)
        let (keyBytes, key) = try scope.create(binding, from: value, policy: update)
        return scope.snapshot.makeObject(type, binding: binding, keyBytes: keyBytes, key: key)
    }

    /// Deletes a managed object; links to it become `nil`, and lists, sets and maps drop it.
    ///
    /// - Throws: ``ObjDBError/objectInvalidated(type:)`` for an unmanaged or deleted object.
    public func delete(_ object: Object) throws {
        guard let accessor = object.accessor, accessor.snapshot.catalog === scope.catalog else {
            throw ObjDBError.objectInvalidated(type: DiscoveredType.name(of: Swift.type(of: object)))
        }
        // An object this write read has its record at hand: no second lookup (W8 in BENCHMARKS.md).
        let known = accessor.owner == nil && accessor.snapshot === scope.snapshot ? try accessor.reader() : nil
        try scope.delete(key: accessor.key, in: accessor.binding, record: known)
    }

    /// Deletes each of `objects`.
    public func delete<Objects: Sequence>(_ objects: Objects) throws where Objects.Element: Object {
        for object in Array(objects) { try delete(object) }
    }

    /// Deletes every object of `type`.
    public func deleteAll<T: Object>(_ type: T.Type) throws {
        try scope.deleteAll(in: try scope.catalog.binding(for: type))
    }

    /// Deletes every object of every type; delete rules have nothing to do, so none is followed.
    public func deleteAll() throws {
        for binding in scope.catalog.bindings.values where !binding.schema.isEmbedded {
            try scope.deleteAll(in: binding, followingRules: false)
        }
    }

    /// The object of `type` whose primary key is `key`, as this transaction sees it, or `nil`.
    public func object<T: Object>(ofType type: T.Type, forPrimaryKey key: some PrimaryKeyValue) -> T? {
        do {
            // Taken out of the transaction, so the slot holds the only reference when the caller let go.
            var recycled: T?
            if let last = recycledObject, ObjectIdentifier(Swift.type(of: last)) == ObjectIdentifier(T.self) {
                recycled = unsafeDowncast(last, to: T.self)
            }
            recycledObject = nil
            defer { recycledObject = recycled }
            return try scope.snapshot.object(type, key: key._objectKey, recycling: &recycled)
        } catch {
            scope.catalog.faults.report(error)
            return nil
        }
    }

    /// Makes every change durable and visible to others, and ends the transaction.
    ///
    /// - Throws: an error a property assignment met (such as a unique-index
    ///   violation); the transaction is then rolled back.
    public func commit() throws {
        precondition(!isFinished, "The write transaction has already ended.")
        isFinished = true
        if isGrouped {
            // The batch commits after the body returns: a failure reaches the caller then.
            if let error = scope.deferredError { throw error }
            return
        }
        try scope.commit()
    }

    /// Runs `body`, then commits (unless `body` ended the transaction itself); cancels when `body` throws.
    func run<Result>(_ body: (WriteTransaction) throws -> Result) throws -> Result {
        do {
            let result = try body(self)
            if !isFinished { try commit() }
            return result
        } catch {
            cancel()
            throw error
        }
    }

    /// Discards every change and ends the transaction.
    public func cancel() {
        guard !isFinished else { return }
        isFinished = true
        if isGrouped {
            wasCancelled = true
            return
        }
        scope.cancel()
    }
}

@available(*, unavailable, message: "a write transaction belongs to the thread that began it")
extension WriteTransaction: Sendable {}
