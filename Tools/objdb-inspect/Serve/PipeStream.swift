import Foundation
import ObjDB
import Synchronization

/// A streamed body written by a thread of its own through a pipe: an export, a check, a live
/// feed. The pipe holds what the client has not read yet, so a slow client slows the writer
/// down, and memory stays flat. When the client goes away the read end closes, the writer's next
/// write fails (EPIPE), and it stops.
final class PipeStream: ResponseStream, @unchecked Sendable {
    // @unchecked: `readEnd` is used on the connection's thread only (read, then close); the
    // writer thread owns the write end; `isCancelled` is atomic and `onCancel` is set before
    // the writer starts.
    private let readEnd: Int32
    private let flag = CancelFlag()
    private let finished = CancelFlag()
    private let onCancel: @Sendable () -> Void

    /// Starts `write` on a thread of its own with the pipe's write end, closed when it returns.
    /// `onCancel` runs once when the client goes away or the server stops, to wake the writer.
    init?(
        name: String, onCancel: @escaping @Sendable () -> Void = {},
        write: @escaping @Sendable (PipeWriter) -> Void
    ) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        readEnd = ends[0]
        self.onCancel = onCancel
        let writer = PipeWriter(descriptor: ends[1], flag: flag)
        let finished = self.finished
        let thread = Thread {
            write(writer)
            writer.finish()
            _ = finished.raise()
        }
        thread.name = name
        thread.start()
    }

    /// Whether the writer has returned.
    var isFinished: Bool { finished.isRaised }

    /// Whether the client went away or the server is stopping.
    var isCancelled: Bool { flag.isRaised }

    /// Stops the writer: the client went away, or the server is stopping.
    func cancel() {
        guard flag.raise() else { return }
        onCancel()
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> StreamRead {
        while true {
            let count = Glibc.read(readEnd, buffer.baseAddress, buffer.count)
            if count > 0 { return .bytes(count) }
            if count == 0 { return .end }
            if errno != EINTR { return .failed }
        }
    }

    func close() {
        cancel()
        _ = Glibc.close(readEnd)
    }
}

/// The write end of a ``PipeStream``, used by its writer thread only.
final class PipeWriter: @unchecked Sendable {
    // @unchecked: used by the one writer thread that the stream starts.
    /// The pipe's write end, for a writer that buffers on its own (flush it before returning).
    let descriptor: Int32
    private let flag: CancelFlag
    private var buffer: [UInt8] = []
    private(set) var failed = false

    fileprivate init(descriptor: Int32, flag: CancelFlag) {
        self.descriptor = descriptor
        self.flag = flag
        buffer.reserveCapacity(64 * 1024)
    }

    /// Whether the writer should stop: the client went away, or the server is stopping.
    var shouldStop: Bool { failed || flag.isRaised }

    /// Queues `bytes`; sends once 64 KiB are queued. `false` once the client is gone.
    @discardableResult
    func write(_ bytes: some Sequence<UInt8>) -> Bool {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 64 * 1024 { return flush() }
        return !shouldStop
    }

    /// Sends what is queued. `false` once the client is gone.
    @discardableResult
    func flush() -> Bool {
        guard !failed else { return false }
        var sent = 0
        while sent < buffer.count {
            let count = buffer.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + sent, $0.count - sent) }
            if count < 0 {
                if errno == EINTR { continue }
                failed = true
                break
            }
            sent += count
        }
        buffer.removeAll(keepingCapacity: true)
        return !shouldStop
    }

    fileprivate func finish() {
        flush()
        _ = Glibc.close(descriptor)
    }
}

/// A flag raised once, from any thread.
final class CancelFlag: Sendable {
    private let state = Atomic<Bool>(false)

    var isRaised: Bool { state.load(ordering: .acquiring) }

    /// Raises the flag; `true` the first time.
    func raise() -> Bool { !state.exchange(true, ordering: .acquiringAndReleasing) }
}
