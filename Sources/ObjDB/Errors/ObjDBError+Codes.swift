extension ObjDBError.Code {
    /// LMDB returned an error code (``ObjDBError/resultCode``) not covered by another code.
    public static let lmdb = Self(rawValue: "lmdb")
    /// A write needed more space than the memory map holds; it was rolled back.
    public static let mapFull = Self(rawValue: "mapFull")
    /// A write was attempted on a store opened read-only.
    public static let readOnly = Self(rawValue: "readOnly")
    /// A storage-level write was attempted outside a write transaction.
    public static let notInWriteTransaction = Self(rawValue: "notInWriteTransaction")
    /// No store exists at the path, and the open did not allow creating one.
    public static let storeNotFound = Self(rawValue: "storeNotFound")
    /// The file is not an ObjDB store, or is damaged so that it cannot be opened.
    public static let notAnObjDBStore = Self(rawValue: "notAnObjDBStore")
    /// The store file is damaged where LMDB would read it (truncated, a damaged meta page or tree page).
    public static let damagedStore = Self(rawValue: "damagedStore")
    /// The store was written in a format this build does not read.
    public static let newerFormat = Self(rawValue: "newerFormat")
    /// The store was written in an older format than this build reads (format 1).
    public static let olderFormat = Self(rawValue: "olderFormat")
    /// The store is already open in this process with other options.
    public static let incompatibleOpen = Self(rawValue: "incompatibleOpen")
    /// A key exceeds LMDB's size limit.
    public static let keyTooLarge = Self(rawValue: "keyTooLarge")
    /// A zero-length key was given.
    public static let emptyKey = Self(rawValue: "emptyKey")
    /// The model classes differ from the stored schema, and no migration was configured.
    public static let schemaMismatch = Self(rawValue: "schemaMismatch")
    /// The store's schema version is newer than the app's.
    public static let newerSchemaVersion = Self(rawValue: "newerSchemaVersion")
    /// A model class cannot be stored as declared.
    public static let invalidSchema = Self(rawValue: "invalidSchema")
    /// No object type of that name is in the schema.
    public static let unknownType = Self(rawValue: "unknownType")
    /// The type has no property of that name.
    public static let unknownProperty = Self(rawValue: "unknownProperty")
    /// A value of the wrong kind was given for a property.
    public static let typeMismatch = Self(rawValue: "typeMismatch")
    /// A property that cannot be `nil` was given no value.
    public static let missingValue = Self(rawValue: "missingValue")
    /// An object with that primary key exists and the update policy was ``UpdatePolicy/error``.
    public static let primaryKeyExists = Self(rawValue: "primaryKeyExists")
    /// A unique index already holds the value for another object; the write was rolled back.
    public static let uniqueConstraintViolated = Self(rawValue: "uniqueConstraintViolated")
    /// The primary key of a stored object cannot change.
    public static let primaryKeyChanged = Self(rawValue: "primaryKeyChanged")
    /// The object was deleted, or the view or transaction it came from has ended.
    public static let objectInvalidated = Self(rawValue: "objectInvalidated")
    /// A string predicate has a syntax error at ``ObjDBError/position``.
    public static let predicateSyntax = Self(rawValue: "predicateSyntax")
    /// A query cannot run as written.
    public static let invalidQuery = Self(rawValue: "invalidQuery")
    /// A stored record or key cannot be decoded: the file is damaged.
    public static let corruptRecord = Self(rawValue: "corruptRecord")
    /// Opening a read would pass ``Configuration/maximumLiveVersions``.
    public static let tooManyLiveVersions = Self(rawValue: "tooManyLiveVersions")
    /// A ``ThreadSafeReference`` cannot be resolved.
    public static let invalidThreadSafeReference = Self(rawValue: "invalidThreadSafeReference")
    /// A parameter is out of its range, such as a negative limit.
    public static let invalidArgument = Self(rawValue: "invalidArgument")
}

