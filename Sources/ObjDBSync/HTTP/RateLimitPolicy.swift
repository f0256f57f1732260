import Foundation

/// What an API client does when the API says its rate limit is reached (HTTP 429, or a response
/// with `x-rate-limit-remaining: 0` before the next request).
public enum RateLimitPolicy: Sendable, Hashable {
    /// Throw ``SyncError/Code/rateLimited`` at once, with ``SyncError/rateLimitReset``.
    case fail
    /// Sleep until the reset and try again, when the reset is at most `maximum` away; otherwise
    /// throw as ``fail`` does. Cancelling the task ends the wait.
    case wait(upTo: Duration)
}

/// The rate-limit fields of a response: `x-rate-limit-remaining` and `x-rate-limit-reset`
/// (seconds since 1970).
struct RateLimitHeaders {
    let remaining: Int?
    let reset: Date?

    init(_ response: HTTPResponse) {
        remaining = response.header("x-rate-limit-remaining").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        reset = response.header("x-rate-limit-reset").flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            .map { Date(timeIntervalSince1970: $0) }
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

/// Sleeps until `date` (at once when it has passed); throws ``SyncError/Code/cancelled`` when
/// the task is cancelled meanwhile.
func sleep(until date: Date) async throws {
    let interval = date.timeIntervalSinceNow
    guard interval > 0 else { return }
    do {
        try await Task.sleep(for: .milliseconds(Int64((interval * 1000).rounded(.up))))
    } catch {
        throw SyncError(.cancelled, "cancelled while waiting for the rate limit to reset")
    }
}
