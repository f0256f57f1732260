import CLMDB
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One LMDB environment: a store file, its lock file, and the memory map over it.
///
/// A store is one file plus `<file>-lock` beside it (`MDB_NOSUBDIR`). Read
/// transactions are not tied to threads (`MDB_NOTLS`), because Swift tasks hop
/// threads; a write transaction stays on the thread that began it.
///
/// One environment is shared per file per process: ``open(path:options:)`` hands
/// back the instance already open, because LMDB's locks misbehave when one
/// process opens the same file twice.
///
/// - Warning: Only the Storage layer calls LMDB; everything above it goes
///   through ``Transaction`` and ``Cursor``.
package final class Environment: @unchecked Sendable {
    // @unchecked because MDB_env is safe to share between threads; the one
    // operation that is not (resizing the map) runs under `gate`, which counts
    // this process's open transactions and resizes only when there are none.

    /// The store file's path, as given to ``open(path:options:)``.
    package let path: String
    /// The options the environment was opened with.
    package let options: EnvironmentOptions
    /// LMDB's page size for this file.
    package let pageSize: Int
    /// The largest key LMDB accepts (`mdb_env_get_maxkeysize`), 511 bytes in Debian's build.
    package let maxKeySize: Int
    /// How many stale reader slots, left by dead processes, the open cleared.
    package let staleReadersCleared: Int

    let pointer: OpaquePointer
    let gate: Lock<TransactionGate>
    /// Whether anyone watches the store's changes (so writes log them).
    let changeWatch: ChangeWatch
    let databases = Lock<[String: DatabaseHandle]>([:])
    /// The ID of the thread that holds the write transaction, 0 when none does (``WritingThread``).
    let writingThread = Atomic<UInt>(0)

    /// Opens the store at `path`, or returns the environment this process already has open for it.
    ///
    /// - Throws: ``ObjDBError/storeNotFound(path:)`` when the file is missing and
    ///   may not be created; ``ObjDBError/notAnObjDBStore(path:reason:)`` for a file LMDB
    ///   cannot read; ``ObjDBError/incompatibleOpen(path:reason:)`` when this process
    ///   has the file open with other options; ``ObjDBError/lmdb(_:operation:path:)`` otherwise.
    /// - Parameter checked: named databases whose pages a new open checks, beside the main
    ///   database's, before LMDB walks them (the format layer names its metadata database).
    package static func open(path: String, options: EnvironmentOptions = .init(), checking checked: [String] = [])
        throws -> Environment
    {
        let key = canonicalPath(path)
        return try registry.withLock { registry in
            if let existing = registry[key]?.environment {
                guard existing.options == options else {
                    throw ObjDBError.incompatibleOpen(
                        path: path,
                        reason: existing.options.readOnly == options.readOnly
                            ? "it was opened with other options"
                            : existing.options.readOnly ? "it is open read-only" : "it is open read-write")
                }
                return existing
            }
            let environment = try Environment(path: path, options: options, checking: checked)
            registry[key] = WeakEnvironment(environment: environment)
            return environment
        }
    }

    /// The environment this process has open for `path`, in whatever mode, or a new read-only one.
    ///
    /// For tools that only read (`objdb-inspect`, checks): a second, read-only
    /// open of a file this process has open would break LMDB's locks.
    package static func openForReading(path: String, checking checked: [String] = []) throws -> Environment {
        if let existing = registry.withLock({ $0[canonicalPath(path)]?.environment }) { return existing }
        var options = EnvironmentOptions()
        options.readOnly = true
        return try open(path: path, options: options, checking: checked)
    }

    private init(path: String, options: EnvironmentOptions, checking checked: [String]) throws {
        self.path = path
        self.options = options
        try options.validate()
        let existing = try Self.checkFile(at: path, options: options)

        var env: OpaquePointer?
        try lmdbCheck(mdb_env_create(&env), "mdb_env_create", path: path)
        guard let env else { throw ObjDBError.lmdb(.outOfMemory, operation: "mdb_env_create", path: path) }
        do {
            try lmdbCheck(mdb_env_set_maxreaders(env, options.maxReaders), "mdb_env_set_maxreaders", path: path)
            try lmdbCheck(mdb_env_set_maxdbs(env, MDB_dbi(options.maxDatabases)), "mdb_env_set_maxdbs", path: path)
            if !options.readOnly {
                try lmdbCheck(
                    mdb_env_set_mapsize(env, min(options.initialMapSize, options.maxMapSize)),
                    "mdb_env_set_mapsize", path: path)
            }
            var flags = UInt32(MDB_NOSUBDIR | MDB_NOTLS | MDB_NORDAHEAD)
            if options.readOnly { flags |= UInt32(MDB_RDONLY) }
            if options.durability == .processCrashOnly { flags |= UInt32(MDB_NOSYNC) }
            let code = mdb_env_open(env, path, flags, mdb_mode_t(options.fileMode))
            if code == MDB_INVALID || code == MDB_VERSION_MISMATCH {
                throw ObjDBError.notAnObjDBStore(
                    path: path,
                    reason: code == MDB_INVALID
                        ? "it is not an LMDB file (no LMDB meta page)"
                        : "it was written by an incompatible LMDB version")
            }
            try lmdbCheck(code, "mdb_env_open", path: path)
            if let existing { try Self.checkOpeningTrees(env, file: existing, following: checked) }

            var dead: Int32 = 0
            try lmdbCheck(mdb_reader_check(env, &dead), "mdb_reader_check", path: path)
            staleReadersCleared = Int(dead)

            var stat = MDB_stat()
            try lmdbCheck(mdb_env_stat(env, &stat), "mdb_env_stat", path: path)
            pageSize = Int(stat.ms_psize)
            maxKeySize = Int(mdb_env_get_maxkeysize(env))
            var info = MDB_envinfo()
            try lmdbCheck(mdb_env_info(env, &info), "mdb_env_info", path: path)
            gate = Lock(TransactionGate(mapSize: info.me_mapsize))
        } catch {
            mdb_env_close(env)
            throw error
        }
        pointer = env
        changeWatch = ChangeWatch(storePath: path, options: options)
    }

    deinit {
        mdb_env_close(pointer)
        changeWatch.close()
    }

    /// Flushes buffered commits to disk; needed only with ``EnvironmentOptions/Durability/processCrashOnly``.
    package func sync() throws {
        try lmdbCheck(mdb_env_sync(pointer, 1), "mdb_env_sync", path: path)
    }

    /// Clears reader slots left by processes that died with a read transaction open.
    ///
    /// - Returns: the number of slots cleared.
    @discardableResult
    package func clearStaleReaders() throws -> Int {
        var dead: Int32 = 0
        try lmdbCheck(mdb_reader_check(pointer, &dead), "mdb_reader_check", path: path)
        return Int(dead)
    }

    /// Writes a consistent copy of the store to `destination`, a new file (never an existing
    /// one), leaving out free pages; it is created with the store's ``EnvironmentOptions/fileMode``.
    package func copy(to destination: String, compacting: Bool = true) throws {
        let flags = compacting ? UInt32(MDB_CP_COMPACT) : 0
        let descriptor = Glibc.open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(options.fileMode))
        guard descriptor >= 0 else {
            throw ObjDBError.lmdb(LMDBResultCode(rawValue: errno), operation: "open", path: destination)
        }
        let code = mdb_env_copyfd2(pointer, descriptor, flags)
        Glibc.close(descriptor)
        if code != MDB_SUCCESS { unlink(destination) }
        try lmdbCheck(code, "mdb_env_copyfd2", path: path)
    }
}

