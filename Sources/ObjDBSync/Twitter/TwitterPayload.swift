import Foundation

/// The shapes a Twitter API v1.1 response body comes in, told apart before anything is written.
enum TwitterPayload {
    /// statuses/home_timeline, user_timeline, mentions_timeline (an array), or search/tweets
    /// (`statuses` beside `search_metadata`, whose query is given).
    case statuses(JSONValue, searchQuery: String?)
    /// users/show: one user, with its latest status embedded.
    case user(JSONValue)

    /// Classifies `root`.
    ///
    /// - Throws: ``SyncError/Code/apiError`` or ``SyncError/Code/rateLimited`` for an error body,
    ///   ``SyncError/Code/unexpectedPayload`` for any other shape.
    init(_ root: JSONValue) throws {
        switch root.kind {
        case .array:
            self = .statuses(root, searchQuery: nil)
        case .object:
            if root["data"] != nil || root["includes"] != nil || root["meta"] != nil {
                let keys = root.members.prefix(8).map(\.key).joined(separator: ", ")
                throw SyncError(
                    .unexpectedPayload,
                    "not a Twitter API v1.1 payload: an object with \(keys) is an X API v2 body; import it with "
                        + "XImporter (objdb-sync import x)")
            }
            if let error = twitterAPIError(in: root) { throw error }
            if let statuses = root["statuses"] {
                guard statuses.kind == .array else {
                    throw SyncError(
                        .unexpectedValue, at: statuses.path, "expected an array of statuses, found \(statuses)")
                }
                let query = root["search_metadata"]?["query"]?.stringValue
                self = .statuses(statuses, searchQuery: query.map { $0.removingPercentEncoding ?? $0 })
            } else if root["screen_name"] != nil, root["id_str"] != nil || root["id"] != nil {
                self = .user(root)
            } else {
                let keys = root.members.prefix(8).map(\.key).joined(separator: ", ")
                throw SyncError(
                    .unexpectedPayload,
                    "not a Twitter API v1.1 payload: expected an array of statuses, a search/tweets response, "
                        + "a users/show user or an error body, found an object with \(keys.isEmpty ? "no keys" : keys)")
            }
        default:
            throw SyncError(
                .unexpectedPayload, "not a Twitter API v1.1 payload: expected an array or an object, found \(root)")
        }
    }
}

/// The error an error body stands for, or `nil` when `root` is not one.
///
/// Twitter has answered in several shapes: `{"errors": [{"code": 215, "message": …}]}` (v1.1, in
/// either key order, sometimes with more keys), `{"errors": "…"}`, `{"error": "…", "request": …}`
/// (v1), and, from v2's gateway, `{"title": …, "detail": …, "status": 401}`.
func twitterAPIError(in root: JSONValue) -> SyncError? {
    var messages: [SyncError.APIMessage] = []
    var isRateLimit = false
    func message(from entry: JSONValue) {
        switch entry.kind {
        case .object:
            let code = entry["code"].flatMap { $0.int64Value.map(String.init) ?? $0.stringValue }
            let text = entry["message"]?.stringValue ?? entry["detail"]?.stringValue ?? entry.jsonText
            messages.append(SyncError.APIMessage(code: code, message: text))
        case .string:
            messages.append(SyncError.APIMessage(code: nil, message: entry.stringValue ?? ""))
        default:
            messages.append(SyncError.APIMessage(code: nil, message: entry.jsonText))
        }
    }
    if let errors = root["errors"], !errors.isNull {
        if errors.kind == .array { errors.elements.forEach(message(from:)) } else { message(from: errors) }
        if messages.isEmpty { messages.append(SyncError.APIMessage(code: nil, message: "an empty list of errors")) }
    }
    if let error = root["error"], !error.isNull { message(from: error) }
    if messages.isEmpty, root["statuses"] == nil, root["screen_name"] == nil, let title = root["title"]?.stringValue,
        root["detail"] != nil || root["type"] != nil
    {
        let status = root["status"]?.int64Value
        isRateLimit = status == 429
        messages.append(
            SyncError.APIMessage(code: status.map(String.init), message: root["detail"]?.stringValue ?? title))
    }
    guard !messages.isEmpty else { return nil }
    isRateLimit =
        isRateLimit
        || messages.contains { $0.code == "88" || $0.message.localizedCaseInsensitiveContains("rate limit") }
    let said = messages.map(\.description).joined(separator: "; ")
    return isRateLimit
        ? SyncError(.rateLimited, "the Twitter API's rate limit was reached: \(said)", apiMessages: messages)
        : SyncError(.apiError, "the Twitter API answered with an error: \(said)", apiMessages: messages)
}
