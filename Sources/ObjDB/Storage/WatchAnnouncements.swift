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
struct WatchAnnouncements: Sendable {
    /// The counter's address in the mapping; an integer, not a pointer, so the type is plainly
    /// `Sendable`. The mapping lives until ``close()``, which ``ChangeWatch`` calls only after
    /// the environment is closed, when no write can read it any more.
    private let address: UInt

    /// Maps the counter file beside the store, creating it with `mode` (as LMDB does its lock
    /// file) if `create`; `nil` when the process cannot open it read-write, and then it
    /// announces nothing. A read-only open does not create it: every open that can write does.
    init?(storePath: String, mode: UInt32, create: Bool) {
        let flags = O_RDWR | O_CLOEXEC | O_NOFOLLOW | (create ? O_CREAT : 0)
        let descriptor = open(storePath + "-watch", flags, mode_t(mode))
        guard descriptor >= 0 else { return nil }
        defer { _ = Glibc.close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        // Growing the file zero-fills it; two processes growing it at once grow it to one size.
        if status.st_size < Self.fileSize, ftruncate(descriptor, off_t(Self.fileSize)) != 0 { return nil }
        let mapping = mmap(nil, Self.fileSize, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0)
        guard let mapping, mapping != MAP_FAILED else { return nil }
        address = UInt(bitPattern: mapping)
    }

    /// The announced count: 0 when no process watches.
    var count: Int64 { objdb_shared_load(counter) }

    /// Adds this process's watcher (`delta` 1) or takes it away (`delta` -1).
    func announce(_ delta: Int64) { _ = objdb_shared_add(counter, delta) }

    /// Sets the count back to 0 if it still is `stale`: called when the count is past zero but
    /// no process holds the watch lock, so what it counts died. A watcher that announced itself
    /// since changed the count, and keeps it.
    func forget(_ stale: Int64) { _ = objdb_shared_replace(counter, stale, 0) }

    /// Unmaps the counter.
    func close() { munmap(UnsafeMutableRawPointer(bitPattern: address), Self.fileSize) }

    private var counter: UnsafeMutablePointer<Int64> { UnsafeMutablePointer(bitPattern: address).unsafelyUnwrapped }

    /// The file's size: the counter, with room to spare for a later format.
    private static let fileSize = 64
}
