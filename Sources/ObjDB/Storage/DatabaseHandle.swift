import CLMDB

/// A named LMDB database (a B-tree inside the file), opened once per environment.
package struct DatabaseHandle: Sendable, Hashable {
    /// LMDB's handle, valid for the life of the environment.
    package let dbi: MDB_dbi
    /// The name inside the file; `nil` for LMDB's unnamed main database.
    package let name: String?
    /// The flags the database was created with.
    package let options: DatabaseOptions
}

/// How a named database stores its keys and values.
package struct DatabaseOptions: OptionSet, Sendable, Hashable {
    package let rawValue: UInt32
    package init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Creates the database if it does not exist (`MDB_CREATE`).
    package static let create = Self(rawValue: UInt32(MDB_CREATE))
    /// Several sorted values per key (`MDB_DUPSORT`), as non-unique indexes use.
    package static let duplicateSort = Self(rawValue: UInt32(MDB_DUPSORT))
    /// With ``duplicateSort``: every value has the same size (`MDB_DUPFIXED`).
    package static let duplicateFixed = Self(rawValue: UInt32(MDB_DUPFIXED))
    /// Keys are native `UInt32` or `size_t` integers (`MDB_INTEGERKEY`).
    package static let integerKey = Self(rawValue: UInt32(MDB_INTEGERKEY))

    /// The flags that describe the database itself, without open-time requests.
    var persistentFlags: Self { subtracting(.create) }
}

/// How a put treats an existing key.
package struct PutOptions: OptionSet, Sendable, Hashable {
    package let rawValue: UInt32
    package init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Fail (return `false`) instead of replacing an existing key (`MDB_NOOVERWRITE`).
    package static let noOverwrite = Self(rawValue: UInt32(MDB_NOOVERWRITE))
    /// In a ``DatabaseOptions/duplicateSort`` database, fail if the pair exists (`MDB_NODUPDATA`).
    package static let noDuplicateData = Self(rawValue: UInt32(MDB_NODUPDATA))
    /// The key sorts after every existing key: skip the search (`MDB_APPEND`).
    package static let append = Self(rawValue: UInt32(MDB_APPEND))
    /// The value sorts after every value of its key (`MDB_APPENDDUP`).
    package static let appendDuplicate = Self(rawValue: UInt32(MDB_APPENDDUP))
}
