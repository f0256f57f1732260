import Foundation

/// One page of a Twitter API v1.1 timeline or search response, decoded.
///
/// Accepts the three shapes the API answers with: a JSON array of statuses
/// (`statuses/home_timeline`, `user_timeline`, `mentions_timeline`), an object
/// with `statuses` (`search/tweets`), and an object with `errors`, which
/// becomes a thrown ``TwitterPayloadError/apiError(code:message:)``.
///
/// ```swift
/// let page = try TwitterTimelinePage(json: data)
/// let next = page.olderPageMaxID  // the max_id of the next, older page
/// ```
public struct TwitterTimelinePage: Sendable {
    /// The page's statuses, newest first, as the API orders them.
    public let statuses: [TwitterStatusPayload]

    /// Decodes a response body.
    ///
    /// - Throws: ``TwitterPayloadError`` for a body that is not a timeline, or is an API error.
    public init(json: Data) throws {
        let decoder = JSONDecoder()
        if let statuses = try? decoder.decode([TwitterStatusPayload].self, from: json) {
            self.statuses = statuses
            return
        }
        if let search = try? decoder.decode(SearchResponse.self, from: json) {
            self.statuses = search.statuses
            return
        }
        if let failure = try? decoder.decode(ErrorResponse.self, from: json), let first = failure.errors.first {
            throw TwitterPayloadError.apiError(code: first.code, message: first.message)
        }
        do {
            _ = try decoder.decode([TwitterStatusPayload].self, from: json)
            throw TwitterPayloadError.notATimeline(detail: "unexpected JSON shape")
        } catch let error as DecodingError {
            throw TwitterPayloadError.notATimeline(detail: describe(error))
        }
    }

    /// The largest status ID on the page: the `since_id` that asks for newer statuses only.
    public var newestID: Int64? { statuses.map(\.id).max() }

    /// One less than the smallest status ID: the `max_id` of the next, older page.
    public var olderPageMaxID: Int64? { statuses.map(\.id).min().map { $0 - 1 } }

    private struct SearchResponse: Decodable {
        let statuses: [TwitterStatusPayload]
    }

    private struct ErrorResponse: Decodable {
        struct Failure: Decodable {
            let code: Int
            let message: String
        }
        let errors: [Failure]
    }
}

/// Why a payload could not be read as a Twitter timeline.
public enum TwitterPayloadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The API answered with an error object instead of statuses.
    case apiError(code: Int, message: String)
    /// The body is not JSON of any timeline shape; `detail` names the first field that did not fit.
    case notATimeline(detail: String)

    /// A sentence naming the problem.
    public var description: String {
        switch self {
        case .apiError(let code, let message): return "the Twitter API answered error \(code): \(message)"
        case .notATimeline(let detail): return "not a Twitter timeline payload: \(detail)"
        }
    }
}

private func describe(_ error: DecodingError) -> String {
    func path(_ context: DecodingError.Context) -> String {
        context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined()
    }
    switch error {
    case .keyNotFound(let key, let context): return "missing \(path(context)).\(key.stringValue)"
    case .typeMismatch(_, let context), .valueNotFound(_, let context):
        return "\(path(context)): \(context.debugDescription)"
    case .dataCorrupted(let context): return "\(path(context)): \(context.debugDescription)"
    @unknown default: return "\(error)"
    }
}
