/// An error thrown by ObjDB.
///
/// Every case carries what a user needs to act on it: the store's path, the
/// operation that failed, and the limits involved. Cases compare by value:
///
/// ```swift
/// do {
///     let db = try Database(path: "tweets.objdb", types: [Tweet.self])
/// } catch ObjDBError.newerFormat(let path, let found, let supported) {
///     print("\(path) has format \(found); this build reads up to \(supported)")
/// }
/// ```
///
/// Misuse of the API (a transaction used after it ended, a write
/// transaction used from another thread) is not an `ObjDBError`: it stops the
/// program with a message that names the rule broken.
public enum ObjDBError: Error, Hashable, Sendable {
    /// LMDB returned `code` from `operation` on the store at `path`.
    case lmdb(LMDBResultCode, operation: String, path: String)

    /// A write transaction needed more space than the memory map holds.
    ///
    /// The transaction was rolled back and nothing it wrote is stored. The map
    /// grows before the next write (now, or once the `openReaders` read
    /// transactions of this process end), so retrying the write succeeds
    /// unless `mapSize` already equals `maxMapSize`.
    case mapFull(path: String, mapSize: Int, maxMapSize: Int, openReaders: Int)

    /// A write was attempted on a store opened read-only.
    case readOnly(path: String, operation: String)

    /// A write was attempted outside a write transaction (in a read view).
    case notInWriteTransaction(operation: String)

    /// No store exists at `path`, and the open did not allow creating one.
    case storeNotFound(path: String)

    /// The file at `path` is not an ObjDB store; `reason` says what was found instead.
    case notAnObjDBStore(path: String, reason: String)

    /// The store at `path` was written in format version `found`, newer than the
    /// `supported` version this build of ObjDB reads.
    case newerFormat(path: String, found: UInt32, supported: UInt32)

    /// The store at `path` was written in format version `found`, older than the `supported`
    /// version this build of ObjDB reads and writes: its records would be misread, so it is
    /// not opened. Export its objects with a build that reads format `found`
    /// (`objdb-inspect export`) and import them into a new store with this one (`objdb-inspect import`).
    case olderFormat(path: String, found: UInt32, supported: UInt32)

    /// The store at `path` is already open in this process with other options.
    case incompatibleOpen(path: String, reason: String)

    /// A key of `size` bytes exceeds LMDB's limit of `maximum` bytes.
    case keyTooLarge(size: Int, maximum: Int, operation: String)

    /// A zero-length key was given; LMDB keys hold at least one byte.
    case emptyKey(operation: String)

    /// A write began on a thread that already holds the store's write transaction.
    case nestedWrite(path: String)

    /// The model classes differ from the schema stored in the file at `path`, and no
    /// migration (a higher ``Configuration/schemaVersion``) was configured. Each
    /// difference is one sentence, such as `Tweet.text: declared String, stored String?`.
    case schemaMismatch(path: String, differences: [String])

    /// The store at `path` was written with schema version `stored`, newer than the `declared` one.
    case newerSchemaVersion(path: String, stored: UInt64, declared: UInt64)

    /// A model class cannot be stored as declared; `reason` says why.
    case invalidSchema(type: String, reason: String)

    /// No object type named `name` is in the schema.
    case unknownType(String)

    /// The type has no property named `property`.
    case unknownProperty(type: String, property: String)

    /// A value of the wrong kind was given for a property.
    case typeMismatch(type: String, property: String, expected: String, found: String)

    /// A property that cannot be `nil` was given no value.
    case missingValue(type: String, property: String)

    /// An object with primary key `key` already exists and the update policy was ``UpdatePolicy/error``.
    case primaryKeyExists(type: String, key: String)

    /// A unique index already holds `value` for another object; the write was rolled back.
    case uniqueConstraintViolated(type: String, property: String, value: String)

    /// The primary key of a stored object cannot change.
    case primaryKeyChanged(type: String)

    /// The object was deleted, or the view or transaction it came from has ended.
    case objectInvalidated(type: String)

    /// A string predicate has a syntax error at character offset `position`.
    case predicateSyntax(predicate: String, position: Int, message: String)

    /// A query cannot run as written: an unknown property, an operator the
    /// property's type has no meaning for, or a `#Predicate` expression ObjDB
    /// cannot translate. `reason` says which.
    case invalidQuery(type: String, reason: String)

    /// A stored record cannot be decoded; the file is damaged.
    case corruptRecord(path: String, type: String, reason: String)

    /// A view was used from a thread or queue other than the one it belongs to (`expected`).
    case wrongThread(operation: String, expected: String)

    /// A frozen view, object or results cannot `operation`: they never change.
    case frozen(operation: String)

    /// `observe` was called on a view with nowhere to deliver: open the view with
    /// ``Database/view(queue:)``, or on the main thread, or use ``Results/changes``.
    case noDeliveryQueue(operation: String)

