import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether anyone, in any process, watches the store for changes: only then do writes keep a
/// change log, which costs a commit one more B-tree page.
///
/// A watching process holds a shared `fcntl` lock on one byte of the lock file, far past the
/// bytes LMDB locks (it locks byte 0 and a byte per process ID), and counts itself in
/// `<path>-watch` (``WatchAnnouncements``) while it holds it. A writer, inside its write
/// transaction, reads the count: 0 means no one watches, with no system call; past 0 it asks
/// the kernel whether another process holds the lock, which it drops when a process dies. A new
/// watcher, after announcing itself, waits for the write in progress (by beginning and ending a
/// write transaction) before it reads its first snapshot, so every commit after that snapshot
/// finds it and is logged.
final class ChangeWatch: Sendable {
    /// The lock file's byte that watchers lock: beyond any process ID LMDB locks.
    static let watchedByte: off_t = 1 << 40

    private let descriptor: Int32
    /// The count of watching processes, or `nil` when this process cannot map it: then its
    /// writers ask the lock every time and its watchers cannot be seen by other processes.
    private let announcements: WatchAnnouncements?
    private let localWatchers = Atomic<Int>(0)
    /// Whether this process holds the lock and is counted (done by its first watcher), under the mutex.
    private let lockHeld = Lock(false)

    init(storePath: String, options: EnvironmentOptions) {
        descriptor = open(storePath + "-lock", O_RDONLY | O_CLOEXEC)
        announcements = WatchAnnouncements(storePath: storePath, mode: options.fileMode, create: !options.readOnly)
    }

    /// Closes the descriptor and the count: call only after LMDB closed the environment, because
    /// closing any descriptor of a file drops every `fcntl` lock this process holds on it, LMDB's too.
    func close() {
        if descriptor >= 0 { _ = Glibc.close(descriptor) }
        announcements?.close()
    }

    /// Whether a commit now must log its changes.
    var isWatched: Bool {
        // This process's count is in the file only while it has watchers (``stop()`` takes it out first).
        if localWatchers.load(ordering: .acquiring) > 0 { return true }
        // Without the lock file no one can announce themselves: log, to be safe.
        guard descriptor >= 0 else { return true }
        guard let announcements else { return isLockedElsewhere }
        let announced = announcements.read()
        if announced.count == 0 { return false }
        if isLockedElsewhere { return true }
        // A watcher of this process that started since counted itself after the first check.
        if localWatchers.load(ordering: .acquiring) > 0 { return true }
        announcements.forget(announced)
        return false
    }

    /// Announces a watcher in this process.
    ///
    /// - Returns: whether other processes can see it (the lock was taken and counted); when
    ///   not, their commits may go unlogged, and the watcher must not trust the log.
    func start() -> Bool {
        lockHeld.withLock { held in
            let wasWatched = localWatchers.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue > 0
            guard descriptor >= 0, let announcements else { return false }
            if !wasWatched {
                var lock = Self.lock(F_RDLCK)
                held = fcntl(descriptor, F_SETLK, &lock) == 0
                // Counted only while locked, so a count left by a process that died is seen as such.
                if held { announcements.announce() }
            }
            // A later watcher is visible only if the first one's lock was taken.
            return held
        }
    }

    /// Withdraws a watcher started by ``start()``.
    func stop() {
        lockHeld.withLock { held in
            // The count and the lock go before this process stops counting as watching, so a
            // write here never takes this process's own count for one left by a dead process.
            if localWatchers.load(ordering: .acquiring) == 1, held {
                announcements?.withdraw()
                var lock = Self.lock(F_UNLCK)
                _ = fcntl(descriptor, F_SETLK, &lock)
                held = false
            }
            localWatchers.wrappingSubtract(1, ordering: .acquiringAndReleasing)
        }
    }

    /// Whether another process holds the watch lock (the kernel's answer; a system call).
    private var isLockedElsewhere: Bool {
        var probe = Self.lock(F_WRLCK)
        guard fcntl(descriptor, F_GETLK, &probe) == 0 else { return true }
        return probe.l_type != Int16(F_UNLCK)
    }

    private static func lock(_ type: Int32) -> flock {
        var lock = flock()
        lock.l_type = Int16(type)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = watchedByte
        lock.l_len = 1
        return lock
    }
}

extension Environment {
    /// Announces a watcher and waits out the write in progress, so every later commit logs.
    ///
    /// - Returns: whether commits by other processes will log too (see ``ChangeWatch/start()``).
    func startWatchingChanges() throws -> Bool {
        let visible = changeWatch.start()
        // A read-only open cannot begin a write to wait with: the caller trusts the log only from
        // the commit after the one that may be in progress (``logTrustedAfter(_:)``).
        if options.readOnly { return visible }
        // Any writer that looked before the lock was taken holds LMDB's write lock until it commits.
        do {
            let barrier = try beginWrite()
            barrier.abort()
        } catch {
            // A read-only open cannot wait for writers: its watch cannot be trusted.
            changeWatch.stop()
            throw error
        }
        return visible
    }

    /// The version after which the log lists every commit, for a watch started with the last
    /// committed version `last` read after ``startWatchingChanges()`` returned.
    ///
    /// A writer asks whether anyone watches when it begins (under LMDB's write lock). Read-write,
    /// the watch waited out the write in progress, so every commit after `last` logs. Read-only it
    /// cannot: the one write that may have begun before the watch was announced commits `last + 1`
    /// at the latest, and every write after it begins after the announcement.
    func logTrustedAfter(_ last: Int) -> Int {
        options.readOnly ? last + 1 : last
    }

    func stopWatchingChanges() {
        changeWatch.stop()
    }
}
