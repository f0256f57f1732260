/// Where a ``Database`` lives and how it opens.
///
/// ```swift
/// var configuration = Configuration(path: "tweets.objdb", types: [Tweet.self, TwitterUser.self])
/// configuration.schemaVersion = 2
/// configuration.migration = { migration, oldVersion in
///     if oldVersion < 2 { try migration.renameProperty(onType: "Tweet", from: "body", to: "text") }
/// }
/// let db = try Database(configuration: configuration)
/// ```
///
/// ## Topics
///
/// ### The store and its classes
/// - ``init(path:types:)``
/// - ``path``
/// - ``types``
/// - ``readOnly``
/// - ``fileMode``
///
/// ### Schema versions
/// - ``schemaVersion``
/// - ``migration``
///
/// ### Durability and size
/// - ``isDurable``
/// - ``initialMapSize``
/// - ``maxMapSize``
/// - ``maxReaders``
/// - ``maximumLiveVersions``
///
/// ### Notifications and faults
/// - ``crossProcessNotificationInterval``
/// - ``faultHandler``
public struct Configuration: Sendable {

    /// The store file; its lock file is `<path>-lock` beside it.
    public var path: String
    /// The model classes. The classes they link to, embed or are linked from come along, as in
    /// Realm: `[Article.self]` also opens `Byline` when an article embeds one. Empty opens the
    /// store by its stored schema alone (the dynamic API).
    public var types: [ObjectBase.Type]
    /// The version of the model classes; raise it with each change and describe the change in ``migration``.
    public var schemaVersion: UInt64 = 0
    /// Runs once, inside the opening write transaction, when ``schemaVersion`` is higher than
    /// the stored one; receives the stored version.
    public var migration: (@Sendable (Migration, UInt64) throws -> Void)?
    /// Opens without writing: every write fails with ``ObjDBError/readOnly(path:operation:)``.
    public var readOnly = false
    /// The most read transactions open at once, across processes (LMDB's reader table).
    public var maxReaders: UInt32 = 126
    /// The map size a store opens with, in bytes (64 GiB); the map then grows geometrically.
    ///
    /// The map only reserves address space, not disk or memory: the file grows as pages are
    /// written. So the default is generous, as LMDB advises: one write transaction can hold up
    /// to this much (tens of millions of small objects), and the map rarely has to grow. Growing
    /// needs a moment with no read transaction open in the process, which never comes while a
    /// view is observed; an app that observes a store larger than this, or writes more in one
    /// transaction, should raise it. Lower it only where address space is limited (`ulimit -v`).
    public var initialMapSize = EnvironmentOptions.defaultInitialMapSize
    /// The largest the store may grow, in bytes (1 TiB).
    public var maxMapSize = EnvironmentOptions.defaultMaxMapSize
    /// The permission bits a new store file and its lock file are created with (the process's
    /// umask still applies): `0o600` by default, so only the owner reads the data. An existing
    /// file keeps its mode.
    public var fileMode: UInt16 = 0o600
    /// Whether a commit survives a power loss (`true`) or only a crash of the process.
    public var isDurable = true
    /// When a full-text index's recent segment passes this many bytes, the write folds it into the
    /// index's chunks (docs/FORMAT.md, "Full-text indexes"). Tests lower it to fold often.
    package var fullTextRecentLimit = 16 * 1024
    /// The most versions read transactions may pin at once, across processes; `nil` for no limit.
    ///
    /// Every version a view holds keeps the pages it reads from being reused, so a view left
    /// unrefreshed makes the file grow. With a limit, opening a read that would pin one version
    /// too many fails with ``ObjDBError/tooManyLiveVersions(path:live:maximum:oldest:)`` instead.
    public var maximumLiveVersions: Int?
    /// How often the notifier looks for commits by other processes when inotify cannot tell it
    /// (and, as a safety net, even when it can): the most a notification from another process
    /// can be late by. Commits in this process wake it at once.
    public var crossProcessNotificationInterval: Duration = .milliseconds(500)
    /// Hears each fault that a call which cannot throw met, once per distinct fault: a typed
    /// property read from a damaged record (it reads its type's zero value), a `Results`
    /// counted or iterated when its snapshot cannot be read (it reads as empty).
    ///
    /// Calls that can throw (queries' `filter`, the dynamic API, `write`, `refresh`, checks)
    /// throw such faults instead. Without a handler, each fault is written once to standard error.
    public var faultHandler: (@Sendable (ObjDBError) -> Void)?

    /// A configuration for the store at `path` holding objects of `types`.
    public init(path: String, types: [ObjectBase.Type] = []) {
        self.path = path
        self.types = types
    }

    var environmentOptions: EnvironmentOptions {
        var options = EnvironmentOptions()
        options.readOnly = readOnly
        options.maxReaders = maxReaders
        options.initialMapSize = initialMapSize
        options.maxMapSize = maxMapSize
        options.durability = isDurable ? .full : .processCrashOnly
        options.fileMode = UInt32(fileMode)
        return options
    }
}
