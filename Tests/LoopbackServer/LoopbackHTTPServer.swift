import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A minimal HTTP/1.1 server on 127.0.0.1 for ObjDBSync's tests and demo: one request per
/// connection (`Connection: close`), a thread per connection, a handler that answers each.
///
/// Not a product and not a web server: it binds the loopback address only, on a port the kernel
/// picks, and reads requests of at most 1 MiB.
package final class LoopbackHTTPServer: Sendable {
    /// A request as it arrived.
    package struct Request: Sendable {
        /// `GET`, `POST`.
        package let method: String
        /// The path, percent-decoded, without the query.
        package let path: String
        /// The query's parameters, decoded; a repeated name keeps its last value.
        package let query: [String: String]
        /// The header fields, their names in lower case.
        package let headers: [String: String]
        /// The body.
        package let body: Data
    }

    /// What to answer.
    package struct Response: Sendable {
        /// The status code.
        package var status: Int
        /// Header fields to send besides `Content-Length` and `Connection`.
        package var headers: [String: String]
        /// The body.
        package var body: Data
        /// How long to wait before answering: for timeouts and cancellation. The wait ends early
        /// when the client closes the connection, which ``LoopbackHTTPServer/abandonedCount`` counts.
        package var delay: Duration

        /// A response of `status` with `body`.
        package init(status: Int = 200, headers: [String: String] = [:], body: Data = Data(), delay: Duration = .zero) {
            self.status = status
            self.headers = headers
            self.body = body
            self.delay = delay
        }

        /// A JSON response.
        package static func json(_ body: Data, status: Int = 200, headers: [String: String] = [:]) -> Response {
            Response(
                status: status, headers: headers.merging(["Content-Type": "application/json"]) { a, _ in a }, body: body
            )
        }
    }

    private struct State {
        var requests: [Request] = []
        var abandoned = 0
        var openConnections = 0
        var delayed = 0
        var stopped = false
    }

    /// The port it listens on, on 127.0.0.1.
    package let port: UInt16
    private let listener: Int32
    private let handler: @Sendable (Request) -> Response
    private let state = Mutex(State())
    private let acceptLoopEnded = DispatchSemaphore(value: 0)

    /// Starts listening on 127.0.0.1, on a free port, answering with `handler` (on any thread).
    package init(handler: @escaping @Sendable (Request) -> Response) throws {
        self.handler = handler
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { throw ServerError("socket: \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(socketFD, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(socketFD, 64) == 0 else {
            close(socketFD)
            throw ServerError("bind/listen on 127.0.0.1: \(String(cString: strerror(errno)))")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketFD, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        listener = socketFD
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "loopback-http"
        thread.start()
    }

    deinit {
        stop()
    }

    /// `http://127.0.0.1:PORT/`.
    package var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/")! }

    /// Every request answered or abandoned so far, in arrival order.
    package var requests: [Request] { state.withLock { $0.requests } }

    /// Requests whose client closed the connection before the answer was sent.
    package var abandonedCount: Int { state.withLock { $0.abandoned } }

    /// Connections being served now.
    package var openConnections: Int { state.withLock { $0.openConnections } }

    /// Requests read whole and waiting out their response's delay now.
    package var delayedRequests: Int { state.withLock { $0.delayed } }

    /// Waits up to `limit` until no connection is open; returns whether none is.
    package func waitUntilIdle(within limit: Duration = .seconds(5)) -> Bool {
        let deadline = ContinuousClock.now + limit
        while openConnections > 0 && ContinuousClock.now < deadline { usleep(2_000) }
        return openConnections == 0
    }

    /// Stops accepting; connections being served finish. Idempotent.
    package func stop() {
        let first = state.withLock { state in
            defer { state.stopped = true }
            return !state.stopped
        }
        guard first else { return }
        // The accept loop polls with a short timeout and sees the flag; then the socket closes.
        acceptLoopEnded.wait()
        close(listener)
    }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    private func acceptLoop() {
        defer { acceptLoopEnded.signal() }
        while !isStopped {
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            state.withLock { $0.openConnections += 1 }
            let thread = Thread { [self] in
                serve(connection)
                close(connection)
                state.withLock { $0.openConnections -= 1 }
            }
            thread.start()
        }
    }

    private func serve(_ connection: Int32) {
        guard let request = readRequest(connection) else { return }
        let response = handler(request)
        if response.delay > .zero {
            state.withLock { $0.delayed += 1 }
            let isOpen = waitWhileOpen(connection, for: response.delay)
            state.withLock {
                $0.delayed -= 1
                if !isOpen {
                    $0.requests.append(request)
                    $0.abandoned += 1
                }
            }
            if !isOpen { return }
        }
        state.withLock { $0.requests.append(request) }
        var head = "HTTP/1.1 \(response.status) \(Self.reason(response.status))\r\n"
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(response.body.count)\r\nConnection: close\r\n\r\n"
        writeAll(connection, Data(head.utf8) + response.body)
    }

    /// Reads one request: the head up to the blank line, then `Content-Length` bytes of body.
    private func readRequest(_ connection: Int32) -> Request? {
        var buffer = Data()
        var chunk = [UInt8](repeating: 0, count: 16_384)
        let separator = Data("\r\n\r\n".utf8)
        var headEnd: Range<Data.Index>?
        while headEnd == nil {
            guard buffer.count < 1 << 20, waitReadable(connection, milliseconds: 5_000) else { return nil }
            let count = read(connection, &chunk, chunk.count)
            guard count > 0 else { return nil }
            buffer.append(contentsOf: chunk[0..<count])
            headEnd = buffer.range(of: separator)
        }
        let head = String(decoding: buffer[..<headEnd!.lowerBound], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        var body = Data(buffer[headEnd!.upperBound...])
        let expected = Int(headers["content-length"] ?? "0") ?? 0
        while body.count < expected {
            guard waitReadable(connection, milliseconds: 5_000) else { return nil }
            let count = read(connection, &chunk, chunk.count)
            guard count > 0 else { return nil }
            body.append(contentsOf: chunk[0..<count])
        }
        let target = URLComponents(string: String(requestLine[1]))
        var query: [String: String] = [:]
        for item in target?.queryItems ?? [] { query[item.name] = item.value ?? "" }
        return Request(
            method: String(requestLine[0]), path: target?.path ?? String(requestLine[1]), query: query,
            headers: headers, body: body)
    }

    /// Waits `delay` unless the client closes the connection first; returns whether it is still open.
    private func waitWhileOpen(_ connection: Int32, for delay: Duration) -> Bool {
        let deadline = ContinuousClock.now + delay
        var scratch = [UInt8](repeating: 0, count: 512)
        while ContinuousClock.now < deadline {
            let left = deadline - ContinuousClock.now
            let milliseconds = Int32(
                min(50, max(1, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)))
            if waitReadable(connection, milliseconds: milliseconds) {
                // The request was read whole, so anything readable now is the end of the connection.
                if read(connection, &scratch, scratch.count) <= 0 { return false }
            }
        }
        return true
    }

    private func waitReadable(_ connection: Int32, milliseconds: Int32) -> Bool {
        var poller = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, milliseconds) > 0
    }

    private func writeAll(_ connection: Int32, _ data: Data) {
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = send(connection, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                guard written > 0 else { return }
                offset += written
            }
        }
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 429: return "Too Many Requests"
        case 500: return "Internal Server Error"
        case 503: return "Service Unavailable"
        default: return "Status"
        }
    }
}

/// The server could not start.
package struct ServerError: Error, CustomStringConvertible {
    package let description: String
    init(_ description: String) { self.description = description }
}
