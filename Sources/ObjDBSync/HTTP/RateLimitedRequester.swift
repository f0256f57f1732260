import Foundation
import Synchronization

/// Sends the GETs of one of X's APIs (Twitter v1.1, X v2) minding its rate limit, and turns
/// responses of failure into typed ``SyncError``s: shared by ``TwitterClient`` and ``XClient``,
/// which differ in paths and bodies only.
///
/// A response of HTTP 429, or a request made while the last response said
/// `x-rate-limit-remaining: 0`, is ``SyncError/Code/rateLimited`` with the reset time of
/// `x-rate-limit-reset`, unless the ``RateLimitPolicy`` waits (twice at most per request).
final class RateLimitedRequester: Sendable {
    /// The API's name in messages: `Twitter API`, `X API`.
    let apiName: String
    let transport: any HTTPTransport
    let rateLimitPolicy: RateLimitPolicy
    let timeout: Duration
    /// The typed error an error body stands for, if it is one.
    private let bodyError: @Sendable (JSONValue) -> SyncError?
    /// When the last response said the limit is used up: the reset time.
    private let exhaustedUntil = Mutex<Date?>(nil)

    init(
        apiName: String, transport: any HTTPTransport, rateLimitPolicy: RateLimitPolicy, timeout: Duration,
        bodyError: @escaping @Sendable (JSONValue) -> SyncError?
    ) {
        self.apiName = apiName
        self.transport = transport
        self.rateLimitPolicy = rateLimitPolicy
        self.timeout = timeout
        self.bodyError = bodyError
    }

    /// GETs `url`, authorized by `authorize`; returns a successful response's body.
    func get(_ url: URL, authorize: (HTTPRequest) -> String) async throws -> Data {
        var request = HTTPRequest(url: url, timeout: timeout)
        var attempt = 0
        while true {
            attempt += 1
            if let reset = exhaustedUntil.withLock({ $0 }), reset > Date() {
                try await waitOrThrow(
                    SyncError(
                        .rateLimited,
                        "the \(apiName)'s rate limit is used up until \(reset) (x-rate-limit-remaining: 0)",
                        rateLimitReset: reset), reset: reset)
            }
            request.headers["Authorization"] = authorize(request)
            request.headers["Accept"] = "application/json"
            let response = try await transport.send(request)
            let limits = RateLimitHeaders(response)
            exhaustedUntil.withLock { $0 = limits.remaining == 0 ? limits.reset : nil }
            if (200..<300).contains(response.statusCode) { return response.body }
            let error = self.error(in: response, request: request, limits: limits)
            guard error.code == .rateLimited, attempt < 3 else { throw error }
            try await waitOrThrow(error, reset: error.rateLimitReset)
        }
    }

    /// Sleeps until `reset` when the policy allows it, else throws `error`.
    private func waitOrThrow(_ error: SyncError, reset: Date?) async throws {
        guard case .wait(let maximum) = rateLimitPolicy, let reset, reset.timeIntervalSinceNow <= maximum.seconds
        else { throw error }
        try await sleep(until: reset)
        exhaustedUntil.withLock { $0 = nil }
    }

    /// The typed error of a response of failure.
    private func error(in response: HTTPResponse, request: HTTPRequest, limits: RateLimitHeaders) -> SyncError {
        let status = response.statusCode
        let bodyError = (try? JSONDocument(response.body)).flatMap { self.bodyError($0.root) }
        if status == 429 || bodyError?.code == .rateLimited {
            let said = bodyError.map { ": " + $0.apiMessages.map(\.description).joined(separator: "; ") } ?? ""
            let until = limits.reset.map { " until \($0)" } ?? ""
            return SyncError(
                .rateLimited, "the \(apiName)'s rate limit was reached\(until) (HTTP \(status))\(said)",
                apiMessages: bodyError?.apiMessages ?? [], httpStatus: status, rateLimitReset: limits.reset)
        }
        if let bodyError {
            return SyncError(
                .apiError, "\(bodyError.message) (HTTP \(status))", apiMessages: bodyError.apiMessages,
                httpStatus: status)
        }
        return SyncError(
            .httpStatus, "\(request.method) \(request.redactedURL) answered HTTP \(status)", httpStatus: status)
    }
}
