import Foundation

/// One HTTP request: what a ``HTTPTransport`` sends.
public struct HTTPRequest: Sendable, Hashable {
    /// The method: `GET` or `POST`.
    public var method: String
    /// The full URL, query included.
    public var url: URL
    /// The header fields to send.
    public var headers: [String: String]
    /// The body, if any.
    public var body: Data?
    /// How long to wait for the response before giving up with ``SyncError/Code/timedOut``.
    public var timeout: Duration

    /// A request for `url`.
    public init(
        method: String = "GET", url: URL, headers: [String: String] = [:], body: Data? = nil,
        timeout: Duration = .seconds(30)
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }

    /// The URL without its query, for messages: the query may hold an API key.
    var redactedURL: String {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        components?.query = nil
        components?.user = nil
        components?.password = nil
        return components?.string ?? "(a URL)"
    }
}

/// One HTTP response, as a ``HTTPTransport`` received it.
public struct HTTPResponse: Sendable, Hashable {
    /// The status code, `200` for success.
    public var statusCode: Int
    /// The header fields, their names in lower case.
    public var headers: [String: String]
    /// The body.
    public var body: Data

    /// A response with `statusCode`, `headers` (any case; stored in lower case) and `body`.
    public init(statusCode: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.statusCode = statusCode
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }) { first, _ in first }
        self.body = body
    }

    /// The value of the header field `name` (any case), if present.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// Sends HTTP requests: ``URLSessionTransport`` in production; tests may supply their own.
///
/// An implementation must honour the request's timeout, throwing ``SyncError/Code/timedOut``, and
/// the calling task's cancellation, throwing ``SyncError/Code/cancelled`` only once the request is
/// no longer in flight. Any other failure to get a response is ``SyncError/Code/transport``. A
/// response of any status is returned, not thrown: the API clients read error bodies.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the response, whatever its status.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}
