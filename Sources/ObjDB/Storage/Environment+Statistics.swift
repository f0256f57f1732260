import CLMDB

/// The shape of one B-tree (`MDB_stat`).
package struct DatabaseStatistics: Sendable, Hashable {
    /// Bytes per page.
    package var pageSize: Int
    /// Levels from root to leaves.
    package var depth: Int
    /// Internal (non-leaf) pages.
    package var branchPages: Int
    /// Leaf pages.
    package var leafPages: Int
    /// Pages holding values too large for a leaf.
    package var overflowPages: Int
    /// Key/value pairs.
    package var entries: Int

    init(_ stat: MDB_stat) {
        pageSize = Int(stat.ms_psize)
        depth = Int(stat.ms_depth)
        branchPages = stat.ms_branch_pages
        leafPages = stat.ms_leaf_pages
        overflowPages = stat.ms_overflow_pages
        entries = stat.ms_entries
    }

    /// Pages of every kind.
    package var totalPages: Int { branchPages + leafPages + overflowPages }
}

/// The environment as LMDB reports it (`MDB_envinfo`, `mdb_reader_list`).
package struct EnvironmentInfo: Sendable, Hashable {
    /// The size of the memory map in bytes.
    package var mapSize: Int
    /// The number of the last page in use; pages past it are free space in the map.
    package var lastPageNumber: Int
    /// The ID of the last committed transaction.
    package var lastTransactionID: Int
    /// Slots in the reader table.
    package var maxReaders: Int
    /// Reader-table slots ever used since the lock file was created.
    package var readerSlotsUsed: Int
    /// The reader table's live entries, one per open read transaction in any process.
    package var readers: [Reader]
    /// Bytes per page.
    package var pageSize: Int

    /// Bytes of the map in use.
    package var usedBytes: Int { (lastPageNumber + 1) * pageSize }

    /// One open read transaction, as the reader table holds it.
    package struct Reader: Sendable, Hashable {
        /// The reading process.
        package var processID: Int32
        /// The snapshot it reads: the transaction ID it pins.
        package var transactionID: Int
    }
}

extension Environment {
    /// LMDB's view of the environment now.
    package func info() throws -> EnvironmentInfo {
        var info = MDB_envinfo()
        try lmdbCheck(mdb_env_info(pointer, &info), "mdb_env_info", path: path)
        return EnvironmentInfo(
            mapSize: info.me_mapsize, lastPageNumber: info.me_last_pgno, lastTransactionID: info.me_last_txnid,
            maxReaders: Int(info.me_maxreaders), readerSlotsUsed: Int(info.me_numreaders),
            readers: try readers(), pageSize: pageSize)
    }

    /// The statistics of LMDB's main database, whose entries name the named databases.
    package func mainStatistics() throws -> DatabaseStatistics {
        var stat = MDB_stat()
        try lmdbCheck(mdb_env_stat(pointer, &stat), "mdb_env_stat", path: path)
        return DatabaseStatistics(stat)
    }

    /// The names of the named databases in the file, in key order.
    package func databaseNames() throws -> [String] {
        try read { transaction in
            let cursor = try transaction.cursor(try transaction.mainDatabase())
            var names: [String] = []
            try cursor.forEach { entry in
                names.append(String(decoding: entry.key, as: UTF8.self))
                return true
            }
            return names
        }
    }

    private func readers() throws -> [EnvironmentInfo.Reader] {
        final class Collector { var lines: [String] = [] }
        let collector = Collector()
        let code = withExtendedLifetime(collector) {
            mdb_reader_list(
                pointer,
                { message, context in
                    guard let message, let context else { return 0 }
                    let collector = Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue()
                    collector.lines.append(String(cString: message))
                    return 0
                }, Unmanaged.passUnretained(collector).toOpaque())
        }
        if code < 0 { try lmdbCheck(code, "mdb_reader_list", path: path) }
        // Lines read "    pid     thread     txnid"; the header and "(no active readers)" do not parse.
        return collector.lines.flatMap { $0.split(separator: "\n") }.compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count == 3, let pid = Int32(fields[0]), let txnid = Int(fields[2]) else { return nil }
            return EnvironmentInfo.Reader(processID: pid, transactionID: txnid)
        }
    }
}

extension Environment {
    /// The ID of the last committed transaction, from the meta page: cheap enough to poll.
    package func lastTransactionID() throws -> Int {
        var info = MDB_envinfo()
        try lmdbCheck(mdb_env_info(pointer, &info), "mdb_env_info", path: path)
        return info.me_last_txnid
    }
}
