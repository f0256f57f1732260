/// How requests to X API v2 authenticate: with an OAuth 2.0 bearer token (the app's alone, or a
/// user's), or as a user with OAuth 1.0a keys.
///
/// ```swift
/// let client = XClient(credentials: .user(accessToken: Secret(token)))   // home, mentions, user, search
/// let search = XClient(credentials: .app(bearerToken: Secret(bearer)))   // user and search only
/// ```
///
/// Home and mentions need a user context: ``user(accessToken:)`` or ``oauth1(_:)``.
public enum XCredentials: Sendable, Hashable {
    /// App-only (OAuth 2.0 client credentials): `Authorization: Bearer TOKEN`.
    case app(bearerToken: Secret)
    /// A user's OAuth 2.0 access token (Authorization Code Flow with PKCE): `Authorization: Bearer TOKEN`.
    case user(accessToken: Secret)
    /// User context with OAuth 1.0a keys, each request signed (HMAC-SHA1).
    case oauth1(OAuth1Credentials)

    /// Whether requests act as a user (home and mentions need one).
    public var isUserContext: Bool {
        if case .app = self { return false }
        return true
    }

    /// The `Authorization` header value for `request`.
    public func authorization(for request: HTTPRequest) -> String {
        switch self {
        case .app(let token): return "Bearer " + token.revealed
        case .user(let token): return "Bearer " + token.revealed
        case .oauth1(let credentials): return OAuth1Signer(credentials: credentials).authorization(for: request)
        }
    }
}
