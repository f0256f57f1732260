import Foundation
import ObjDB
import Synchronization

/// `objdb-inspect serve`'s application: checks every request (token, host, origin, method),
/// then answers it with a page, an asset, or the JSON API (docs/INSPECTOR.md).
final class Inspector: Sendable {
    let database: Database
    let path: String
    /// The secret every request must carry (query `token`, `Authorization`, or the cookie).
    let token: String
    /// How long one query may run.
    let timeLimit: Duration
    /// The port, once listening: the `Host` a request names must carry it.
    let port = Atomic<UInt16>(0)
    let disconnects = DisconnectWatch()
    /// Queries stopped by their time limit, and by their client going away.
    let timedOut = Atomic<Int>(0)
    let cancelled = Atomic<Int>(0)
    /// The live streams, to stop when the server stops.
    private let streams = Mutex<[ObjectIdentifier: PipeStream]>([:])
    private let stopping = Atomic<Bool>(false)

    static let defaultPageSize = 50
    static let maximumPageSize = 500
    /// Text longer than this many characters is cut in a page's cells (an object's page has it whole).
    static let cellTextLimit = 500

    init(database: Database, path: String, token: String, timeLimit: Duration) {
        self.database = database
        self.path = path
        self.token = token
        self.timeLimit = timeLimit
    }

    /// The cookie that carries the token: per port, since cookies do not tell ports apart.
    var cookieName: String { "objdb-inspect-\(port.load(ordering: .relaxed))" }

    /// Answers one request.
    func handle(_ request: HTTPRequest) -> HTTPResponse {
        if let refusal = refusal(of: request) { return secured(refusal) }
        return secured(route(request))
    }

    /// Stops every live stream (the server is stopping).
    func stopStreams() {
        stopping.store(true, ordering: .releasing)
        for stream in streams.withLock({ Array($0.values) }) { stream.cancel() }
        disconnects.stop()
    }

    /// Starts a stream and keeps it until it ends, so that stopping the server stops it.
    func register(_ stream: PipeStream?) -> PipeStream? {
        guard let stream else { return nil }
        if stopping.load(ordering: .acquiring) {
            stream.cancel()
            return stream
        }
        streams.withLock { streams in
            streams = streams.filter { !$0.value.isFinished }
            streams[ObjectIdentifier(stream)] = stream
        }
        return stream
    }

    // MARK: Checks

    /// Why `request` is refused, as the response; `nil` when it may go on.
    private func refusal(of request: HTTPRequest) -> HTTPResponse? {
        let port = self.port.load(ordering: .relaxed)
        // DNS rebinding: a page of another site whose name now points at 127.0.0.1 still names its own host.
        guard let host = request.header("Host"), Self.isLoopback(host: host, port: port) else {
            return Self.error(403, "forbiddenHost", "the Host header must name this machine's loopback address")
        }
        if let origin = request.header("Origin"),
            origin != "http://127.0.0.1:\(port)" && origin != "http://localhost:\(port)"
        {
            return Self.error(403, "forbiddenOrigin", "requests from other origins are refused")
        }
        if let site = request.header("Sec-Fetch-Site"), site != "same-origin", site != "none" {
            return Self.error(403, "forbiddenOrigin", "requests from other sites are refused")
        }
        guard request.method == "GET" || request.method == "HEAD" else {
            var response = Self.error(405, "methodNotAllowed", "the inspector only reads: GET and HEAD")
            response.headers.append(("Allow", "GET, HEAD"))
            return response
        }
        guard hasToken(request) else {
            if request.path.hasPrefix("/api/") {
                return Self.error(
                    401, "tokenRequired", "open the URL objdb-inspect serve printed: it carries the access token")
            }
            return HTTPResponse(
                status: 401, contentType: "text/plain; charset=utf-8",
                bytes: Array(
                    "objdb-inspect serve: open the URL the command printed; it carries the access token.\n".utf8))
        }
        return nil
    }

    private func hasToken(_ request: HTTPRequest) -> Bool {
        var offered: [String] = []
        if let query = request.query("token") { offered.append(query) }
        if let cookie = request.cookie(cookieName) { offered.append(cookie) }
        if let authorization = request.header("Authorization") {
            for scheme in ["token ", "Bearer "] where authorization.hasPrefix(scheme) {
                offered.append(String(authorization.dropFirst(scheme.count)))
            }
        }
        return offered.contains { Self.constantTimeEquals($0, token) }
    }

    static func isLoopback(host: String, port: UInt16) -> Bool {
        ["127.0.0.1:\(port)", "localhost:\(port)", "[::1]:\(port)"].contains(host.lowercased())
    }

