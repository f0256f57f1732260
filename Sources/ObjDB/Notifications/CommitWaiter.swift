import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Sleeps the notifier until a commit may have landed: a commit in this process wakes it
/// through a pipe; one in another process through inotify on the store file (LMDB writes the
/// file on every commit). Without inotify, or as a safety net, it wakes every `interval`.
///
/// Its descriptors are constants, set in init and closed in deinit, so it is `Sendable` as it stands.
final class CommitWaiter: Sendable {
    private let pipeRead: Int32
    private let pipeWrite: Int32
    private let inotify: Int32
    let interval: Duration

    init(path: String, interval: Duration) {
        self.interval = interval
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        }
        pipeRead = fds[0]
        pipeWrite = fds[1]
        #if canImport(Glibc)
            let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            if fd >= 0, inotify_add_watch(fd, path, UInt32(IN_MODIFY)) < 0 {
                close(fd)
                inotify = -1
            } else {
                inotify = fd
            }
        #else
            inotify = -1
        #endif
    }

    deinit {
        for fd in [pipeRead, pipeWrite, inotify] where fd >= 0 { close(fd) }
    }

    /// Wakes the waiting notifier (a commit here, a new observer, a stop).
    func wake() {
        var byte: UInt8 = 1
        _ = write(pipeWrite, &byte, 1)
    }

    /// Waits until woken, the file changes, or `interval` (or `limit`, when sooner) passes.
    func wait(atMost limit: Duration? = nil) {
        var fds = [pollfd(fd: pipeRead, events: Int16(POLLIN), revents: 0)]
        if inotify >= 0 { fds.append(pollfd(fd: inotify, events: Int16(POLLIN), revents: 0)) }
        let timeout = limit.map { min($0, interval) } ?? interval
        let requested = timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000
        // At least 1 ms (no spinning), at most what poll(2) takes.
        let milliseconds = Int32(clamping: max(requested, 1))
        _ = poll(&fds, nfds_t(fds.count), milliseconds)
        var buffer = [UInt8](repeating: 0, count: 4096)
        for fd in [pipeRead, inotify] where fd >= 0 {
            while read(fd, &buffer, buffer.count) > 0 {}
        }
    }
}
