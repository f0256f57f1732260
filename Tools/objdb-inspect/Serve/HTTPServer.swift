import CMicroHTTPD
import Foundation

/// An HTTP/1.1 server on 127.0.0.1, GNU libmicrohttpd underneath: a thread per connection, each
/// request answered by ``handler`` on its connection's thread, streamed bodies pulled from a
/// ``ResponseStream`` on that thread too (so a stream may block while it waits for news).
final class HTTPServer: @unchecked Sendable {
    // @unchecked: `daemon` is set by `start` and cleared by `stop`, both on the thread that owns
    // the server, before and after every connection thread runs; `handler` is a constant.
    typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    private let handler: Handler
    private var daemon: OpaquePointer?
    /// The port it listens on, once started.
    private(set) var port: UInt16 = 0

    init(handler: @escaping Handler) {
        self.handler = handler
    }

    /// Listens on 127.0.0.1:`port` (0: any free port).
    ///
    /// - Throws: when the port cannot be had (it is taken, or not allowed).
    func start(port: UInt16, connectionLimit: UInt32 = 64, idleTimeout: UInt32 = 120) throws {
        let context = Unmanaged.passUnretained(self).toOpaque()
        guard
            let daemon = objdb_mhd_start_loopback(
                port, connectionLimit, idleTimeout, HTTPServer.accessHandler, context, HTTPServer.requestCompleted)
        else {
            throw InspectError("cannot listen on 127.0.0.1:\(port): the port is taken or not allowed")
        }
        self.daemon = daemon
        self.port = objdb_mhd_port(daemon)
    }

    /// Stops listening, then waits for every connection's thread to end.
    func stop() {
        guard let daemon else { return }
        self.daemon = nil
        _ = MHD_quiesce_daemon(daemon)
        MHD_stop_daemon(daemon)
    }

    // MARK: libmicrohttpd's callbacks

    private static let accessHandler: MHD_AccessHandlerCallback = {
        context, connection, url, method, _, _, uploadSize, requestContext in
        guard let context, let connection, let requestContext else { return objdb_mhd_no() }
        // The first call comes with the headers; the request is answered on the last, after any body.
        if requestContext.pointee == nil {
            requestContext.pointee = UnsafeMutableRawPointer(bitPattern: 1)
            return objdb_mhd_yes()
        }
        if let uploadSize, uploadSize.pointee > 0 {
            uploadSize.pointee = 0  // a body is read and dropped: nothing here takes one
            return objdb_mhd_yes()
        }
        let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
        let request = HTTPRequest(
            connection: connection, method: method.map { String(cString: $0) } ?? "",
            path: url.map { String(cString: $0) } ?? "/")
        return server.send(server.handler(request), to: connection)
    }

    private static let requestCompleted: MHD_RequestCompletedCallback = { _, _, _, _ in }

    private static let readStream: MHD_ContentReaderCallback = { context, _, buffer, size in
        guard let context, let buffer else { return objdb_mhd_end_with_error() }
        let stream = Unmanaged<StreamBox>.fromOpaque(context).takeUnretainedValue().stream
        switch stream.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: size)) {
        case .bytes(let count): return count
        case .end: return objdb_mhd_end_of_stream()
        case .failed: return objdb_mhd_end_with_error()
        }
    }

    private static let freeStream: MHD_ContentReaderFreeCallback = { context in
        guard let context else { return }
        let box = Unmanaged<StreamBox>.fromOpaque(context).takeRetainedValue()
        box.stream.close()
    }

    private func send(_ response: HTTPResponse, to connection: OpaquePointer) -> MHD_Result {
        let made: OpaquePointer?
        switch response.body {
        case .bytes(let bytes):
            made = bytes.withUnsafeBytes { objdb_mhd_response_copying($0.baseAddress, $0.count) }
        case .stream(let stream):
            let box = Unmanaged.passRetained(StreamBox(stream))
            made = objdb_mhd_response_streaming(
                64 * 1024, HTTPServer.readStream, box.toOpaque(), HTTPServer.freeStream)
            if made == nil {
                box.release()
                stream.close()
            }
        }
        guard let made else { return objdb_mhd_no() }
        defer { MHD_destroy_response(made) }
        for (name, value) in response.headers { _ = MHD_add_response_header(made, name, value) }
        return MHD_queue_response(connection, UInt32(response.status), made)
    }
}

/// A streamed body, holding its stream until libmicrohttpd lets go of it.
private final class StreamBox {
    let stream: any ResponseStream
    init(_ stream: any ResponseStream) { self.stream = stream }
}

/// One request, valid only while its handler runs.
struct HTTPRequest {
    let connection: OpaquePointer
    let method: String
    /// The path, percent-decoded.
    let path: String

    /// A request header (names match case-insensitively).
    func header(_ name: String) -> String? { objdb_mhd_header(connection, name).map { String(cString: $0) } }
    /// A query argument, percent-decoded.
    func query(_ name: String) -> String? { objdb_mhd_argument(connection, name).map { String(cString: $0) } }
    /// A cookie.
    func cookie(_ name: String) -> String? { objdb_mhd_cookie(connection, name).map { String(cString: $0) } }

    /// The connection's socket.
    var socket: Int32 { objdb_mhd_connection_socket(connection) }
}

/// An answer: a status, headers, and a body in memory or streamed.
struct HTTPResponse {
    var status: Int
    var headers: [(String, String)] = []
    var body: Body

    enum Body {
        case bytes([UInt8])
        case stream(any ResponseStream)
    }

    init(status: Int, contentType: String, bytes: [UInt8]) {
        self.status = status
        headers = [("Content-Type", contentType)]
        body = .bytes(bytes)
    }

    init(status: Int, contentType: String, stream: any ResponseStream) {
        self.status = status
        headers = [("Content-Type", contentType)]
        body = .stream(stream)
    }
}

/// What a streamed body hands libmicrohttpd each time it asks.
enum StreamRead {
    /// `count` bytes were written into the buffer.
    case bytes(Int)
    /// The body is complete.
    case end
    /// The body cannot go on: the connection is closed without completing it.
    case failed
}

/// A body produced while it is sent; read and closed on the connection's thread.
protocol ResponseStream: AnyObject {
    /// Fills `buffer` with the next bytes, waiting for them if need be.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> StreamRead
    /// The response is over (sent, or the client went away): let go of everything.
    func close()
}
