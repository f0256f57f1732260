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
        // The live watcher's count stays, and keeps every later commit logged.
        #expect(try announcedWatchers() == 1)
        try database.write { try $0.create(Counter.self, value: ["id": 2]) }
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

    @Test(arguments: [3, -2, Int64(Int32.max), Int64.min | 1])
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

    @Test func aStartingWatcherLeavesTheCountPastZeroWhateverTheFileHeld() throws {
        let database = try store()
        try setAnnouncedWatchers(-1)
        #expect(try database.environment.startWatchingChanges())
        defer { database.environment.stopWatchingChanges() }
        #expect(try announcedWatchers() == 1)
    }

    @Test func aCountAtItsLargestStaysThereUntilAResetClearsIt() throws {
        let database = try store()
        try setAnnouncedWatchers(Int64(Int32.max))
        #expect(try database.environment.startWatchingChanges())
        #expect(try announcedWatchers() == .max)
        database.environment.stopWatchingChanges()
        #expect(try announcedWatchers() == .max)
        try database.write { try $0.create(Counter.self, value: ["id": 1]) }
        #expect(try announcedWatchers() == 0)
    }

    @Test func aResetFailsAfterOneWatcherStoppedAndAnotherStarted() throws {
        _ = try store()
        let announcements = try #require(WatchAnnouncements(storePath: directory.store(), mode: 0o600, create: false))
        defer { announcements.close() }
        announcements.announce()
        // A writer reads the count of one watcher; that one stops, another starts: the count is 1 again.
        let reading = announcements.read()
        announcements.withdraw()
        announcements.announce()
        announcements.forget(reading)
        #expect(announcements.read().count == 1)
    }

    @Test func aReadOnlyOpenWithoutTheWatchFileCreatesNoneAndWatchesUnseen() throws {
        _ = try store()
        try FileManager.default.removeItem(atPath: watchFile)
        var configuration = Configuration(path: directory.store())
        configuration.readOnly = true
        let database = try Database(configuration: configuration)
        #expect(!FileManager.default.fileExists(atPath: watchFile))
        #expect(try !database.environment.startWatchingChanges())
        database.environment.stopWatchingChanges()
    }

    @Test func aWatchFileLinkedToAnotherFileIsLeftAlone() throws {
        let other = directory.store("other")
        let contents = Data(repeating: 0xAB, count: 64)
        #expect(FileManager.default.createFile(atPath: other, contents: contents))
        try FileManager.default.linkItem(atPath: other, toPath: watchFile)
        let database = try store()
        #expect(try !database.environment.startWatchingChanges())
        database.environment.stopWatchingChanges()
        #expect(FileManager.default.contents(atPath: other) == contents)
    }

    // MARK: - Helpers

    /// The store, with the model the child process opens it with.
    private func store() throws -> Database { try Database(path: directory.store(), types: [Counter.self]) }

    private var watchFile: String { directory.store() + "-watch" }

    /// The count of watching processes the store's watch file holds (the low half of its word).
    private func announcedWatchers() throws -> Int32 {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: watchFile))
        return Int32(truncatingIfNeeded: bytes.prefix(8).withUnsafeBytes { $0.loadUnaligned(as: Int64.self) })
    }

    /// Writes `count` into the watch file's word, as a process that died counted, or damage, would leave it.
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
