import CLMDB

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How many processes have announced a watcher on the store: a counter in `<path>-watch`,
/// mapped shared by every process that opens the store, so a writer reads it without a
/// system call.
///
/// The count is a hint that only errs one way. A process adds one while it holds the watch
/// lock (``ChangeWatch``) and takes its one away before it lets the lock go, so while no one
/// watches it is 0, and a writer that reads 0 logs nothing. A process that dies while watching
/// leaves its one behind: a writer that reads more than 0 asks the lock, which the kernel let
/// go with the process, and sets the count back to 0 when no one holds it (``forget(_:)``).
///
/// The word holds the count in its low 32 bits and, above them, how many times a watcher
/// started: a reset compares the whole word with the one the writer read, so it fails after
/// any start or stop in between, even one that left the count where it was.
struct WatchAnnouncements: Sendable {
    /// The word as a writer read it, to decide on and to ``forget(_:)``.
    struct Reading {
        fileprivate let word: Int64
        /// The number of processes counted: 0 when no one watches (any other value, a negative
        /// one from a damaged file too, is asked of the lock).
        var count: Int32 { Int32(truncatingIfNeeded: word) }
    }

    /// The counter's address in the mapping; an integer, not a pointer, so the type is plainly
    /// `Sendable`. The mapping lives until ``close()``, which ``ChangeWatch`` calls only after
    /// the environment is closed, when no write can read it any more.
    private let address: UInt

    /// Maps the counter file beside the store, creating it with `mode` (as LMDB does its lock
    /// file) if `create`; `nil` when the process cannot open it read-write, or it is not one
    /// plain file, and then it announces nothing. A read-only open does not create it: every
    /// open that can write does.
    init?(storePath: String, mode: UInt32, create: Bool) {
        let flags = O_RDWR | O_CLOEXEC | O_NOFOLLOW | (create ? O_CREAT : 0)
        let descriptor = open(storePath + "-watch", flags, mode_t(mode))
        guard descriptor >= 0 else { return nil }
        defer { _ = Glibc.close(descriptor) }
        var status = stat()
        // A hard link would have writes change another file's first bytes.
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_nlink == 1 else {
            return nil
        }
        // Growing the file zero-fills it; two processes growing it at once grow it to one size.
        if status.st_size < Self.fileSize, ftruncate(descriptor, off_t(Self.fileSize)) != 0 { return nil }
        let mapping = mmap(nil, Self.fileSize, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0)
        guard let mapping, mapping != MAP_FAILED else { return nil }
        address = UInt(bitPattern: mapping)
    }

    /// The word now.
    func read() -> Reading { Reading(word: objdb_shared_load(counter)) }

    /// Counts this process's watcher. A count found below 0 (a damaged file) counts from 0, and
    /// one at `Int32.max` stays there (only a reset clears it), so a started watcher always
    /// leaves the count past 0.
    func announce() {
        var current = objdb_shared_load(counter)
        while true {
            let found = max(Int32(truncatingIfNeeded: current), 0)
            let count = Int64(found == .max ? found : found + 1)
            let started = (current >> 32) &+ 1
            let next = (started << 32) | count
            if objdb_shared_replace(counter, current, next) != 0 { return }
            current = objdb_shared_load(counter)
        }
    }

    /// Takes this process's watcher out of the count: never below 0, and never from `Int32.max`,
    /// where the count no longer says how many watch.
    func withdraw() {
        var current = objdb_shared_load(counter)
        while true {
            let count = Int32(truncatingIfNeeded: current)
            guard count > 0, count != .max else { return }
            if objdb_shared_replace(counter, current, current - 1) != 0 { return }
            current = objdb_shared_load(counter)
        }
    }

    /// Sets the count back to 0 if the word is still `stale`: called when the count is not 0
    /// but no process holds the watch lock, so what it counts died. A watcher that started or
    /// stopped since changed the word, and the count stays.
    func forget(_ stale: Reading) {
        _ = objdb_shared_replace(counter, stale.word, stale.word & ~0xFFFF_FFFF)
    }

    /// Unmaps the counter.
    func close() { munmap(UnsafeMutableRawPointer(bitPattern: address), Self.fileSize) }

    private var counter: UnsafeMutablePointer<Int64> { UnsafeMutablePointer(bitPattern: address).unsafelyUnwrapped }

    /// The file's size: the counter, with room to spare for a later format.
    private static let fileSize = 64
}
