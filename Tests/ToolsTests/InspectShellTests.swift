import Foundation
import TestSupport
import Testing

/// The interactive shell on a real pseudo-terminal: completion with Tab, history with ↑.
@Suite("objdb-inspect shell on a terminal")
struct InspectShellTests {
    let directory = TemporaryDirectory()

    @Test func tabCompletesCommandsTypesAndPropertiesAndUpRecallsTheLastLine() throws {
        let store = directory.path + "/demo.objdb"
        #expect(try run("objdb-demo", [store]).status == 0)
        let terminal = try PseudoTerminal()
        let shell = Process()
        shell.executableURL = builtProductsDirectory().appendingPathComponent("objdb-inspect")
        shell.arguments = [store, "--no-color"]
        shell.standardInput = terminal.follower
        shell.standardOutput = terminal.follower
        shell.standardError = terminal.follower
        try shell.run()
        defer {
            if shell.isRunning { kill(shell.processIdentifier, SIGKILL) }
            shell.waitUntilExit()
        }
        #expect(terminal.read(until: "objdb> ").contains("Tab completes"))
        terminal.type("cou\t")
        #expect(terminal.read(until: "objdb> count ").hasSuffix("objdb> count "))
        terminal.type("Twi\t")
        #expect(terminal.read(until: "count TwitterUser ").hasSuffix("count TwitterUser "))
        terminal.type("\r")
        #expect(terminal.read(until: "8\r\n").contains("8\r\n"))
        _ = terminal.read(until: "objdb> ")
        terminal.type("dump TwitterUser --props scr\t")
        #expect(terminal.read(until: "--props screenName ").hasSuffix("--props screenName "))
        terminal.type("\u{3}")  // Ctrl-C drops the line
        terminal.type("\u{1B}[A\r")  // ↑ recalls "count TwitterUser"
        #expect(terminal.read(until: "8\r\n").contains("count TwitterUser"))
        terminal.type("quit\r")
        shell.waitUntilExit()
        #expect(shell.terminationStatus == 0)
    }
}

/// A pseudo-terminal pair: the shell talks to the follower side, the test to the leader side.
final class PseudoTerminal {
    let leader: Int32
    let follower: FileHandle
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
        follower = FileHandle(fileDescriptor: followerDescriptor, closeOnDealloc: true)
    }

    deinit {
        close(leader)
    }

    func type(_ text: String) {
        _ = text.withCString { Glibc.write(leader, $0, strlen($0)) }
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
