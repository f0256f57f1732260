import Foundation

/// Why an import failed: a stable ``code``, where in the payload (``path``), and a plain ``message``.
///
/// ```swift
/// do {
///     try importer.importPage(data, timeline: "home")
/// } catch let error as SyncError where error.code == .unexpectedValue {
///     print(error)   // "[3].created_at: expected a Twitter date string, found 42"
/// }
/// ```
///
/// An import that throws leaves the store as it was. Errors of ObjDB itself (a full map, a
/// unique-index violation) arrive as ``Code/store`` with the ObjDB error in ``underlyingError``.
///
/// ## Topics
/// - ``Code``
/// - ``APIMessage``
public struct SyncError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is; stable across releases, for code that reacts to failures.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's name.
        public let rawValue: String
        /// A code named `rawValue`.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code's name.
        public var description: String { rawValue }

        /// The bytes are not JSON: a syntax error, invalid UTF-8, nesting too deep, or too large.
        public static let malformedJSON = Code(rawValue: "malformedJSON")
        /// A value the mapping cannot use: the wrong JSON type, out of range, or not in the expected format.
        public static let unexpectedValue = Code(rawValue: "unexpectedValue")
        /// A value the mapping requires (an object's identity) is absent or `null`.
        public static let missingValue = Code(rawValue: "missingValue")
        /// The payload is JSON, but of none of the shapes the importer takes.
        public static let unexpectedPayload = Code(rawValue: "unexpectedPayload")
        /// The payload is an error body of the API; ``SyncError/apiMessages`` holds what it said.
        public static let apiError = Code(rawValue: "apiError")
        /// The payload is the API's rate-limit error; ``SyncError/apiMessages`` holds what it said.
        public static let rateLimited = Code(rawValue: "rateLimited")
        /// Objects nested deeper than the importer allows.
        public static let limitExceeded = Code(rawValue: "limitExceeded")
        /// The store refused the write; ``SyncError/underlyingError`` is ObjDB's error.
        public static let store = Code(rawValue: "store")
        /// An argument given to the importer (a timeline name, a query) is not usable.
        public static let invalidArgument = Code(rawValue: "invalidArgument")
        /// No response came within the request's timeout.
        public static let timedOut = Code(rawValue: "timedOut")
        /// The task fetching was cancelled; the request is no longer in flight.
        public static let cancelled = Code(rawValue: "cancelled")
        /// No HTTP response: the host is unreachable, the connection broke.
        public static let transport = Code(rawValue: "transport")
        /// The server answered with an HTTP status of failure and a body of no known error shape;
        /// ``SyncError/httpStatus`` holds it.
        public static let httpStatus = Code(rawValue: "httpStatus")
        /// A load of the same timeline is already in flight: the second one fetched nothing.
        public static let loadInProgress = Code(rawValue: "loadInProgress")
        /// Credentials are missing, incomplete, or in a file others may read.
        public static let credentials = Code(rawValue: "credentials")
    }

    /// One message of an API error body, with the code the API gave it.
    public struct APIMessage: Hashable, Sendable, CustomStringConvertible {
        /// The API's code for it: Twitter's number (`"215"`), NYT's `errorcode`; `nil` when there was none.
        public let code: String?
        /// What the API said.
        public let message: String

        /// A message `message` with code `code`.
        public init(code: String?, message: String) {
            self.code = code
            self.message = message
        }

        /// `message (code)`, or the message alone.
        public var description: String { code.map { "\(message) (\($0))" } ?? message }
    }

    /// What kind of failure this is.
    public let code: Code
    /// Where in the payload the failure is, or `nil` when it concerns the whole payload.
    public let path: JSONPath?
    /// What went wrong, in a sentence a user can act on.
    public let message: String
    /// For ``Code/apiError`` and ``Code/rateLimited``: every message of the error body.
    public let apiMessages: [APIMessage]
    /// For ``Code/store``: the error ObjDB threw.
    public let underlyingError: (any Error)?
    /// The HTTP status of the response the error came in, when it came over HTTP.
    public let httpStatus: Int?
    /// For ``Code/rateLimited``: when the API said the limit resets (`x-rate-limit-reset`), if it did.
    public let rateLimitReset: Date?

    /// An error of kind `code` at `path`.
    public init(
        _ code: Code, at path: JSONPath? = nil, _ message: String, apiMessages: [APIMessage] = [],
        underlyingError: (any Error)? = nil, httpStatus: Int? = nil, rateLimitReset: Date? = nil
    ) {
        self.code = code
        self.path = path
        self.message = message
        self.apiMessages = apiMessages
        self.underlyingError = underlyingError
        self.httpStatus = httpStatus
        self.rateLimitReset = rateLimitReset
    }

    /// `path: message`, or the message alone.
    public var description: String {
        guard let path, !path.isEmpty else { return message }
        return "\(path): \(message)"
    }

    /// The same error, placed at `path` when it had no place yet.
    func placed(at path: JSONPath) -> SyncError {
        guard self.path == nil else { return self }
        return SyncError(
            code, at: path, message, apiMessages: apiMessages, underlyingError: underlyingError,
            httpStatus: httpStatus, rateLimitReset: rateLimitReset)
    }

    /// The same error, as it came in an HTTP response of `status` with a limit resetting at `reset`.
    func received(status: Int, reset: Date?) -> SyncError {
        SyncError(
            code, at: path, message, apiMessages: apiMessages, underlyingError: underlyingError,
            httpStatus: status, rateLimitReset: reset ?? rateLimitReset)
    }
}
