/// An error thrown by ObjDB.
///
/// Every case carries what a user needs to act on it: the store's path, the
/// operation that failed, and the limits involved. Cases compare by value:
///
/// ```swift
/// do {
///     let store = try Store(path: "tweets.objdb", options: .init(readOnly: true))
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

    /// The store at `path` is already open in this process with other options.
    case incompatibleOpen(path: String, reason: String)

    /// A key of `size` bytes exceeds LMDB's limit of `maximum` bytes.
    case keyTooLarge(size: Int, maximum: Int, operation: String)

    /// A zero-length key was given; LMDB keys hold at least one byte.
    case emptyKey(operation: String)
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
        case .incompatibleOpen(let path, let reason):
            return "\(path) is already open in this process: \(reason)"
        case .keyTooLarge(let size, let maximum, let operation):
            return "\(operation): a key of \(size) bytes exceeds LMDB's limit of \(maximum) bytes"
        case .emptyKey(let operation):
            return "\(operation): keys must not be empty"
        }
    }
}
