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
/// bytes LMDB locks (it locks byte 0 and a byte per process ID); a writer asks, inside its
/// write transaction, whether another process holds it. The kernel drops the lock when a
/// process dies. A new watcher, after taking the lock, waits for the write in progress (by
/// beginning and ending a write transaction) before it reads its first snapshot, so every
/// commit after that snapshot finds the lock and is logged.
final class ChangeWatch: Sendable {
    /// The lock file's byte that watchers lock: beyond any process ID LMDB locks.
    static let watchedByte: off_t = 1 << 40

    private let descriptor: Int32
    private let localWatchers = Atomic<Int>(0)
    /// Whether this process holds the lock (taken by its first watcher), under the mutex.
    private let lockHeld = Lock(false)

    init(lockFilePath: String) {
        descriptor = open(lockFilePath, O_RDONLY | O_CLOEXEC)
    }

    /// Closes the descriptor: call only after LMDB closed the environment, because closing any
    /// descriptor of a file drops every `fcntl` lock this process holds on it, LMDB's too.
    func close() {
        if descriptor >= 0 { _ = Glibc.close(descriptor) }
    }

    /// Whether a commit now must log its changes.
    var isWatched: Bool {
        if localWatchers.load(ordering: .acquiring) > 0 { return true }
        // Without the lock file no one can announce themselves: log, to be safe.
        guard descriptor >= 0 else { return true }
        var probe = Self.lock(F_WRLCK)
        guard fcntl(descriptor, F_GETLK, &probe) == 0 else { return true }
        return probe.l_type != Int16(F_UNLCK)
    }

    /// Announces a watcher in this process.
    ///
    /// - Returns: whether other processes can see it (the lock was taken); when not, their
    ///   commits may go unlogged, and the watcher must not trust the log.
    func start() -> Bool {
        lockHeld.withLock { held in
            let wasWatched = localWatchers.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue > 0
            guard descriptor >= 0 else { return false }
            if !wasWatched {
                var lock = Self.lock(F_RDLCK)
                held = fcntl(descriptor, F_SETLK, &lock) == 0
            }
            // A later watcher is visible only if the first one's lock was taken.
            return held
        }
    }

    /// Withdraws a watcher started by ``start()``.
    func stop() {
        lockHeld.withLock { held in
            let remaining = localWatchers.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue
            guard remaining == 0, held else { return }
            var lock = Self.lock(F_UNLCK)
            _ = fcntl(descriptor, F_SETLK, &lock)
            held = false
        }
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
