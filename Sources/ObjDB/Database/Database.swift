import Dispatch

/// An ObjDB store: a file of objects, opened with the classes that describe them.
///
/// ```swift
/// let db = try Database(path: "tweets.objdb", types: [Tweet.self, TwitterUser.self])
/// try db.write { transaction in
///     try transaction.add(tweet, update: .modified)
/// }
/// let view = try db.view()
/// let newest = view.objects(Tweet.self).last
/// ```
///
/// A `Database` is `Sendable`: share one per file across threads and tasks.
/// Reads go through a ``ReadView`` and writes through a ``WriteTransaction``;
/// both belong to the thread or task that made them.
///
/// Opening checks the classes against the schema stored in the file: a
/// difference is ``ObjDBError/schemaMismatch(path:differences:)`` unless the
/// configuration raises ``Configuration/schemaVersion``, in which case the
/// changes are applied and ``Configuration/migration`` runs, all in one write
/// transaction.
///
/// ## Topics
///
/// ### Opening a store
/// - ``init(path:types:)``
/// - ``init(configuration:)``
/// - ``open(_:)``
/// - ``configuration``
/// - ``schema``
///
/// ### Reading
/// - ``view()``
/// - ``view(queue:)``
/// - ``read(_:)``
///
/// ### Writing
/// - ``write(_:)-5w0dr``
/// - ``write(_:)-mm01``
/// - ``write(withoutNotifying:_:)``
/// - ``beginWrite()``
/// - ``isInWriteTransaction``
///
/// ### Versions held open
/// - ``pinnedVersions()``
public final class Database: Sendable, SnapshotOwner {
    /// How the database was opened.
    public let configuration: Configuration
    /// The store's types and named databases.
    let catalog: StoreCatalog
    /// Services the layers above attach (the change notifier), and the commit observers among them.
    let attachments = DatabaseAttachments()
    /// Runs async writes, committing those that wait together as one transaction.
    let writeQueue = WriteQueue()

    /// The schema in force: the stored one, with the declared classes applied.
    public var schema: Schema { catalog.schema }
    package var environment: Environment { catalog.environment }

    /// Opens (or creates) the store at `path` for objects of `types`.
    public convenience init(path: String, types: [ObjectBase.Type] = []) throws {
        try self.init(configuration: Configuration(path: path, types: types))
    }

    /// Opens (or creates) the store `configuration` describes, migrating it when its schema version is raised.
    ///
    /// - Throws: ``ObjDBError/schemaMismatch(path:differences:)``,
    ///   ``ObjDBError/newerSchemaVersion(path:stored:declared:)``,
    ///   ``ObjDBError/invalidSchema(type:reason:)``, what the migration throws, and the errors of opening a store.
    public init(configuration: Configuration) throws {
        let (environment, format) = try StoreFormat.open(
            path: configuration.path, options: configuration.environmentOptions)
        let discovered = try DiscoveredType.reachable(from: configuration.types)
        let names = discovered.map(\.schema.name)
        if let duplicate = names.first(where: { name in names.filter { $0 == name }.count > 1 }) {
            throw ObjDBError.invalidSchema(type: duplicate, reason: "two model classes share the name \(duplicate)")
        }

        let transaction = configuration.readOnly ? try environment.beginRead() : try environment.beginWrite()
        do {
            let plan = try OpeningPlan(
                configuration: configuration, discovered: discovered, transaction: transaction)
            // Marked with the open's other writes: an open that fails leaves an older store as it was.
            if !configuration.readOnly, format < StoreFormat.version { try StoreFormat.markCurrent(in: transaction) }
            self.configuration = configuration
            self.catalog = StoreCatalog(
                environment: environment, path: configuration.path, schema: plan.schema, discovered: discovered,
                handles: try plan.openDatabases(
                    in: transaction, segmentsApart: format >= 4 || !configuration.readOnly),
                faults: FaultReporter(handler: configuration.faultHandler))
            if !configuration.readOnly, format < StoreFormat.version {
                try FullTextIndexWriter.moveSegmentsOutOfChunks(of: catalog, in: transaction)
            }
            if let migration = plan.migration {
                try migration.run(on: self, transaction: transaction)
                // The migration may have rewritten any record: older observers compare whole results.
                if let meta = catalog.meta { try ChangeLog.markIncomplete(in: transaction, meta: meta) }
            }
            try transaction.commit()
        } catch {
            transaction.abort()
            throw error
        }
    }

