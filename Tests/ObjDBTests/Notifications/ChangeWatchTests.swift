import Foundation
import TestSupport
import Testing

@testable import ObjDB

/// Writes log their changes exactly while some process watches the store: the count of
/// watching processes in `<path>-watch` decides without a system call, and the watch lock
/// decides when a process that counted itself died.
@Suite("Change log: who watches")
struct ChangeWatchTests {
    let directory = TemporaryDirectory()

    @Test func aWatcherCountsItsProcessOnceWhileItWatches() throws {
        let database = try store()
        #expect(try announcedWatchers() == 0)
        #expect(try database.environment.startWatchingChanges())
        #expect(try database.environment.startWatchingChanges())
        #expect(try announcedWatchers() == 1)
        database.environment.stopWatchingChanges()
        #expect(try announcedWatchers() == 1)
        database.environment.stopWatchingChanges()
        #expect(try announcedWatchers() == 0)
    }

    @Test func aCommitIsLoggedWhileAnotherProcessWatches() throws {
        let database = try store()
        let watcher = try startWatcher()
        defer { stop(watcher) }
        #expect(try announcedWatchers() == 1)
        try database.write { try $0.create(Counter.self, value: ["id": 1]) }
        #expect(try lastCommitIsLogged(database))
    }

    @Test func aWatcherThatDiedIsForgottenByTheNextWrite() throws {
        let database = try store()
        stop(try startWatcher())
        // Killed, it could not take itself out of the count; the kernel dropped its lock.
        #expect(try announcedWatchers() == 1)
        try database.write { try $0.create(Counter.self, value: ["id": 1]) }
        #expect(try !lastCommitIsLogged(database))
        #expect(try announcedWatchers() == 0)
    }

    @Test(arguments: [3, -2, Int64.min])
    func aCountNoLockBacksIsForgotten(count: Int64) throws {
        let database = try store()
        try setAnnouncedWatchers(count)
        try database.write { try $0.create(Counter.self, value: ["id": 1]) }
        #expect(try !lastCommitIsLogged(database))
        #expect(try announcedWatchers() == 0)
    }

    @Test func aWatcherInThisProcessIsLoggedForWhateverTheCountSays() throws {
        let database = try store()
        #expect(try database.environment.startWatchingChanges())
        defer { database.environment.stopWatchingChanges() }
        try setAnnouncedWatchers(0)
        try database.write { try $0.create(Counter.self, value: ["id": 1]) }
        #expect(try lastCommitIsLogged(database))
    }

    @Test func aReadOnlyOpenCreatesNoWatchFile() throws {
        let path = directory.store("plain.objdb")
        try makeForeignLMDBFile(at: path, databases: ["things"])
        try? FileManager.default.removeItem(atPath: path + "-watch")
        var configuration = Configuration(path: path)
        configuration.readOnly = true
        _ = try? Database(configuration: configuration)
        #expect(!FileManager.default.fileExists(atPath: path + "-watch"))
    }

    // MARK: - Helpers

    /// The store, with the model the child process opens it with.
    private func store() throws -> Database { try Database(path: directory.store(), types: [Counter.self]) }

    private var watchFile: String { directory.store() + "-watch" }

    /// The count of watching processes the store's watch file holds.
    private func announcedWatchers() throws -> Int64 {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: watchFile))
        return bytes.prefix(8).withUnsafeBytes { $0.loadUnaligned(as: Int64.self) }
    }

    /// Writes `count` into the watch file, as a process that died counted would leave it.
    private func setAnnouncedWatchers(_ count: Int64) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: watchFile))
        defer { try? handle.close() }
        try handle.write(contentsOf: withUnsafeBytes(of: count) { Data($0) })
    }

    /// Whether the log holds an entry of the store's last commit.
    private func lastCommitIsLogged(_ database: Database) throws -> Bool {
        let version = try database.view().version
        return try database.environment.read { try ChangeLog.hasEntry(of: version, in: $0, log: database.changeLog!) }
    }

    /// Starts a process that observes the store, and waits until it watches.
    private func startWatcher() throws -> Process {
        let child = Process()
        child.executableURL = builtProductsDirectory().appendingPathComponent("objdb-test-child")
        child.arguments = ["watch", directory.store()]
        let output = Pipe()
        let error = Pipe()
        child.standardOutput = output
        child.standardError = error
        try child.run()
        var said = ""
        while !said.contains("watching") {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty {
                let complaint = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                throw TestFailure("the child process ended before it watched the store: \(complaint)")
            }
            said += String(decoding: data, as: UTF8.self)
        }
        return child
    }

    /// Kills `child` as a crash would.
    private func stop(_ child: Process) {
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
    }
}
