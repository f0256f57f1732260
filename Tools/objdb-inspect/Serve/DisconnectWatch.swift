import Foundation
import ObjDB
import Synchronization

/// Cancels a running query when its client hangs up: one thread polls the sockets of the
/// requests that run queries for a hang-up (`POLLRDHUP`: the browser closed the connection, as it
/// does when a page or a fetch is abandoned) and cancels the query's ``QueryCancellation``.
final class DisconnectWatch: Sendable {
    /// Linux's `POLLRDHUP`: the peer closed its end.
    private static let readHangUp: Int16 = 0x2000

    private let watched = Mutex<[Int32: QueryCancellation]>([:])
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let stopped = Atomic<Bool>(false)

    init() {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends {
                _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            }
        }
        wakeRead = ends[0]
        wakeWrite = ends[1]
        let thread = Thread { [self] in loop() }
        thread.name = "objdb-inspect.disconnects"
        thread.start()
    }

    /// Runs `body` with a cancellation that the hang-up of `socket` cancels.
    func watching<Result>(_ socket: Int32, _ body: (QueryCancellation) throws -> Result) rethrows -> Result {
        let cancellation = QueryCancellation()
        guard socket >= 0 else { return try body(cancellation) }
        watched.withLock { $0[socket] = cancellation }
        wake()
        defer { watched.withLock { _ = $0.removeValue(forKey: socket) } }
        return try body(cancellation)
    }

    /// Ends the thread.
    func stop() {
        stopped.store(true, ordering: .releasing)
        wake()
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    private func loop() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while !stopped.load(ordering: .acquiring) {
            let current = watched.withLock { $0 }
            var fds = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            fds += current.keys.map { pollfd(fd: $0, events: Self.readHangUp, revents: 0) }
            // A socket that hung up stays readable: wait a little between looks, not in a spin.
            let timeout: Int32 = current.isEmpty ? -1 : 50
            _ = poll(&fds, nfds_t(fds.count), timeout)
            while read(wakeRead, &buffer, buffer.count) > 0 {}
            for fd in fds.dropFirst()
            where fd.revents & (Self.readHangUp | Int16(POLLHUP) | Int16(POLLERR)) != 0 {
                current[fd.fd]?.cancel()
            }
            if fds.dropFirst().contains(where: { $0.revents != 0 }) { usleep(20_000) }
        }
    }
}
