import CLMDB

/// A result code returned by LMDB, the storage engine under ObjDB.
///
/// Codes compare by value, so a `catch` can match the one it cares about:
///
/// ```swift
/// do {
///     let view = try db.view()
/// } catch LMDBResultCode.readersFull {
///     print("raise Configuration.maxReaders")
/// }
/// ```
///
/// Codes below zero are LMDB's own; codes above zero are the operating
/// system's `errno` values that LMDB passes through.
public struct LMDBResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The numeric code, as LMDB returned it.
    public let rawValue: Int32

    /// Creates a result code from LMDB's numeric value.
    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// LMDB's own words for the code (`mdb_strerror`).
    public var description: String {
        String(cString: mdb_strerror(rawValue))
    }

    /// The key/data pair already exists. The corresponding C error is `MDB_KEYEXIST`.
    public static let keyExists = Self(rawValue: MDB_KEYEXIST)
    /// The key/data pair was not found. The corresponding C error is `MDB_NOTFOUND`.
    public static let notFound = Self(rawValue: MDB_NOTFOUND)
    /// A requested page was not found: the file is corrupt. The corresponding C error is `MDB_PAGE_NOTFOUND`.
    public static let pageNotFound = Self(rawValue: MDB_PAGE_NOTFOUND)
    /// A page has an unexpected type: the file is corrupt. The corresponding C error is `MDB_CORRUPTED`.
    public static let corrupted = Self(rawValue: MDB_CORRUPTED)
    /// The environment hit a fatal error and must be reopened. The corresponding C error is `MDB_PANIC`.
    public static let panic = Self(rawValue: MDB_PANIC)
    /// The file was written by an incompatible LMDB version. The corresponding C error is `MDB_VERSION_MISMATCH`.
    public static let versionMismatch = Self(rawValue: MDB_VERSION_MISMATCH)
    /// The file is not an LMDB file. The corresponding C error is `MDB_INVALID`.
    public static let invalid = Self(rawValue: MDB_INVALID)
    /// The memory map is full. The corresponding C error is `MDB_MAP_FULL`.
    public static let mapFull = Self(rawValue: MDB_MAP_FULL)
    /// Too many named databases are open. The corresponding C error is `MDB_DBS_FULL`.
    public static let databasesFull = Self(rawValue: MDB_DBS_FULL)
    /// The reader table is full. The corresponding C error is `MDB_READERS_FULL`.
    public static let readersFull = Self(rawValue: MDB_READERS_FULL)
    /// A write transaction touched too many pages. The corresponding C error is `MDB_TXN_FULL`.
    public static let transactionFull = Self(rawValue: MDB_TXN_FULL)
    /// A cursor stack is too deep: the file is corrupt. The corresponding C error is `MDB_CURSOR_FULL`.
    public static let cursorFull = Self(rawValue: MDB_CURSOR_FULL)
    /// A page has no more space. The corresponding C error is `MDB_PAGE_FULL`.
    public static let pageFull = Self(rawValue: MDB_PAGE_FULL)
    /// Another process grew the map beyond this one's. The corresponding C error is `MDB_MAP_RESIZED`.
    public static let mapResized = Self(rawValue: MDB_MAP_RESIZED)
    /// A database was opened with incompatible flags. The corresponding C error is `MDB_INCOMPATIBLE`.
    public static let incompatible = Self(rawValue: MDB_INCOMPATIBLE)
    /// A reader slot was misused. The corresponding C error is `MDB_BAD_RSLOT`.
    public static let badReaderSlot = Self(rawValue: MDB_BAD_RSLOT)
    /// The transaction must be aborted, has a child, or is invalid. The corresponding C error is `MDB_BAD_TXN`.
    public static let badTransaction = Self(rawValue: MDB_BAD_TXN)
    /// A key or value has an unsupported size. The corresponding C error is `MDB_BAD_VALSIZE`.
    public static let badValueSize = Self(rawValue: MDB_BAD_VALSIZE)
    /// A database handle changed unexpectedly. The corresponding C error is `MDB_BAD_DBI`.
    public static let badDatabase = Self(rawValue: MDB_BAD_DBI)
    /// No such file or directory. The corresponding C error is `ENOENT`.
    public static let noSuchFile = Self(rawValue: 2)
    /// Permission denied. The corresponding C error is `EACCES`.
    public static let permissionDenied = Self(rawValue: 13)
    /// The lock is held elsewhere. The corresponding C error is `EAGAIN`.
    public static let tryAgain = Self(rawValue: 11)
    /// Out of memory. The corresponding C error is `ENOMEM`.
    public static let outOfMemory = Self(rawValue: 12)
    /// No space left on the device. The corresponding C error is `ENOSPC`.
    public static let noSpace = Self(rawValue: 28)
    /// An input/output error. The corresponding C error is `EIO`.
    public static let ioError = Self(rawValue: 5)
    /// An invalid argument. The corresponding C error is `EINVAL`.
    public static let invalidArgument = Self(rawValue: 22)
    /// The path names a directory. The corresponding C error is `EISDIR`.
    public static let isDirectory = Self(rawValue: 21)
}
