import Foundation
import ObjDB
import ToolSupport

/// `serve`: the store as a live web page on 127.0.0.1, behind a token (docs/INSPECTOR.md).
struct ServeCommand: Subcommand {
    static let spec = CommandSpec(
        name: "serve", abstract: "a live web inspector on 127.0.0.1",
        discussion: """
            Serves the store read-only as a web page on 127.0.0.1 and prints its URL, which carries a
            random token that every request needs (as Jupyter does). Browse types, query, follow
            links and backlinks, watch objects change as any process commits, check, export.
            --port 0 takes any free port; without --port, 8765 or the next free one. A query runs at
            most MS milliseconds (--time-limit, 5000). Ctrl-C stops.
            """,
        options: [
            .value("port", "N", "listen on port N (default 8765, or the next free one)"),
            .flag("open", "open the URL in a browser (xdg-open)"),
            .value("time-limit", "MS", "stop a query after MS milliseconds (default 5000)"),
        ])

    let port: Int?
    let opensBrowser: Bool
    let timeLimit: Int

    init(parsing arguments: ParsedCommand) throws(UsageError) {
        port = try arguments.integer("port", in: 0...65535)
        opensBrowser = arguments.has("open")
        timeLimit = try arguments.integer("time-limit", in: 1...3_600_000) ?? 5000
    }

    func run(in context: InspectContext) throws -> ToolExitCode {
        // It takes Ctrl-C for itself until the process ends: not a command for the shell's loop.
        if context.inShell { throw InspectError("serve runs on its own: objdb-inspect PATH serve") }
        let stop = try StopSignal()
        // A browser that leaves mid-download closes the pipe an export writes to: an error, not a signal.
        signal(SIGPIPE, SIG_IGN)
        let database = try context.open()
        let inspector = Inspector(
            database: database, path: context.path, token: Self.makeToken(), timeLimit: .milliseconds(timeLimit))
        // Watching from the start makes other processes' commits keep their change sets (ObjDB's
        // change log) for every page shown after this.
        let keeper = CommitFeed(database: database, since: nil)
        defer { keeper.close() }
        let server = HTTPServer { [inspector] request in inspector.handle(request) }
        let candidates: [UInt16] = port.map { [UInt16($0)] } ?? (0..<20).map { 8765 + $0 }
        var listening = false
        for candidate in candidates {
            do {
                try server.start(port: candidate)
                listening = true
                break
            } catch  where candidate != candidates.last {
                continue
            }
        }
        guard listening else { throw InspectError("cannot listen on 127.0.0.1") }
        inspector.port.store(server.port, ordering: .releasing)
        let url = "http://127.0.0.1:\(server.port)/?token=\(inspector.token)"
        context.print("objdb-inspect serves \(context.path) (read-only) at")
        context.print("    \(url)")
        context.print("Ctrl-C stops.")
        try context.output.flush()
        if opensBrowser { Self.openBrowser(url, context: context) }
        stop.wait()
        context.print("stopping")
        try context.output.flush()
        inspector.stopStreams()
        server.stop()
        return .success
    }

    /// 32 random bytes as URL-safe text.
    static func makeToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return bytes.map { String(format: "%02x", $0) }.joined()
    }

    private static func openBrowser(_ url: String, context: InspectContext) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["xdg-open", url]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            context.print("could not start a browser (xdg-open): open the URL above")
        }
    }
}

/// Ctrl-C and SIGTERM, waited for: the handler writes a byte to a pipe the main thread reads.
final class StopSignal {
    private static let ends: [Int32] = {
        var ends: [Int32] = [-1, -1]
        _ = pipe(&ends)
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return ends
    }()

    init() throws {
        guard Self.ends[0] >= 0 else { throw InspectError("cannot make a pipe for Ctrl-C") }
        for signal in [SIGINT, SIGTERM] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { _ in
                var byte: UInt8 = 1
                _ = write(StopSignal.ends[1], &byte, 1)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(signal, &action, nil)
        }
        // A parent may have started us with them blocked (Foundation's Process does).
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        sigprocmask(SIG_UNBLOCK, &signals, nil)
    }

    /// Waits for Ctrl-C or SIGTERM.
    func wait() {
        var byte: UInt8 = 0
        while read(Self.ends[0], &byte, 1) < 0, errno == EINTR {}
    }
}
