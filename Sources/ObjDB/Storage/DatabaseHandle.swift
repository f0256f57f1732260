import CLMDB

/// A named LMDB database (a B-tree inside the file), opened once per environment.
///
/// Plain bits, so copying one retains nothing: hot paths copy a handle per row (an index's name,
/// held as a `String`, was a retain and a release per index update; BENCHMARKS.md).
package struct DatabaseHandle: Sendable, Hashable {
    /// LMDB's handle, valid for the life of the environment.
    package let dbi: MDB_dbi
    /// The flags the database was created with.
    package let options: DatabaseOptions
    /// The name's number in ``DatabaseNameTable``.
    private let nameNumber: UInt32

    init(dbi: MDB_dbi, name: String?, options: DatabaseOptions) {
        self.dbi = dbi
        self.options = options
        nameNumber = DatabaseNameTable.number(of: name)
    }

    /// The name inside the file; `nil` for LMDB's unnamed main database.
    package var name: String? { DatabaseNameTable.name(numbered: nameNumber) }
}

/// Every database name this process opened, numbered once: names are few (a store's tables and
/// indexes), and a handle keeps the number.
private enum DatabaseNameTable {
    private static let table = Lock<(numbers: [String: UInt32], names: [String])>(([:], []))

    /// 0 for `nil`, otherwise the name's number (from 1).
    static func number(of name: String?) -> UInt32 {
        guard let name else { return 0 }
        return table.withLock { table in
            if let number = table.numbers[name] { return number }
            table.names.append(name)
            let number = UInt32(table.names.count)
            table.numbers[name] = number
            return number
        }
    }

    static func name(numbered number: UInt32) -> String? {
        guard number > 0 else { return nil }
        return table.withLock { $0.names[Int(number) - 1] }
    }
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
