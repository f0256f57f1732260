import Foundation

/// `objdb-inspect serve` on the tools benchmark's store: the server time (its `Server-Timing`
/// header) of the pages a person asks for, and the server's resident memory while a client pages
/// through every tweet and downloads them all (#28's targets: 50 ms a page, flat memory).
struct ServeLatency {
    let store: String
    let inspect: String
    let count: Int

    /// The table's lines.
    func measure() throws -> [String] {
        let server = try ServeProcess(inspect: inspect, store: store)
        defer { server.stop() }
        var rows: [(String, [Double], String)] = []
        func timed(_ task: String, _ paths: [String], note: String = "") throws {
            var times: [Double] = []
            for path in paths {
                let answer = try server.get(path)
                guard answer.status == 200 else {
                    throw BenchmarkFailure.engine(
                        "serve", "\(path) answered \(answer.status): \(answer.body.prefix(200))")
                }
                times.append(answer.serverMilliseconds)
            }
            rows.append((task, times, note))
        }
        let first = "/api/objects?type=Tweet&limit=50"
        try timed("first page of Tweet (50)", Array(repeating: first, count: 5))
        // Next pages at three depths: after the first page, from the middle, and before the end.
        var cursors: [String] = []
        var page = try server.json(first)
        cursors.append(page["next"] as! String)
        let middle = try server.json("/api/objects?type=Tweet&limit=50&q=id%20%3E%3D%20\(count / 2)")
        cursors.append(middle["next"] as! String)
        page = try server.json("/api/objects?type=Tweet&limit=50&last=1")
        cursors.append(page["previous"] as! String)
        try timed(
            "next page at the start, middle, end",
            cursors.flatMap { Array(repeating: "/api/objects?type=Tweet&limit=50&after=\($0)", count: 3) })
        try timed(
            "previous page at the end",
            Array(repeating: "/api/objects?type=Tweet&limit=50&before=\(cursors[2])", count: 3))
        // createdAt is indexed: one tweet every 0.37 s from 1_300_000_000 (ToolRows).
        let start = 1_300_000_000 + Double(count) * 0.37 / 2
        let narrow = "createdAt%20BETWEEN%20%7BT\(Int(start)):0,%20T\(Int(start) + 370):0%7D"
        try timed(
            "indexed query page (1,000 of \(count))",
            Array(repeating: "/api/objects?type=Tweet&limit=50&q=\(narrow)", count: 3))
        let wide = "createdAt%20%3E%20T\(Int(start)):0"
        try timed(
            "indexed query page (half of them)",
            Array(repeating: "/api/objects?type=Tweet&limit=50&q=\(wide)", count: 3))
        try timed(
            "indexed lookup (screenName)",
            Array(repeating: "/api/objects?type=TwitterUser&limit=50&q=screenName%20%3D%3D%20'user42'", count: 3))
        try timed(
            "sorted by an unindexed column (retweetCount)",
            Array(repeating: "/api/objects?type=Tweet&limit=50&sort=-retweetCount", count: 2),
            note: "a pass over every tweet per page")

        // Memory while paging through everything, then while downloading everything.
        let startRSS = server.residentBytes
        var pages = 0
        var after: String? = nil
        var slowest = 0.0
        repeat {
            let answer = try server.get("/api/objects?type=Tweet&limit=500" + (after.map { "&after=\($0)" } ?? ""))
            slowest = max(slowest, answer.serverMilliseconds)
            after = try answer.json()["next"] as? String
            pages += 1
        } while after != nil
        let pagedRSS = server.residentBytes
        let exportStart = DispatchTime.now().uptimeNanoseconds
        let exported = try server.download("/api/export?type=Tweet&format=ndjson")
        let exportSeconds = Double(DispatchTime.now().uptimeNanoseconds - exportStart) / 1e9
        let exportRSS = server.residentBytes

        var lines = [
            "",
            "`objdb-inspect serve` at N = \(count) (server time from its Server-Timing header; median, slowest of the runs)",
            "| request | median | slowest | note |",
            "|---|---:|---:|---|",
        ]
        for (task, times, note) in rows {
            let sorted = times.sorted()
            lines.append(
                "| \(task) | \(String(format: "%.1f ms", sorted[sorted.count / 2])) | \(String(format: "%.1f ms", sorted.last!)) | \(note) |"
            )
        }
        lines.append(
            "| every page of 500 (\(pages) pages) | | \(String(format: "%.1f ms", slowest)) | resident \(startRSS >> 20) MiB before, \(pagedRSS >> 20) MiB after |"
        )
        lines.append(
            "| export, ndjson (\(exported >> 20) MiB) | \(String(format: "%.2f s", exportSeconds)) | | resident \(exportRSS >> 20) MiB after |"
        )
        return lines
    }
}