    deinit {
        attachments.endAll()
    }

    /// The binding of class `type`, or an error naming it.
    func binding(for type: ObjectBase.Type) throws -> TypeBinding {
        try catalog.binding(for: type)
    }

    /// The binding of the type named `name`, or an error naming it.
    func binding(named name: String) throws -> TypeBinding {
        try catalog.binding(named: name)
    }
}

// MARK: - Reading and writing

extension Database {
    /// Runs `body` in a write transaction that commits when `body` returns and rolls back when it throws.
    ///
    /// Only one write transaction runs at a time in all processes; this call
    /// waits for its turn. Everything `body` does commits together or not at all.
    ///
    /// - Returns: what `body` returns.
    @discardableResult
    public func write<Result>(_ body: (WriteTransaction) throws -> Result) throws -> Result {
        try beginWrite().run(body)
    }

    /// Whether the calling thread is inside a write transaction of this database.
    ///
    /// A write begun inside another on the same thread stops the program (LMDB's write lock is
    /// not reentrant); code that may run either way can ask first.
    public var isInWriteTransaction: Bool {
        WritingThread.isWriting(environment)
    }

    /// Begins a write transaction; end it with ``WriteTransaction/commit()`` or ``WriteTransaction/cancel()``.
    ///
    /// A transaction that is neither committed nor cancelled is cancelled when released.
    /// It belongs to the thread that began it: do not hold it across `await`.
    @available(*, noasync, message: "a write transaction belongs to one thread; use write(_:) from async code")
    public func beginWrite() throws -> WriteTransaction {
        WriteTransaction(scope: try WriteScope(database: self, snapshot: Snapshot(owner: self)))
    }

    /// A view of the latest committed state, which stays put until it is refreshed.
    ///
    /// The view belongs to the thread that makes it (or, in a task, to its isolation domain).
    /// Made on the main thread, its observers are notified on the main queue.
    ///
    /// - Throws: ``ObjDBError/tooManyLiveVersions(path:live:maximum:oldest:)``, and LMDB's
    ///   errors (a full reader table).
    public func view() throws -> ReadView {
        try makeView(confinement: .current())
    }

    /// A view that belongs to `queue`: call this on `queue`, use the view only there, and its
    /// observers are notified there.
    ///
    /// ```swift
    /// let queue = DispatchQueue(label: "timeline")
    /// queue.async {
    ///     let view = try! db.view(queue: queue)
    ///     token = try! view.objects(Tweet.self).observe { change in … }
    /// }
    /// ```
    ///
    /// - Precondition: called on `queue`.
    public func view(queue: DispatchQueue) throws -> ReadView {
        let confinement = Confinement.queue(queue, QueueIdentity.of(queue))
        confinement.require("view(queue:)")
        return try makeView(confinement: confinement)
    }

    private func makeView(confinement: Confinement) throws -> ReadView {
        try checkLiveVersions()
        let snapshot = Snapshot(owner: self)
        snapshot.confinement = confinement
        _ = try snapshot.readTransaction()
        return ReadView(snapshot: snapshot)
    }

    /// Runs `body` with a view of the latest committed state.
    @discardableResult
    public func read<Result>(_ body: (ReadView) throws -> Result) throws -> Result {
        let view = try view()
        defer { view.snapshot.close() }
        return try body(view)
    }
}

extension Database {
    /// The number of the last committed write transaction, read from LMDB's meta page without
    /// a transaction: it moves whenever any process commits.
    package func lastCommittedVersion() throws -> Int {
        try environment.info().lastTransactionID
    }
}

extension Database {
    /// Each type's binding, by name.
    package var bindings: [String: TypeBinding] { catalog.bindings }
    /// The types by name, for the codecs.
    package var schemaIndex: SchemaIndex { catalog.schemaIndex }
    /// `objdb.meta`.
    var meta: DatabaseHandle? { catalog.meta }
    /// `objdb.backlinks`.
    package var backlinks: DatabaseHandle? { catalog.backlinks }
    /// The change log.
    var changeLog: DatabaseHandle? { catalog.changeLog }
    /// The longest table key (``StoreCatalog/maxTableKeySize``).
    var maxTableKeySize: Int { catalog.maxTableKeySize }

    /// Touches every database in `snapshot`, so threads may share it (``StoreCatalog/warm(_:)``).
    func warm(_ snapshot: Transaction) throws {
        try catalog.warm(snapshot)
    }
}
