import Foundation

/// An X API v2 response body taken apart before anything is written: `data` (posts or users, an
/// array or one object), `includes` (`users`, `tweets`, `media`), `meta` and partial `errors`.
///
/// Every shape is checked here, so the import itself meets only the values its mappings read:
/// a part of the wrong kind is ``SyncError/Code/unexpectedValue`` at its JSON path.
struct XPayload {
    /// The posts and users of `data`, in order.
    var data: [JSONValue] = []
    /// `includes.users`, `includes.tweets` and `includes.media`.
    var includedUsers: [JSONValue] = []
    var includedPosts: [JSONValue] = []
    var includedMedia: [JSONValue] = []
    /// `errors` beside the data: posts or users that were asked for and could not be had.
    var partialErrors: [SyncError.APIMessage] = []
    /// `meta.next_token` and `meta.previous_token`.
    var nextToken: String?
    var previousToken: String?

    /// Classifies `root`.
    ///
    /// - Throws: ``SyncError/Code/apiError`` or ``SyncError/Code/rateLimited`` for a problem
    ///   document or a body of errors only; ``SyncError/Code/unexpectedPayload`` for a body that is
    ///   not v2's; ``SyncError/Code/unexpectedValue`` at the path of a part of the wrong kind.
    init(_ root: JSONValue) throws {
        guard root.kind == .object else {
            throw SyncError(
                .unexpectedPayload,
                "not an X API v2 payload: expected an object with data, includes and meta, found \(root)"
                    + (root.kind == .array ? " (a v1.1 timeline is an array: import it with TwitterImporter)" : ""))
        }
        let data = root["data"].flatMap { $0.isNull ? nil : $0 }
        let includes = root["includes"].flatMap { $0.isNull ? nil : $0 }
        let meta = root["meta"].flatMap { $0.isNull ? nil : $0 }
        if data == nil, includes == nil, meta == nil {
            if let error = xAPIError(in: root) { throw error }
            guard root["errors"] != nil else {
                let keys = root.members.prefix(8).map(\.key).joined(separator: ", ")
                throw SyncError(
                    .unexpectedPayload,
                    "not an X API v2 payload: expected data, includes, meta or errors, found an object with "
                        + (keys.isEmpty ? "no keys" : keys)
                        + (root["statuses"] != nil ? " (a v1.1 search: import it with TwitterImporter)" : ""))
            }
        }
        if let data {
            switch data.kind {
            case .array:
                self.data = try data.elements.map { try Self.object($0, in: "data") }
            case .object:
                self.data = [data]
            default:
                throw SyncError(
                    .unexpectedValue, at: data.path, "expected an array of posts or an object, found \(data)")
            }
        }
        if let includes {
            guard includes.kind == .object else {
                throw SyncError(.unexpectedValue, at: includes.path, "expected an object, found \(includes)")
            }
            includedUsers = try Self.objects(includes["users"], in: "includes.users")
            includedPosts = try Self.objects(includes["tweets"], in: "includes.tweets")
            includedMedia = try Self.objects(includes["media"], in: "includes.media")
        }
        if let meta {
            guard meta.kind == .object else {
                throw SyncError(.unexpectedValue, at: meta.path, "expected an object, found \(meta)")
            }
            nextToken = try Self.token(meta["next_token"])
            previousToken = try Self.token(meta["previous_token"])
        }
        if let errors = root["errors"], !errors.isNull {
            partialErrors = try Self.objects(errors, in: "errors").map(xMessage(from:))
        }
    }

    /// Whether a `data` object is a user (users/by/username, users/me) rather than a post.
    static func isUser(_ json: JSONValue) -> Bool {
        json["username"] != nil && json["text"] == nil
    }

    private static func object(_ json: JSONValue, in name: String) throws -> JSONValue {
        guard json.kind == .object else {
            throw SyncError(.unexpectedValue, at: json.path, "expected an object in \(name), found \(json)")
        }
        return json
    }

    private static func objects(_ json: JSONValue?, in name: String) throws -> [JSONValue] {
        guard let json, !json.isNull else { return [] }
        guard json.kind == .array else {
            throw SyncError(.unexpectedValue, at: json.path, "expected an array of objects, found \(json)")
        }
        return try json.elements.map { try object($0, in: name) }
    }

    private static func token(_ json: JSONValue?) throws -> String? {
        guard let json, !json.isNull else { return nil }
        guard let token = json.stringValue, !token.isEmpty else {
            throw SyncError(.unexpectedValue, at: json.path, "expected a pagination token string, found \(json)")
        }
        return token
    }
}

/// The error an X API v2 error body stands for, or `nil` when `root` is not one.
///
/// v2 answers failures with a problem document (RFC 7807: `title`, `detail`, `type`, often
/// `status`), sometimes with an `errors` array of the parameters at fault; the gateway and v1.1's
/// code also answer `{"errors": [{"code", "message"}]}`. A body of `errors` only, each naming a
/// resource (`resource_id`, `resource_type`), is not a failure but a page whose every post was
/// missing: `nil`. HTTP 429, `Too Many Requests` and the `usage-capped` problem are
/// ``SyncError/Code/rateLimited``.
func xAPIError(in root: JSONValue) -> SyncError? {
    guard root.kind == .object else { return nil }
    if let title = root["title"]?.stringValue, root["detail"] != nil || root["type"] != nil {
        var messages: [SyncError.APIMessage] = []
        if let errors = root["errors"], errors.kind == .array {
            for entry in errors.elements where entry.kind == .object {
                if let text = entry["message"]?.stringValue ?? entry["detail"]?.stringValue {
                    messages.append(SyncError.APIMessage(code: problemCode(entry), message: text))
                }
            }
        }
        let detail = root["detail"]?.stringValue ?? title
        messages.insert(SyncError.APIMessage(code: problemCode(root), message: detail), at: 0)
        let status = root["status"]?.int64Value
        let type = root["type"]?.stringValue ?? ""
        let said = messages.map(\.description).joined(separator: "; ")
        if status == 429 || type.hasSuffix("/usage-capped") || title == "Too Many Requests"
            || title == "UsageCapExceeded"
        {
            return SyncError(.rateLimited, "the X API's rate limit was reached: \(said)", apiMessages: messages)
        }
        return SyncError(.apiError, "the X API answered with an error: \(said)", apiMessages: messages)
    }
    guard let errors = root["errors"], !errors.isNull else { return twitterAPIError(in: root) }
    if errors.kind == .array, !errors.elements.isEmpty,
        errors.elements.allSatisfy({ $0.kind == .object && ($0["resource_id"] != nil || $0["resource_type"] != nil) })
    {
        return nil
    }
    return twitterAPIError(in: root)
}

/// One v2 error or problem as a message: its `detail` (else `message`, else `title`), with its
/// problem `type` as the code (its HTTP `status` for `about:blank`).
func xMessage(from entry: JSONValue) -> SyncError.APIMessage {
    let text =
        entry["detail"]?.stringValue ?? entry["message"]?.stringValue ?? entry["title"]?.stringValue ?? entry.jsonText
    return SyncError.APIMessage(code: problemCode(entry), message: text)
}

private func problemCode(_ entry: JSONValue) -> String? {
    if let type = entry["type"]?.stringValue, type != "about:blank" { return type }
    if let status = entry["status"]?.int64Value { return String(status) }
    return entry["code"].flatMap { $0.int64Value.map(String.init) ?? $0.stringValue }
}