    private static func constantTimeEquals(_ left: String, _ right: String) -> Bool {
        let a = Array(left.utf8)
        let b = Array(right.utf8)
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// The headers every answer carries: no inline script or style, no framing, no sniffing,
    /// no referrer (the first URL carries the token), no caching.
    private func secured(_ response: HTTPResponse) -> HTTPResponse {
        var response = response
        response.headers += [
            (
                "Content-Security-Policy",
                "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                    + "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
            ),
            ("X-Content-Type-Options", "nosniff"),
            ("X-Frame-Options", "DENY"),
            ("Referrer-Policy", "no-referrer"),
            ("Cross-Origin-Opener-Policy", "same-origin"),
            ("Cross-Origin-Resource-Policy", "same-origin"),
            ("Cache-Control", "no-store"),
        ]
        return response
    }

    // MARK: Routing

    private func route(_ request: HTTPRequest) -> HTTPResponse {
        switch request.path {
        case "/assets/inspector.css":
            return HTTPResponse(
                status: 200, contentType: "text/css; charset=utf-8", bytes: PackageResources.inspector_css)
        case "/assets/inspector.js":
            return HTTPResponse(
                status: 200, contentType: "text/javascript; charset=utf-8", bytes: PackageResources.inspector_js)
        case _ where request.path.hasPrefix("/api/"):
            return api(request)
        case _ where request.path.hasPrefix("/assets/"):
            return Self.error(404, "notFound", "no such asset")
        default:
            var page = HTTPResponse(
                status: 200, contentType: "text/html; charset=utf-8", bytes: PackageResources.index_html)
            if request.query("token") != nil {
                // The token moves into a cookie, and out of the address bar (and of what the person shares).
                page = HTTPResponse(status: 303, contentType: "text/plain; charset=utf-8", bytes: [])
                page.headers.append(("Location", request.path))
                page.headers.append(
                    ("Set-Cookie", "\(cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict"))
            }
            return page
        }
    }

    private func api(_ request: HTTPRequest) -> HTTPResponse {
        let started = ContinuousClock.now
        var response: HTTPResponse
        do {
            switch request.path {
            case "/api/info": response = try info()
            case "/api/schema": response = try schema()
            case "/api/objects": response = try objects(request)
            case "/api/count": response = try count(request)
            case "/api/explain": response = try explain(request)
            case "/api/object": response = try object(request)
            case "/api/related": response = try related(request)
            case "/api/export": response = try export(request)
            case "/api/check": response = try check(request)
            case "/api/events": response = try pageEvents(request)
            case "/api/object/events": response = try objectEvents(request)
            default: response = Self.error(404, "notFound", "no such endpoint: \(request.path)")
            }
        } catch {
            response = failure(error)
        }
        let elapsed = ContinuousClock.now - started
        let milliseconds =
            Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        response.headers.append(("Server-Timing", String(format: "app;dur=%.3f", milliseconds)))
        return response
    }

    // MARK: Answers

    /// A JSON answer.
    static func json(_ status: Int = 200, _ build: (inout JSONWriter) -> Void) -> HTTPResponse {
        var writer = JSONWriter()
        build(&writer)
        return HTTPResponse(status: status, contentType: "application/json; charset=utf-8", bytes: writer.bytes)
    }

    /// An error as JSON: `{"error": {"code", "message", …}}`.
    static func error(
        _ status: Int, _ code: String, _ message: String, position: Int? = nil, details: [String] = []
    ) -> HTTPResponse {
        json(status) { json in
            json.beginObject()
            json.key("error")
            json.beginObject()
            json.member("code", code)
            json.member("message", message)
            if let position { json.member("position", position) }
            if !details.isEmpty {
                json.key("details")
                json.beginArray()
                for detail in details { json.string(detail) }
                json.endArray()
            }
            json.endObject()
            json.endObject()
        }
    }

    /// What a thrown error answers.
    func failure(_ error: any Error) -> HTTPResponse {
        guard let error = error as? ObjDBError else {
            if let usage = error as? APIError { return Self.error(usage.status, usage.code, usage.message) }
            return Self.error(500, "internal", InspectCommand.describe(error))
        }
        let status: Int
        switch error.code {
        case .predicateSyntax, .invalidQuery, .unknownProperty, .invalidArgument, .typeMismatch: status = 400
        case .unknownType: status = 404
        case .queryTimedOut:
            status = 503
            timedOut.add(1, ordering: .relaxed)
        case .queryCancelled:
            status = 499
            cancelled.add(1, ordering: .relaxed)
        default: status = 500
        }
        // A syntax error's message and the text it is in, not the caret drawn for a terminal.
        let message = error.code == .predicateSyntax ? (error.details.first ?? error.message) : error.message
        return Self.error(status, error.code.rawValue, message, position: error.position)
    }

    /// A deadline for a query run for `request`: the time limit, and its client's hang-up.
    func deadline(_ cancellation: QueryCancellation) -> QueryDeadline {
        .after(timeLimit, cancellation: cancellation)
    }
}

/// A request the API cannot serve, with its HTTP status and code.
struct APIError: Error {
    let status: Int
    let code: String
    let message: String

    init(_ status: Int, _ code: String, _ message: String) {
        self.status = status
        self.code = code
        self.message = message
    }
}
