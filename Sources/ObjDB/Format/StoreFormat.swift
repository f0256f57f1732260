/// The stamp that makes an LMDB file an ObjDB store, and the check of it on open.
///
/// Named database `objdb.meta`, key `header` (ASCII), holds 16 bytes:
///
/// | offset | size | field |
/// |---|---|---|
/// | 0 | 8 | magic: `89 4F 42 4A 44 42 0D 0A` (`\x89OBJDB\r\n`) |
/// | 8 | 4 | format version, unsigned big-endian |
/// | 12 | 4 | reserved, zero |
///
/// Invariant: a file with this record has a format version this build reads, or is refused on
/// open before anything else is read: format 2 changed every record and table key, so a format 1
/// store cannot be read as one (``ObjDBError/olderFormat(path:found:supported:)``). Format 3 is
/// format 2 with the full-text index's recent segment, which a format 2 build would not read (it
/// would miss the objects in it); format 4 moves the segment and the statistics into a database
/// of their own (``FullTextSegment``), where a format 3 build would not look. A store of format 2
/// or 3 reads as it is; the first open that may write moves its segments and marks it format 4,
/// before anything else is written.
package enum StoreFormat {
    /// Identifies an ObjDB store; must equal the first 8 bytes of the header.
    package static let magic: [UInt8] = [0x89, 0x4F, 0x42, 0x4A, 0x44, 0x42, 0x0D, 0x0A]
    /// The format this build writes.
    package static let version: UInt32 = 4
    /// The oldest format this build reads: format 2 is format 3 without full-text recent segments,
    /// and format 3 is format 4 with them in the chunks' database.
    package static let oldestReadableVersion: UInt32 = 2
    /// The named database holding the header (and, later, the stored schema).
    package static let metaDatabaseName = DatabaseNames.meta
    /// The key of the header record.
    package static let headerKey = MetaKeys.header
    /// The header's size in bytes.
    package static let headerSize = 16

    /// Opens the environment at `path` and checks that it is an ObjDB store of a
    /// format this build reads; a new or empty file becomes one.
    ///
    /// - Returns: the environment and the store's format version.
    /// - Throws: ``ObjDBError/notAnObjDBStore(path:reason:)`` for a foreign LMDB file
    ///   or a damaged header, ``ObjDBError/newerFormat(path:found:supported:)`` for a newer one,
    ///   ``ObjDBError/olderFormat(path:found:supported:)`` for an older one.
    ///
    /// A store of an older readable format is left as it is: `Database` marks it in its opening
    /// transaction, with the moves format 4 asks for (``markCurrent(in:)``), so that an open that
    /// fails leaves it as it was and a marked store never has its segments where format 3 kept them.
    package static func open(path: String, options: EnvironmentOptions = .init()) throws -> (Environment, UInt32) {
        try validate(try Environment.open(path: path, options: options, checking: [DatabaseNames.meta]))
    }

    /// Checks that `environment` is an ObjDB store of a format this build reads,
    /// stamping a new or empty file when the environment may write.
    package static func validate(_ environment: Environment) throws -> (Environment, UInt32) {
        let path = environment.path
        let options = environment.options
        let found = try environment.read { transaction in
            try readVersion(in: transaction)
        }
        if let found { return (environment, found) }
        if options.readOnly {
            throw ObjDBError.notAnObjDBStore(path: path, reason: try describeForeign(environment))
        }
        let created = try environment.write { transaction -> UInt32 in
            // Another process may have stamped the file since the read above.
            if let found = try readVersion(in: transaction) { return found }
            let main = try transaction.mainDatabase()
            guard try transaction.statistics(of: main).entries == 0 else {
                throw ObjDBError.notAnObjDBStore(path: path, reason: try describeForeign(environment))
            }
            let meta = try transaction.openDatabase(named: metaDatabaseName, options: .create)
            try headerKey.withUnsafeBytes { key in
                try encodeHeader().withUnsafeBytes { value in
                    _ = try transaction.put(value, forKey: key, in: meta)
                }
            }
            return version
        }
        return (environment, created)
    }

    /// The format version of the store `transaction` reads, or `nil` when it has no header.
    static func readVersion(in transaction: Transaction) throws -> UInt32? {
        let path = transaction.environment.path
        guard let meta = try transaction.openDatabaseIfPresent(named: metaDatabaseName) else { return nil }
        guard let header = try headerKey.withUnsafeBytes({ try transaction.get($0, in: meta) }) else {
            throw ObjDBError.notAnObjDBStore(path: path, reason: "the \(metaDatabaseName) database has no header")
        }
        guard header.count >= headerSize, header.prefix(magic.count).elementsEqual(magic) else {
            throw ObjDBError.notAnObjDBStore(path: path, reason: "the header's magic is wrong")
        }
        let found = header[8..<12].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard found <= version else {
            throw ObjDBError.newerFormat(path: path, found: found, supported: version)
        }
        guard found >= oldestReadableVersion else {
            throw ObjDBError.olderFormat(path: path, found: found, supported: oldestReadableVersion)
        }
        return found
    }

    /// Marks a store of an older readable format as this build's, in `transaction`, so that an
    /// older build refuses it from now on instead of misreading what this one writes. Only
    /// `Database`'s opening transaction calls it, after moving the full-text segments.
    package static func markCurrent(in transaction: Transaction) throws {
        // Another process may have marked it since this one read the header.
        guard let current = try readVersion(in: transaction), current < version else { return }
        let meta = try transaction.openDatabase(named: metaDatabaseName, options: [])
        try headerKey.withUnsafeBytes { key in
            try encodeHeader().withUnsafeBytes { value in
                _ = try transaction.put(value, forKey: key, in: meta)
            }
        }
    }

    static func encodeHeader(version: UInt32 = version) -> [UInt8] {
        magic + withUnsafeBytes(of: version.bigEndian) { Array($0) } + [0, 0, 0, 0]
    }

    private static func describeForeign(_ environment: Environment) throws -> String {
        let names = try environment.databaseNames()
        return names.isEmpty
            ? "an empty LMDB file without an ObjDB header"
            : "an LMDB file without an ObjDB header (databases: \(names.prefix(5).joined(separator: ", ")))"
    }
}