// The codes again as members of ObjDBError, so that `catch ObjDBError.mapFull` reads as a case would.
extension ObjDBError {
    /// ``Code/lmdb``.
    public static let lmdb = Code.lmdb
    /// ``Code/mapFull``.
    public static let mapFull = Code.mapFull
    /// ``Code/readOnly``.
    public static let readOnly = Code.readOnly
    /// ``Code/notInWriteTransaction``.
    public static let notInWriteTransaction = Code.notInWriteTransaction
    /// ``Code/storeNotFound``.
    public static let storeNotFound = Code.storeNotFound
    /// ``Code/notAnObjDBStore``.
    public static let notAnObjDBStore = Code.notAnObjDBStore
    /// ``Code/damagedStore``.
    public static let damagedStore = Code.damagedStore
    /// ``Code/newerFormat``.
    public static let newerFormat = Code.newerFormat
    /// ``Code/olderFormat``.
    public static let olderFormat = Code.olderFormat
    /// ``Code/incompatibleOpen``.
    public static let incompatibleOpen = Code.incompatibleOpen
    /// ``Code/keyTooLarge``.
    public static let keyTooLarge = Code.keyTooLarge
    /// ``Code/emptyKey``.
    public static let emptyKey = Code.emptyKey
    /// ``Code/schemaMismatch``.
    public static let schemaMismatch = Code.schemaMismatch
    /// ``Code/newerSchemaVersion``.
    public static let newerSchemaVersion = Code.newerSchemaVersion
    /// ``Code/invalidSchema``.
    public static let invalidSchema = Code.invalidSchema
    /// ``Code/unknownType``.
    public static let unknownType = Code.unknownType
    /// ``Code/unknownProperty``.
    public static let unknownProperty = Code.unknownProperty
    /// ``Code/typeMismatch``.
    public static let typeMismatch = Code.typeMismatch
    /// ``Code/missingValue``.
    public static let missingValue = Code.missingValue
    /// ``Code/primaryKeyExists``.
    public static let primaryKeyExists = Code.primaryKeyExists
    /// ``Code/uniqueConstraintViolated``.
    public static let uniqueConstraintViolated = Code.uniqueConstraintViolated
    /// ``Code/primaryKeyChanged``.
    public static let primaryKeyChanged = Code.primaryKeyChanged
    /// ``Code/objectInvalidated``.
    public static let objectInvalidated = Code.objectInvalidated
    /// ``Code/predicateSyntax``.
    public static let predicateSyntax = Code.predicateSyntax
    /// ``Code/invalidQuery``.
    public static let invalidQuery = Code.invalidQuery
    /// ``Code/corruptRecord``.
    public static let corruptRecord = Code.corruptRecord
    /// ``Code/tooManyLiveVersions``.
    public static let tooManyLiveVersions = Code.tooManyLiveVersions
    /// ``Code/invalidThreadSafeReference``.
    public static let invalidThreadSafeReference = Code.invalidThreadSafeReference
    /// ``Code/invalidArgument``.
    public static let invalidArgument = Code.invalidArgument
}

extension ObjDBError.Figure {
    /// The memory map's size in bytes.
    public static let mapSize = Self(rawValue: "mapSize")
    /// The largest the map may grow to, in bytes.
    public static let maxMapSize = Self(rawValue: "maxMapSize")
    /// Read transactions of this process that hold back the map's growth.
    public static let openReaders = Self(rawValue: "openReaders")
    /// A version found in the file (a format or schema version).
    public static let found = Self(rawValue: "found")
    /// The newest version this build or app supports.
    public static let supported = Self(rawValue: "supported")
    /// A size in bytes, such as a key's.
    public static let size = Self(rawValue: "size")
    /// A limit, such as LMDB's key size or the live-version cap.
    public static let maximum = Self(rawValue: "maximum")
    /// The versions pinned now.
    public static let live = Self(rawValue: "live")
    /// The oldest pinned version.
    public static let oldest = Self(rawValue: "oldest")
}
