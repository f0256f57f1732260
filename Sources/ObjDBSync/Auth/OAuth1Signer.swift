import Foundation

/// Signs requests for Twitter's user context with OAuth 1.0a, HMAC-SHA1 (RFC 5849).
///
/// ```swift
/// let signer = OAuth1Signer(credentials: credentials)
/// request.headers["Authorization"] = signer.authorization(for: request)
/// ```
///
/// The signature covers the method, the URL without its query, the query's parameters, a form
/// body's parameters, and the `oauth_` parameters, as Twitter's "Creating a signature" describes;
/// the HMAC is libcrypto's.
public struct OAuth1Signer: Sendable {
    /// The consumer's and the user's keys and secrets.
    public let credentials: OAuth1Credentials

    /// A signer with `credentials`.
    public init(credentials: OAuth1Credentials) {
        self.credentials = credentials
    }

    /// The `Authorization` header value for `request`, with a fresh nonce and the current time.
    public func authorization(for request: HTTPRequest) -> String {
        var random = SystemRandomNumberGenerator()
        let nonce = (0..<32).map { _ in
            "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".randomElement(using: &random)!
        }
        return authorization(
            for: request, nonce: String(nonce), timestamp: Int64(Date().timeIntervalSince1970.rounded(.down)))
    }

    /// The `Authorization` header value for `request` with a given nonce and timestamp.
    public func authorization(for request: HTTPRequest, nonce: String, timestamp: Int64) -> String {
        let oauth = oauthParameters(nonce: nonce, timestamp: timestamp)
        let signature = self.signature(for: request, oauthParameters: oauth)
        let fields = (oauth + [("oauth_signature", signature)]).sorted { $0.0 < $1.0 }
        return "OAuth " + fields.map { "\(percentEncoded($0.0))=\"\(percentEncoded($0.1))\"" }.joined(separator: ", ")
    }

    /// The signature (base64) of `request` with a given nonce and timestamp.
    public func signature(for request: HTTPRequest, nonce: String, timestamp: Int64) -> String {
        signature(for: request, oauthParameters: oauthParameters(nonce: nonce, timestamp: timestamp))
    }

    /// The signature base string: the method, the base URL and the sorted, encoded parameters.
    public func signatureBaseString(for request: HTTPRequest, nonce: String, timestamp: Int64) -> String {
        signatureBaseString(for: request, oauthParameters: oauthParameters(nonce: nonce, timestamp: timestamp))
    }

    private func oauthParameters(nonce: String, timestamp: Int64) -> [(String, String)] {
        [
            ("oauth_consumer_key", credentials.consumerKey.revealed), ("oauth_nonce", nonce),
            ("oauth_signature_method", "HMAC-SHA1"), ("oauth_timestamp", String(timestamp)),
            ("oauth_token", credentials.token.revealed), ("oauth_version", "1.0"),
        ]
    }

    private func signature(for request: HTTPRequest, oauthParameters: [(String, String)]) -> String {
        let base = signatureBaseString(for: request, oauthParameters: oauthParameters)
        let key =
            percentEncoded(credentials.consumerSecret.revealed) + "&" + percentEncoded(credentials.tokenSecret.revealed)
        return Data(hmacSHA1(key: Array(key.utf8), message: Array(base.utf8))).base64EncodedString()
    }

    private func signatureBaseString(for request: HTTPRequest, oauthParameters: [(String, String)]) -> String {
        var parameters = oauthParameters
        let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        for item in components?.queryItems ?? [] { parameters.append((item.name, item.value ?? "")) }
        let contentType = request.headers.first { $0.key.lowercased() == "content-type" }?.value ?? ""
        if let body = request.body, contentType.hasPrefix("application/x-www-form-urlencoded") {
            var form = URLComponents()
            form.percentEncodedQuery = String(decoding: body, as: UTF8.self).replacingOccurrences(of: "+", with: "%20")
            for item in form.queryItems ?? [] { parameters.append((item.name, item.value ?? "")) }
        }
        let encoded = parameters.map { (percentEncoded($0.0), percentEncoded($0.1)) }.sorted { $0 < $1 }
        let parameterString = encoded.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
        return request.method.uppercased() + "&" + percentEncoded(Self.baseURL(of: request.url)) + "&"
            + percentEncoded(parameterString)
    }

    /// The URL as the signature names it: lower-case scheme and host, a port only when not the
    /// scheme's default, the path, and no query or fragment.
    static func baseURL(of url: URL) -> String {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        let scheme = (components?.scheme ?? "https").lowercased()
        let host = (components?.host ?? "").lowercased()
        var port = ""
        if let number = components?.port, !(scheme == "http" && number == 80), !(scheme == "https" && number == 443) {
            port = ":\(number)"
        }
        let path = components?.percentEncodedPath ?? "/"
        return "\(scheme)://\(host)\(port)\(path.isEmpty ? "/" : path)"
    }
}