    /// Opening a read would pin one more version while `live` versions are already pinned,
    /// the ``Configuration/maximumLiveVersions`` limit. The oldest is `oldest`, held by a view
    /// that was not refreshed; refresh or release it.
    case tooManyLiveVersions(path: String, live: Int, maximum: Int, oldest: Int)

    /// A ``ThreadSafeReference`` cannot be resolved: `reason` says why (resolved already, another database).
    case invalidThreadSafeReference(reason: String)
}

extension ObjDBError: CustomStringConvertible {
    /// A sentence that says what failed, where, and what to do about it.
    public var description: String {
        switch self {
        case .lmdb(let code, let operation, let path):
            return "\(operation) failed on \(path): \(code) (LMDB code \(code.rawValue))"
        case .mapFull(let path, let mapSize, let maxMapSize, let openReaders):
            let growth =
                mapSize >= maxMapSize
                ? "the map is at its configured maximum of \(maxMapSize) bytes; raise maxMapSize"
                : openReaders > 0
                    ? "the map grows once the \(openReaders) open read transaction(s) of this process end"
                    : "the map has grown; retry the write"
            return "write to \(path) rolled back: the \(mapSize)-byte map is full; \(growth)"
        case .readOnly(let path, let operation):
            return "\(operation) refused: \(path) is open read-only"
        case .notInWriteTransaction(let operation):
            return "\(operation) refused: writes happen inside a write transaction (store.write { … })"
        case .storeNotFound(let path):
            return "no store at \(path)"
        case .notAnObjDBStore(let path, let reason):
            return "\(path) is not an ObjDB store: \(reason)"
        case .newerFormat(let path, let found, let supported):
            return
                "\(path) has format version \(found); this ObjDB reads versions up to \(supported): upgrade ObjDB"
        case .olderFormat(let path, let found, let supported):
            return
                "\(path) has format version \(found), older than the version \(supported) this ObjDB reads and writes: "
                + "export its objects with an ObjDB build that reads format \(found) (objdb-inspect export), "
                + "then import them into a new store with this one (objdb-inspect import)"
        case .incompatibleOpen(let path, let reason):
            return "\(path) is already open in this process: \(reason)"
        case .keyTooLarge(let size, let maximum, let operation):
            return "\(operation): a key of \(size) bytes exceeds LMDB's limit of \(maximum) bytes"
        case .emptyKey(let operation):
            return "\(operation): keys must not be empty"
        case .nestedWrite(let path):
            return "a write to \(path) began inside another write on the same thread; nest the work in the first one"
        case .schemaMismatch(let path, let differences):
            return "the model classes differ from the schema stored in \(path); raise schemaVersion and "
                + "configure a migration: " + differences.joined(separator: "; ")
        case .newerSchemaVersion(let path, let stored, let declared):
            return "\(path) has schema version \(stored), newer than this app's \(declared): upgrade the app"
        case .invalidSchema(let type, let reason):
            return "\(type) cannot be stored: \(reason)"
        case .unknownType(let name):
            return "no object type named \(name) in the schema"
        case .unknownProperty(let type, let property):
            return "\(type) has no property named \(property)"
        case .typeMismatch(let type, let property, let expected, let found):
            return "\(type).\(property) holds \(expected), not \(found)"
        case .missingValue(let type, let property):
            return "\(type).\(property) cannot be nil"
        case .primaryKeyExists(let type, let key):
            return "a \(type) with primary key \(key) already exists"
        case .uniqueConstraintViolated(let type, let property, let value):
            return "another \(type) already has \(property) = \(value); the write was rolled back"
        case .primaryKeyChanged(let type):
            return "the primary key of a stored \(type) cannot change"
        case .objectInvalidated(let type):
            return "the \(type) was deleted, or the view or transaction it came from has ended"
        case .predicateSyntax(let predicate, let position, let message):
            let marker = String(repeating: " ", count: max(0, position)) + "^"
            return "syntax error at position \(position): \(message)\n  \(predicate)\n  \(marker)"
        case .invalidQuery(let type, let reason):
            return "cannot query \(type): \(reason)"
        case .wrongThread(let operation, let expected):
            return "\(operation) was called off the view's own \(expected); a view and its objects belong to it "
                + "(pass a ThreadSafeReference or a frozen snapshot instead)"
        case .frozen(let operation):
            return "cannot \(operation): frozen views, objects and results never change; use a live view"
        case .noDeliveryQueue(let operation):
            return "\(operation) needs a queue to deliver on: open the view with view(queue:) or on the main thread, "
                + "or use the changes async sequence"
        case .tooManyLiveVersions(let path, let live, let maximum, let oldest):
            return "\(path) already has \(live) pinned versions (the maximum is \(maximum)); the oldest, version "
                + "\(oldest), is held by a view that was not refreshed: refresh or release it"
        case .invalidThreadSafeReference(let reason):
            return "the thread-safe reference cannot be resolved: \(reason)"
        case .corruptRecord(let path, let type, let reason):
            return "a \(type) record in \(path) is damaged: \(reason)"
        }
    }
}