/// `objdb-inspect STORE serve --port 0` and a plain HTTP/1.1 client for it.
private final class ServeProcess {
    let pid: pid_t
    private let output: Int32
    let port: Int
    let token: String

    init(inspect: String, store: String) throws {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw BenchmarkFailure.engine("serve", "no pipe") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        let words: [String] = [inspect, store, "serve", "--port", "0"]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, inspect, &actions, nil, argv, environ) == 0 else {
            throw BenchmarkFailure.engine("serve", "cannot run \(inspect)")
        }
        close(fds[1])
        self.pid = pid
        var text = ""
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !text.contains("Ctrl-C") {
            let count = read(fds[0], &buffer, buffer.count)
            guard count > 0 else { throw BenchmarkFailure.engine("serve", "serve ended: \(text)") }
            text += String(decoding: buffer.prefix(count), as: UTF8.self)
        }
        // The read end stays open until the server stops: it prints as it stops.
        output = fds[0]
        guard let match = text.firstMatch(of: /127\.0\.0\.1:(\d+)\/\?token=([0-9a-f]+)/) else {
            throw BenchmarkFailure.engine("serve", "no URL in \(text)")
        }
        port = Int(match.1)!
        token = String(match.2)
    }

    func stop() {
        kill(pid, SIGINT)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        close(output)
    }

    /// The server's resident memory now (VmRSS).
    var residentBytes: Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }

    struct Answer {
        let status: Int
        let serverMilliseconds: Double
        let body: String

        func json() throws -> [String: Any] {
            try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any] ?? [:]
        }
    }

    func json(_ path: String) throws -> [String: Any] { try get(path).json() }

    func get(_ path: String) throws -> Answer {
        let raw = try request(path) { _ in }
        let text = String(decoding: raw, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { throw BenchmarkFailure.engine("serve", "bad answer") }
        let head = text[..<split.lowerBound]
        let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
        var milliseconds = 0.0
        if let timing = head.split(separator: "\r\n").first(where: { $0.lowercased().hasPrefix("server-timing:") }),
            let duration = timing.split(separator: "dur=").last
        {
            milliseconds = Double(duration.trimmingCharacters(in: .whitespaces)) ?? 0
        }
        return Answer(status: status, serverMilliseconds: milliseconds, body: String(text[split.upperBound...]))
    }

    /// Reads a whole streamed answer, keeping none of it; its size in bytes.
    func download(_ path: String) throws -> Int {
        var size = 0
        _ = try request(path) { size += $0 }
        return size
    }

    /// Sends a request and reads to the end; `received` hears each read's size. The bytes are kept
    /// unless the answer is a download.
    private func request(_ path: String, received: (Int) -> Void) throws -> [UInt8] {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw BenchmarkFailure.engine("serve", "cannot connect") }
        let request = Array(
            ("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAuthorization: token \(token)\r\n"
                + "Connection: close\r\n\r\n").utf8)
        _ = send(socket, request, request.count, Int32(MSG_NOSIGNAL))
        let keeps = !path.hasPrefix("/api/export")
        var all: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received(count)
            if keeps || all.count < 4096 { all += buffer.prefix(count) }
        }
        return all
    }
}
