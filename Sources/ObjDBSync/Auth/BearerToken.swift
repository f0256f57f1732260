import Foundation

extension TwitterCredentials {
    /// Obtains an app-only bearer token for the app's key and secret (`POST oauth2/token` with
    /// `grant_type=client_credentials`, as Twitter's application-only authentication describes).
    ///
    /// ```swift
    /// let app = try await TwitterCredentials.appOnly(consumerKey: key, consumerSecret: secret)
    /// let client = TwitterClient(credentials: app)
    /// ```
    ///
    /// - Parameter baseURL: the API's base URL; the token endpoint is `oauth2/token` beside its
    ///   `1.1/` (`https://api.twitter.com/oauth2/token`).
    /// - Throws: ``SyncError``: ``SyncError/Code/apiError`` when Twitter refuses the keys,
    ///   ``SyncError/Code/unexpectedPayload`` for an answer without a bearer token. No key,
    ///   secret or token appears in a message.
    public static func appOnly(
        consumerKey: Secret, consumerSecret: Secret, baseURL: URL = TwitterClient.defaultBaseURL,
        transport: any HTTPTransport = URLSessionTransport(), timeout: Duration = .seconds(30)
    ) async throws -> TwitterCredentials {
        let root = baseURL.lastPathComponent == "1.1" ? baseURL.deletingLastPathComponent() : baseURL
        let basic = Data((percentEncoded(consumerKey.revealed) + ":" + percentEncoded(consumerSecret.revealed)).utf8)
            .base64EncodedString()
        let request = HTTPRequest(
            method: "POST", url: root.appendingPathComponent("oauth2/token"),
            headers: [
                "Authorization": "Basic " + basic, "Content-Type": "application/x-www-form-urlencoded;charset=UTF-8",
            ],
            body: Data("grant_type=client_credentials".utf8), timeout: timeout)
        let response = try await transport.send(request)
        let document = try? JSONDocument(response.body)
        guard (200..<300).contains(response.statusCode) else {
            if let error = document.flatMap({ twitterAPIError(in: $0.root) }) {
                throw SyncError(
                    error.code, "\(error.message) (HTTP \(response.statusCode))", apiMessages: error.apiMessages,
                    httpStatus: response.statusCode)
            }
            throw SyncError(
                .httpStatus, "POST \(request.redactedURL) answered HTTP \(response.statusCode)",
                httpStatus: response.statusCode)
        }
        guard let root = document?.root, root["token_type"]?.stringValue?.lowercased() == "bearer",
            let token = root["access_token"]?.stringValue, !token.isEmpty
        else {
            throw SyncError(.unexpectedPayload, "oauth2/token answered without a bearer token")
        }
        return .app(bearerToken: Secret(token))
    }
}
