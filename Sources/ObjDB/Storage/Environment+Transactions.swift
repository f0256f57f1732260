extension Environment {
    /// Begins a read transaction on the latest committed snapshot.
    package func beginRead() throws -> Transaction {
        try Transaction(environment: self, readOnly: true)
    }

    /// Begins the write transaction, waiting while another thread or process holds it.
    ///
    /// - Throws: ``ObjDBError/readOnly(path:operation:)`` on a read-only environment.
    package func beginWrite() throws -> Transaction {
        if options.readOnly { throw ObjDBError.readOnly(path: path, operation: "begin a write transaction") }
        return try Transaction(environment: self, readOnly: false)
    }

    /// Runs `body` in a read transaction and ends it when `body` returns.
    ///
    /// A read transaction that returns normally ends with a commit, which keeps
    /// the handles of databases it opened for later transactions.
    @discardableResult
    package func read<Result>(_ body: (Transaction) throws -> Result) throws -> Result {
        try beginRead().run(body)
    }

    /// Runs `body` in a write transaction that commits when `body` returns and
    /// rolls back when it throws.
    @discardableResult
    package func write<Result>(_ body: (Transaction) throws -> Result) throws -> Result {
        try beginWrite().run(body)
    }

    func cachedDatabase(_ name: String) -> DatabaseHandle? {
        databases.withLock { $0[name] }
    }

    func register(_ opened: [String: DatabaseHandle]) {
        databases.withLock { $0.merge(opened) { old, _ in old } }
    }
}
