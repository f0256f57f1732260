import CLMDB
import Foundation
import TestSupport
import Testing

@testable import ObjDB

@Suite("Opening stores")
struct OpeningTests {
    let directory = TemporaryDirectory()

    var readOnly: EnvironmentOptions {
        var options = EnvironmentOptions()
        options.readOnly = true
        return options
    }

    @Test func aNewStoreIsStampedWithTheCurrentFormat() throws {
        let (_, version) = try StoreFormat.open(path: directory.store())
        #expect(version == StoreFormat.version)
        #expect(FileManager.default.fileExists(atPath: directory.store() + "-lock"))
    }

    @Test func aGarbageFileIsNotAnObjDBStore() throws {
        var generator = SystemRandomNumberGenerator()
        let garbage = Data((0..<65_536).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try garbage.write(to: URL(fileURLWithPath: directory.store()))
        #expect(
            throws: ObjDBError.notAnObjDBStore(
                path: directory.store(), reason: "it is not an LMDB file (no LMDB meta page)")
        ) {
            try StoreFormat.open(path: directory.store())
        }
        #expect(throws: ObjDBError.self) { try StoreFormat.open(path: directory.store(), options: readOnly) }
    }

    @Test func aTextFileTooShortForLMDBIsNotAnObjDBStore() throws {
        try Data("hello, world\n".utf8).write(to: URL(fileURLWithPath: directory.store()))
        #expect {
            try StoreFormat.open(path: directory.store())
        } throws: { error in
            guard let error = error as? ObjDBError, error.code == .notAnObjDBStore else { return false }
            let reason = error.message
            return reason.contains("13 bytes")
        }
    }

    @Test func aDirectoryIsNotAnObjDBStore() throws {
        #expect(throws: ObjDBError.notAnObjDBStore(path: directory.path, reason: "it is a directory")) {
            try StoreFormat.open(path: directory.path)
        }
    }

    @Test func aMissingFileOpenedReadOnlyIsNotFound() throws {
        #expect(throws: ObjDBError.storeNotFound(path: directory.store("missing.objdb"))) {
            try StoreFormat.open(path: directory.store("missing.objdb"), options: readOnly)
        }
        var noCreate = EnvironmentOptions()
        noCreate.createIfMissing = false
        #expect(throws: ObjDBError.storeNotFound(path: directory.store("missing.objdb"))) {
            try StoreFormat.open(path: directory.store("missing.objdb"), options: noCreate)
        }
    }

    @Test func anEmptyFileReadOnlyIsNotAnObjDBStore() throws {
        _ = FileManager.default.createFile(atPath: directory.store(), contents: Data())
        #expect(throws: ObjDBError.notAnObjDBStore(path: directory.store(), reason: "the file is empty")) {
            try StoreFormat.open(path: directory.store(), options: readOnly)
        }
    }

    @Test func aForeignLMDBFileIsNotAnObjDBStore() throws {
        try makeForeignLMDBFile(at: directory.store(), databases: ["invoices"])
        for options in [EnvironmentOptions(), readOnly] {
            #expect {
                try StoreFormat.open(path: directory.store(), options: options)
            } throws: { error in
                guard let error = error as? ObjDBError, error.code == .notAnObjDBStore else { return false }
                let reason = error.message
                return reason.contains("invoices")
            }
        }
    }

    @Test func anEmptyLMDBFileBecomesAStoreWhenOpenedForWriting() throws {
        try makeForeignLMDBFile(at: directory.store(), databases: [])
        #expect(throws: ObjDBError.self) { try StoreFormat.open(path: directory.store(), options: readOnly) }
        let (_, version) = try StoreFormat.open(path: directory.store())
        #expect(version == StoreFormat.version)
    }

    @Test func aStoreOfANewerFormatIsRefused() throws {
        try rewriteHeader(StoreFormat.encodeHeader(version: StoreFormat.version + 1))
        for options in [EnvironmentOptions(), readOnly] {
            #expect(
                throws: ObjDBError.newerFormat(
                    path: directory.store(), found: StoreFormat.version + 1, supported: StoreFormat.version)
            ) {
                try StoreFormat.open(path: directory.store(), options: options)
            }
        }
    }

    @Test func aHeaderWithTheWrongMagicIsRefused() throws {
        try rewriteHeader(Array("NOT-OBJDB-HEADER".utf8))
        #expect(throws: ObjDBError.notAnObjDBStore(path: directory.store(), reason: "the header's magic is wrong")) {
            try StoreFormat.open(path: directory.store())
        }
    }

    @Test func aReadOnlyStoreRefusesWrites() throws {
        do {
            let (environment, records) = try makeStore(in: directory)
            try environment.write { try $0.put("v", forKey: "k", in: records) }
        }
        let (environment, _) = try StoreFormat.open(path: directory.store(), options: readOnly)
        let path = directory.store()
        #expect(throws: ObjDBError.readOnly(path: path, operation: "begin a write transaction")) {
            try environment.write { _ in }
        }
        #expect(throws: ObjDBError.readOnly(path: path, operation: "put")) {
            try environment.read { transaction in
                try transaction.put("w", forKey: "k", in: try transaction.openDatabase(named: "records"))
            }
        }
        let value = try environment.read {
            try $0.string(forKey: "k", in: try $0.openDatabase(named: "records"))
        }
        #expect(value == "v")
    }

    @Test func aReadTransactionOfAWritableStoreRefusesWrites() throws {
        let (environment, records) = try makeStore(in: directory)
        #expect(throws: ObjDBError.notInWriteTransaction(operation: "put")) {
            try environment.read { try $0.put("v", forKey: "k", in: records) }
        }
    }

    @Test func keysOutsideLMDBsLimitsAreTypedErrors() throws {
        let (environment, records) = try makeStore(in: directory)
        let long = String(repeating: "k", count: environment.maxKeySize + 1)
        #expect(
            throws: ObjDBError.keyTooLarge(
                size: environment.maxKeySize + 1, maximum: environment.maxKeySize, operation: "mdb_put")
        ) {
            try environment.write { try $0.put("v", forKey: long, in: records) }
        }
        #expect(throws: ObjDBError.emptyKey(operation: "mdb_put")) {
            try environment.write { try $0.put("v", forKey: "", in: records) }
        }
        let longest = String(repeating: "k", count: environment.maxKeySize)
        try environment.write { try $0.put("v", forKey: longest, in: records) }
        #expect(try environment.read { try $0.string(forKey: longest, in: records) } == "v")
    }

    @Test func openingTheSameFileTwiceSharesOneEnvironment() throws {
        let (first, _) = try StoreFormat.open(path: directory.store())
        let (second, _) = try StoreFormat.open(path: directory.path + "/./store.objdb")
        #expect(first === second)
    }

    @Test func openingAnOpenFileWithOtherOptionsIsRefused() throws {
        let (environment, _) = try StoreFormat.open(path: directory.store())
        #expect(throws: ObjDBError.incompatibleOpen(path: directory.store(), reason: "it is open read-write")) {
            try StoreFormat.open(path: directory.store(), options: readOnly)
        }
        withExtendedLifetime(environment) {}
    }

    @Test func theReaderTableSizeIsConfigurable() throws {
        var options = EnvironmentOptions()
        options.maxReaders = 3
        let (environment, _) = try StoreFormat.open(path: directory.store(), options: options)
        let readers = try (0..<3).map { _ in try environment.beginRead() }
        #expect(throws: ObjDBError.lmdb(.readersFull, operation: "mdb_txn_begin", path: directory.store())) {
            try environment.beginRead()
        }
        readers.forEach { $0.abort() }
        #expect(try environment.info().maxReaders == 3)
    }

    @Test func staleReadersOfDeadProcessesAreClearedOnOpen() throws {
        _ = try StoreFormat.open(path: directory.store())  // created, then closed
        // A live process keeps the lock table from being reset, as it is for the first opener.
        let survivor = try startReaderProcess()
        defer { stop(survivor) }
        stop(try startReaderProcess())

        let (environment, _) = try StoreFormat.open(path: directory.store())
        #expect(environment.staleReadersCleared == 1)
        #expect(try environment.info().readers.map(\.processID) == [survivor.processIdentifier])
    }

    @Test func staleReadersAreClearedOnRequestWhileTheStoreIsOpen() throws {
        let (environment, _) = try StoreFormat.open(path: directory.store())
        stop(try startReaderProcess())
        #expect(try environment.clearStaleReaders() == 1)
        #expect(try environment.clearStaleReaders() == 0)
    }

    /// Starts a child process that holds a read transaction on the store, and waits until it does.
    func startReaderProcess() throws -> Process {
        let child = Process()
        child.executableURL = builtProductsDirectory().appendingPathComponent("objdb-test-child")
        child.arguments = ["hold-reader", directory.store()]
        let output = Pipe()
        child.standardOutput = output
        try child.run()
        var said = ""
        while !said.contains("ready") {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { throw TestFailure("the child process ended before it held a reader") }
            said += String(decoding: data, as: UTF8.self)
        }
        return child
    }

    /// Kills `child` as a crash would, leaving its reader slot behind.
    func stop(_ child: Process) {
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
    }

    /// Replaces the store's header record with `bytes`, then closes the store.
    func rewriteHeader(_ bytes: [UInt8]) throws {
        let (environment, _) = try StoreFormat.open(path: directory.store())
        try environment.write { transaction in
            let meta = try transaction.openDatabase(named: StoreFormat.metaDatabaseName)
            try StoreFormat.headerKey.withUnsafeBytes { key in
                try bytes.withUnsafeBytes { _ = try transaction.put($0, forKey: key, in: meta) }
            }
        }
    }
}

