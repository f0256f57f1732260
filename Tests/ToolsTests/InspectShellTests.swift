import Foundation
import TestSupport
import Testing

/// The interactive shell on a real pseudo-terminal, through libedit: what a keystroke does is
/// judged by what the edited line then runs, not by how the terminal is redrawn.
@Suite("objdb-inspect shell on a terminal")
struct InspectShellTests {
    let directory = TemporaryDirectory()

    /// A shell on the demo store, on a pseudo-terminal, with its history in the test's directory.
    ///
    /// Spawned here rather than through `Process`: in a session of its own whose controlling
    /// terminal is the pseudo-terminal (so Ctrl-C there is a SIGINT, as in a real terminal), as this
    /// process's direct child, which it waits for by its pid and kills if it must.
    final class Session {
        let terminal: PseudoTerminal
        private(set) var pid: pid_t = 0
        private var status: Int32?

        init(store: String, history: String) throws {
            terminal = try PseudoTerminal()
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            // POSIX_SPAWN_SETSID (glibc's 0x80): opening the terminal then makes it the controlling one.
            posix_spawnattr_setflags(&attributes, Int16(0x80 | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
            var mask = sigset_t()
            sigemptyset(&mask)
            posix_spawnattr_setsigmask(&attributes, &mask)
            var defaults = sigset_t()
            sigemptyset(&defaults)
            for signal in [SIGINT, SIGHUP, SIGTERM] { sigaddset(&defaults, signal) }
            posix_spawnattr_setsigdefault(&attributes, &defaults)
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            for descriptor in 0...2 {
                posix_spawn_file_actions_addopen(&actions, Int32(descriptor), terminal.followerPath, O_RDWR, 0)
            }
            let program = builtProductsDirectory().appendingPathComponent("objdb-inspect").path
            let arguments = [program, store, "--no-color"]
            var environment = ProcessInfo.processInfo.environment
            environment["OBJDB_INSPECT_HISTORY"] = history
            environment["TERM"] = "xterm"
            let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
            let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer { (argv + envp).forEach { free($0) } }
            let spawned = posix_spawn(&pid, program, &actions, &attributes, argv, envp)
            guard spawned == 0 else {
                throw TestFailure("cannot start \(program): \(String(cString: strerror(spawned)))")
            }
        }

        deinit {
            _ = finish(within: 0)
        }

        /// The exit status once the shell ends, waiting at most `seconds`; then it is killed (`nil`).
        func finish(within seconds: Double) -> Int32? {
            if let status { return status }
            let deadline = Date().addingTimeInterval(seconds)
            var raw: Int32 = 0
            repeat {
                if waitpid(pid, &raw, WNOHANG) == pid {
                    status = (raw & 0x7F) == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
                    return status
                }
                usleep(10_000)
            } while Date() < deadline
            kill(pid, SIGKILL)
            waitpid(pid, &raw, 0)
            status = -1
            return nil
        }

        /// Types `keys`, then waits until `marker` shows; whether it did.
        func type(_ keys: String, expecting marker: String) -> Bool {
            terminal.type(keys)
            return terminal.read(until: marker).contains(marker)
        }

        func quit() -> Int32? {
            terminal.type("quit\r")
            return finish(within: 30)
        }
    }

    func session() throws -> Session {
        let store = directory.path + "/demo.objdb"
        if !FileManager.default.fileExists(atPath: store) { #expect(try run("objdb-demo", [store]).status == 0) }
        let session = try Session(store: store, history: directory.path + "/history")
        #expect(session.terminal.read(until: "objdb> ").contains("Tab completes"))
        return session
    }

    @Test func tabCompletesCommandsTypesAndPropertiesAndUpRecallsEarlierLines() throws {
        let shell = try session()
        #expect(shell.type("cou\tTwi\t\r", expecting: "8\r\n"))
        #expect(shell.type("dump TwitterUser --props scr\t--limit 1\r", expecting: "screenName\r\njack\r\n"))
        // ↑ twice: past the dump, to the count.
        #expect(shell.type("\u{1B}[A\u{1B}[A\r", expecting: "8\r\n"))
        #expect(shell.quit() == 0)
    }

    @Test func cursorMovementDeleteAndKillsEditTheLine() throws {
        let shell = try session()
        // Ctrl-A to the start, → twice, Delete removes the X: "count TwitterUser".
        #expect(shell.type("coXunt TwitterUser\u{1}\u{1B}[C\u{1B}[C\u{1B}[3~\r", expecting: "8\r\n"))
        // Ctrl-U drops what was typed.
        #expect(shell.type("garbage words\u{15}count Tweet\r", expecting: "200\r\n"))
        // ← six times and an insertion, then Ctrl-E to the end: "count Tweet".
        let left = "\u{1B}[D"
        #expect(shell.type("cont Twe" + String(repeating: left, count: 6) + "u\u{5}et\r", expecting: "200\r\n"))
        // Ctrl-W removes the last word.
        #expect(shell.type("count TwitterUser junk\u{17}\r", expecting: "8\r\n"))
        #expect(shell.quit() == 0)
    }

    @Test func ctrlCDuringWatchReturnsToThePrompt() throws {
        let shell = try session()
        #expect(shell.type("watch TwitterUser --interval 20\r", expecting: "8 TwitterUser"))
        #expect(shell.type("\u{3}", expecting: "objdb> "))
        #expect(shell.type("count TwitterUser\r", expecting: "8\r\n"))
        #expect(shell.quit() == 0)
    }

    @Test func historyIsKeptAcrossSessions() throws {
        do {
            let first = try session()
            #expect(first.type("count Tweet\r", expecting: "200\r\n"))
            #expect(first.quit() == 0)
        }
        let history = try String(contentsOfFile: directory.path + "/history", encoding: .utf8)
        // libedit's history file: a header, then each line with its spaces as \040.
        #expect(history.hasPrefix("_HiStOrY_V2_\n"))
        #expect(history.contains("count\\040Tweet"), "\(history)")
        let second = try session()
        // ↑ twice: past the first session's "quit", to its count.
        #expect(second.type("\u{1B}[A\u{1B}[A\r", expecting: "200\r\n"))
        #expect(second.quit() == 0)
    }
}

/// A pseudo-terminal pair: the shell talks to the follower side, the test to the leader side.
final class PseudoTerminal {
    let leader: Int32
    let follower: FileHandle
    /// The follower's device, `/dev/pts/N`.
    let followerPath: String
    private var buffer = ""

    init() throws {
        // Linux's /dev/ptmx: unlock the follower (TIOCSPTLCK), then find its number (TIOCGPTN).
        leader = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard leader >= 0, ioctl(leader, 0x4004_5431, &unlock) == 0, ioctl(leader, 0x8004_5430, &number) == 0 else {
            throw TestFailure("no pseudo-terminal")
        }
        let followerDescriptor = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        guard followerDescriptor >= 0 else { throw TestFailure("cannot open /dev/pts/\(number)") }
        var size = winsize(ws_row: 40, ws_col: 120, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(followerDescriptor, UInt(TIOCSWINSZ), &size)
        follower = FileHandle(fileDescriptor: followerDescriptor, closeOnDealloc: true)
        followerPath = "/dev/pts/\(number)"
    }

    deinit {
        close(leader)
    }

    func type(_ text: String) {
        _ = text.withCString { Glibc.write(leader, $0, strlen($0)) }
    }

    /// Everything shown so far, once nothing more arrives for 200 ms.
    func drain() -> String {
        while true {
            var descriptor = pollfd(fd: leader, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 200) > 0 else { break }
            var bytes = [UInt8](repeating: 0, count: 4096)
            let count = Glibc.read(leader, &bytes, bytes.count)
            if count <= 0 { break }
            buffer += String(decoding: bytes[0..<count], as: UTF8.self)
        }
        defer { buffer = "" }
        return buffer
    }

    /// What the terminal shows until `marker` appears (or 10 seconds pass); consumed.
    func read(until marker: String) -> String {
        let deadline = Date().addingTimeInterval(10)
        while !buffer.contains(marker), Date() < deadline {
            var descriptor = pollfd(fd: leader, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 100) > 0 else { continue }
            var bytes = [UInt8](repeating: 0, count: 4096)
            let count = Glibc.read(leader, &bytes, bytes.count)
            if count <= 0 { break }
            buffer += String(decoding: bytes[0..<count], as: UTF8.self)
        }
        guard let range = buffer.range(of: marker) else {
            defer { buffer = "" }
            return buffer
        }
        let shown = String(buffer[..<range.upperBound])
        buffer = String(buffer[range.upperBound...])
        return shown
    }
}
