import CLMDB

/// Counts this process's open top-level transactions, so the map is resized only
/// when none is open: `mdb_env_set_mapsize` remaps the file, and a transaction
/// open across it would read freed memory.
struct TransactionGate: ~Copyable {
    var mapSize: Int
    var openTransactions = 0
    /// A size the map should grow to as soon as no transaction is open.
    var pendingMapSize: Int?

    init(mapSize: Int) {
        self.mapSize = mapSize
    }
}

extension Environment {
    /// The current size of the memory map, in bytes.
    package var mapSize: Int {
        gate.withLock { $0.mapSize }
    }

    /// Registers a transaction about to begin. For a write, first grows the map
    /// when the data fills more than ``EnvironmentOptions/growthThreshold`` of it.
    func enterTransaction(forWriting: Bool) throws {
        let usedBytes = forWriting && !options.readOnly ? try self.usedBytes() : 0
        try gate.withLock { gate throws(ObjDBError) in
            if forWriting, Double(usedBytes) > Double(gate.mapSize) * options.growthThreshold {
                let target = max(gate.mapSize * 2, usedBytes * 2)
                gate.pendingMapSize = max(gate.pendingMapSize ?? 0, target)
            }
            if gate.openTransactions == 0 {
                try applyPendingGrowth(&gate)
            }
            gate.openTransactions += 1
        }
    }

    /// Unregisters a transaction that ended, and applies growth that waited for it.
    func leaveTransaction() {
        gate.withLock { gate in
            gate.openTransactions -= 1
            if gate.openTransactions == 0 {
                // Growth that fails here is retried before the next write and
                // reported by it, so there is nothing to throw to.
                try? applyPendingGrowth(&gate)
            }
        }
    }

    /// Records that a write failed with `MDB_MAP_FULL` and asks for a larger map.
    ///
    /// - Returns: the error that tells the caller what happened.
    func mapFullError() -> ObjDBError {
        gate.withLock { gate in
            if gate.mapSize < options.maxMapSize {
                gate.pendingMapSize = max(gate.pendingMapSize ?? 0, gate.mapSize * 2)
            }
            // The failed write transaction itself is still counted until it ends.
            return .mapFull(
                path: path, mapSize: gate.mapSize, maxMapSize: options.maxMapSize,
                openReaders: max(gate.openTransactions - 1, 0))
        }
    }

    /// Adopts a map size another process set (`MDB_MAP_RESIZED`), once no transaction is open.
    func adoptResizedMap() throws {
        try gate.withLock { gate throws(ObjDBError) in
            guard gate.openTransactions == 0 else {
                throw .lmdb(.mapResized, operation: "mdb_txn_begin", path: path)
            }
            try lmdbCheck(mdb_env_set_mapsize(pointer, 0), "mdb_env_set_mapsize", path: path)
            gate.mapSize = try currentMapSize()
        }
    }

    private func applyPendingGrowth(_ gate: inout TransactionGate) throws(ObjDBError) {
        guard let requested = gate.pendingMapSize else { return }
        let target = roundUp(min(requested, options.maxMapSize), to: pageSize)
        if target > gate.mapSize {
            // The request stays pending until the resize succeeds, so a failure is retried.
            try lmdbCheck(mdb_env_set_mapsize(pointer, target), "mdb_env_set_mapsize", path: path)
            gate.mapSize = try currentMapSize()
        }
        gate.pendingMapSize = nil
    }

    private func currentMapSize() throws(ObjDBError) -> Int {
        var info = MDB_envinfo()
        try lmdbCheck(mdb_env_info(pointer, &info), "mdb_env_info", path: path)
        return info.me_mapsize
    }

    /// Bytes of the map the last committed transaction uses.
    func usedBytes() throws(ObjDBError) -> Int {
        var info = MDB_envinfo()
        try lmdbCheck(mdb_env_info(pointer, &info), "mdb_env_info", path: path)
        return (info.me_last_pgno + 1) * pageSize
    }
}

private func roundUp(_ value: Int, to multiple: Int) -> Int {
    (value + multiple - 1) / multiple * multiple
}

extension Environment {
    /// Whether the map waits to grow until every read transaction of the process ends.
    var hasPendingGrowth: Bool {
        gate.withLock { $0.pendingMapSize != nil }
    }
}
