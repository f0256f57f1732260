import Foundation

/// Touches memory once before anything is timed, then gives it back.
///
/// On a virtual machine whose memory the host backs lazily (this project's 2-core machines), the
/// first touch of each page of guest memory costs about 15 µs; later touches, in any process,
/// cost what a page fault costs. Without this, whichever engine first grows the heap or the page
/// cache in a run pays for it: W7's time moved by 2–3× between repetitions. A child process does
/// the touching, so the run's own peak memory stays its own.
enum MemoryWarmup {
    /// The argument the child runs with: `objdb-bench --touch-memory BYTES`.
    static let argument = "touch-memory"

    /// Runs a child of this executable that touches `bytes` and exits; does nothing if it cannot start.
    static func warm(bytes: Int) {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/proc/self/exe")
        child.arguments = ["--\(argument)", String(bytes)]
        guard (try? child.run()) != nil else { return }
        child.waitUntilExit()
    }

    /// Maps, writes and unmaps `bytes` of anonymous memory, a page at a time.
    static func touch(bytes: Int) {
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        guard bytes > 0,
            let start = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
            start != MAP_FAILED
        else { return }
        for offset in stride(from: 0, to: bytes, by: pageSize) {
            start.storeBytes(of: 1, toByteOffset: offset, as: UInt8.self)
        }
        munmap(start, bytes)
    }
}