/// Creates an LMDB file with LMDB's C API alone, holding one record in each named database.
func makeForeignLMDBFile(at path: String, databases: [String]) throws {
    var env: OpaquePointer?
    guard mdb_env_create(&env) == 0 else { throw TestFailure("mdb_env_create") }
    defer { mdb_env_close(env) }
    mdb_env_set_maxdbs(env, 8)
    guard mdb_env_open(env, path, UInt32(MDB_NOSUBDIR), 0o644) == 0 else { throw TestFailure("mdb_env_open") }
    var txn: OpaquePointer?
    guard mdb_txn_begin(env, nil, 0, &txn) == 0 else { throw TestFailure("mdb_txn_begin") }
    for name in databases {
        var dbi = MDB_dbi()
        guard mdb_dbi_open(txn, name, UInt32(MDB_CREATE), &dbi) == 0 else { throw TestFailure("mdb_dbi_open") }
        var key = Array("k".utf8)
        var value = Array("v".utf8)
        let code = key.withUnsafeMutableBytes { keyBytes in
            value.withUnsafeMutableBytes { valueBytes in
                var keyValue = MDB_val(mv_size: 1, mv_data: keyBytes.baseAddress)
                var dataValue = MDB_val(mv_size: 1, mv_data: valueBytes.baseAddress)
                return mdb_put(txn, dbi, &keyValue, &dataValue, 0)
            }
        }
        guard code == 0 else { throw TestFailure("mdb_put") }
    }
    guard mdb_txn_commit(txn) == 0 else { throw TestFailure("mdb_txn_commit") }
}
