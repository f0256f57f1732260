import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An ``HTTPTransport`` on `URLSession` (FoundationNetworking on Linux): any host, the request's
/// timeout, and cancellation that closes the connection.
///
/// ```swift
/// let transport = URLSessionTransport()
/// let response = try await transport.send(HTTPRequest(url: URL(string: "http://127.0.0.1:8080/")!))
/// ```
///
/// Nothing is cached and no cookie is kept: each request goes to the server.
public final class URLSessionTransport: HTTPTransport {
    private let session: URLSession

    /// A transport with an ephemeral session of its own.
    public init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        session = URLSession(configuration: configuration)
    }

    deinit {
        session.invalidateAndCancel()
    }

    /// Sends `request`; returns when the response has arrived whole, or throws once the request
    /// has ended: timed out, cancelled (the task was), or failed.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try Task.checkCancellation(orThrow: request)
        let timeout = request.timeout.seconds
        var urlRequest = URLRequest(
            url: request.url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: max(0.001, timeout))
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        urlRequest.httpBody = request.body
        let inFlight = InFlightTask()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPResponse, any Error>) in
                let task = session.dataTask(with: urlRequest) { data, response, error in
                    if error != nil, inFlight.hasTimedOut {
                        continuation.resume(
                            throwing: SyncError(
                                .timedOut,
                                "\(request.method) \(request.redactedURL): no response within \(request.timeout)"))
                    } else if let error {
                        continuation.resume(throwing: Self.syncError(error, request: request))
                    } else if let response = response as? HTTPURLResponse {
                        var headers: [String: String] = [:]
                        for (name, value) in response.allHeaderFields {
                            headers["\(name)".lowercased()] = "\(value)"
                        }
                        continuation.resume(
                            returning: HTTPResponse(
                                statusCode: response.statusCode, headers: headers, body: data ?? Data()))
                    } else {
                        continuation.resume(
                            throwing: SyncError(
                                .transport, "\(request.method) \(request.redactedURL): no HTTP response"))
                    }
                }
                inFlight.start(task, timeout: request.timeout)
            }
        } onCancel: {
            inFlight.cancel()
        }
    }

    /// The error a failed data task stands for; the message names the URL without its query.
    private static func syncError(_ error: any Error, request: HTTPRequest) -> SyncError {
        let target = "\(request.method) \(request.redactedURL)"
        let code = (error as NSError).domain == NSURLErrorDomain ? (error as NSError).code : 0
        switch code {
        case NSURLErrorTimedOut:
            return SyncError(.timedOut, "\(target): no response within \(request.timeout)")
        case NSURLErrorCancelled:
            return SyncError(.cancelled, "\(target): cancelled")
        default:
            return SyncError(
                .transport, "\(target): the request failed (URL error \(code))", underlyingError: error)
        }
    }
}

extension Task where Success == Never, Failure == Never {
    /// Throws ``SyncError/Code/cancelled`` when the current task is cancelled.
    static func checkCancellation(orThrow request: HTTPRequest) throws {
        if Task.isCancelled { throw SyncError(.cancelled, "\(request.method) \(request.redactedURL): cancelled") }
    }
}

/// The data task of one request, started or cancelled in either order: a cancel that comes
/// first cancels the task as it starts, so no request is left running.
private final class InFlightTask: Sendable {
    private struct State: @unchecked Sendable {
        // Invariant: the task is touched only inside the mutex, and URLSessionTask's resume and
        // cancel may be called from any thread.
        var task: URLSessionDataTask?
        var isCancelled = false
        var hasTimedOut = false
    }
    private let state = Mutex(State())

    /// Whether the task was cancelled because its time ran out.
    var hasTimedOut: Bool { state.withLock { $0.hasTimedOut } }

    /// Starts `task`, to be cancelled as timed out after `timeout` (URLSession on Linux does not
    /// bound the whole request by itself).
    func start(_ task: URLSessionDataTask, timeout: Duration) {
        let cancelled = state.withLock { state in
            state.task = task
            return state.isCancelled
        }
        task.resume()
        if cancelled { task.cancel() }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout.seconds) { [self] in
            let task = state.withLock { state in
                if state.task?.state == .running { state.hasTimedOut = true }
                return state.hasTimedOut ? state.task : nil
            }
            task?.cancel()
        }
    }

    func cancel() {
        let task = state.withLock { state in
            state.isCancelled = true
            return state.task
        }
        task?.cancel()
    }
}