extension Environment {
    fileprivate final class WeakEnvironment {
        weak var environment: Environment?
        init(environment: Environment) { self.environment = environment }
    }

    private static let registry = Lock<[String: WeakEnvironment]>([:])

    private static func canonicalPath(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// Rejects what LMDB would misread, crash on or silently create: a missing file that may
    /// not be created, a directory, a file too short to hold LMDB's two meta pages, damaged
    /// meta pages, and a file shorter than the pages its newest snapshot uses (truncated).
    ///
    /// - Returns: the file, read with bounds checks, when it exists and is not empty.
    private static func checkFile(at path: String, options: EnvironmentOptions) throws -> PageFile? {
        var status = stat()
        guard stat(path, &status) == 0 else {
            if errno == ENOENT && (options.readOnly || !options.createIfMissing) {
                throw ObjDBError.storeNotFound(path: path)
            }
            if errno == ENOENT { return nil }
            throw ObjDBError.lmdb(LMDBResultCode(rawValue: errno), operation: "stat", path: path)
        }
        if let problem = FileKind.problem(mode: status.st_mode) {
            throw ObjDBError.notAnObjDBStore(path: path, reason: problem)
        }
        if status.st_size == 0 && options.readOnly {
            throw ObjDBError.notAnObjDBStore(path: path, reason: "the file is empty")
        }
        // LMDB's smallest page is 4 KiB and a store starts with two meta pages.
        if status.st_size > 0 && status.st_size < 2 * 4096 {
            throw ObjDBError.notAnObjDBStore(
                path: path, reason: "the file holds \(status.st_size) bytes, fewer than LMDB's two meta pages")
        }
        guard status.st_size > 0 else { return nil }
        let file = try PageFile(path: path)
        try retryingTornReads {
            let metas = try MetaPages(file: file)
            if let problem = metas.problems(newestOnly: true).first {
                throw ObjDBError.damagedStore(path: path, reason: problem)
            }
            try PageCheck.checkLength(file: file, metas: metas)
        }
        return file
    }

    /// Runs a check of the file up to three times, a few milliseconds apart: a meta page read
    /// while another process's commit writes it may come out torn, and only damage that stays is
    /// damage.
    static func retryingTornReads<Result>(_ check: () throws -> Result) throws -> Result {
        for attempt in 0..<2 {
            do {
                return try check()
            } catch let error as ObjDBError where error.code == .damagedStore {
                usleep(useconds_t(2_000 << attempt))
            }
        }
        return try check()
    }

    /// Checks the trees LMDB walks while a store opens, inside a read transaction that keeps a
    /// concurrent writer from reusing their pages meanwhile.
    private static func checkOpeningTrees(_ env: OpaquePointer, file: PageFile, following names: [String]) throws {
        var txn: OpaquePointer?
        try lmdbCheck(mdb_txn_begin(env, nil, UInt32(MDB_RDONLY), &txn), "mdb_txn_begin", path: file.path)
        defer { mdb_txn_abort(txn) }
        try retryingTornReads {
            try PageCheck.checkOpening(
                file: PageFile(path: file.path), maxKeySize: Int(mdb_env_get_maxkeysize(env)), following: names)
        }
    }
}
