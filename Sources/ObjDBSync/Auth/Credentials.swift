import Foundation

/// The four keys of OAuth 1.0a user context: the app's (consumer) and the user's (access token).
public struct OAuth1Credentials: Sendable, Hashable {
    /// The app's API key (`oauth_consumer_key`).
    public var consumerKey: Secret
    /// The app's API secret.
    public var consumerSecret: Secret
    /// The user's access token (`oauth_token`).
    public var token: Secret
    /// The user's access token secret.
    public var tokenSecret: Secret

    /// Credentials of these four values.
    public init(consumerKey: Secret, consumerSecret: Secret, token: Secret, tokenSecret: Secret) {
        self.consumerKey = consumerKey
        self.consumerSecret = consumerSecret
        self.token = token
        self.tokenSecret = tokenSecret
    }
}

/// How requests to the Twitter API authenticate: as a user (OAuth 1.0a, every timeline) or as
/// the app alone (a bearer token: user timelines and search, not home or mentions).
public enum TwitterCredentials: Sendable, Hashable {
    /// User context: each request signed with OAuth 1.0a HMAC-SHA1.
    case user(OAuth1Credentials)
    /// App-only: `Authorization: Bearer TOKEN`.
    case app(bearerToken: Secret)

    /// The `Authorization` header value for `request`.
    public func authorization(for request: HTTPRequest) -> String {
        switch self {
        case .user(let credentials): return OAuth1Signer(credentials: credentials).authorization(for: request)
        case .app(let token): return "Bearer " + token.revealed
        }
    }
}

/// The keys `objdb-sync` and the API clients use, read from the environment or from a file only
/// its owner can read; never from a command line, never written anywhere.
///
/// ```swift
/// let credentials = try SyncCredentials.load()   // the environment, then the file
/// let client = TwitterClient(credentials: try credentials.requireTwitter())
/// ```
///
/// The names, in the environment or as `NAME=value` lines of the file (`#` starts a comment):
/// `TWITTER_CONSUMER_KEY`, `TWITTER_CONSUMER_SECRET`, `TWITTER_ACCESS_TOKEN`,
/// `TWITTER_ACCESS_TOKEN_SECRET` (user context), `TWITTER_BEARER_TOKEN` (app-only), `NYT_API_KEY`;
/// for X API v2 also `X_USER_ACCESS_TOKEN` (an OAuth 2.0 user-context access token) and
/// `X_BEARER_TOKEN` (app-only; `TWITTER_BEARER_TOKEN` serves when it is absent).
/// The file is `$OBJDB_SYNC_CREDENTIALS`, or `~/.config/objdb-sync/credentials`; one that its
/// group or others may read, or that another user owns, is refused.
public struct SyncCredentials: Sendable, Hashable {
    /// Twitter's credentials, user context when all four keys are given, else app-only.
    public var twitter: TwitterCredentials?
    /// The NYT API key (`api-key`).
    public var nytAPIKey: Secret?
    /// X API v2's credentials: the OAuth 2.0 user access token when given, else the OAuth 1.0a
    /// keys, else an app-only bearer token.
    public var x: XCredentials?

    /// Credentials of these values.
    public init(twitter: TwitterCredentials? = nil, nytAPIKey: Secret? = nil, x: XCredentials? = nil) {
        self.twitter = twitter
        self.nytAPIKey = nytAPIKey
        self.x = x
    }

    /// The names read, in the environment or the file.
    public static let variableNames = [
        "TWITTER_CONSUMER_KEY", "TWITTER_CONSUMER_SECRET", "TWITTER_ACCESS_TOKEN", "TWITTER_ACCESS_TOKEN_SECRET",
        "TWITTER_BEARER_TOKEN", "NYT_API_KEY", "X_USER_ACCESS_TOKEN", "X_BEARER_TOKEN",
    ]

    /// Reads the credentials file (when present), then the environment, which wins name by name.
    ///
    /// - Throws: ``SyncError/Code/credentials`` for a file others may read, or an incomplete set
    ///   of OAuth keys. The message names the file and the variable, never a value.
    public static func load(environment: [String: String] = ProcessInfo.processInfo.environment) throws
        -> SyncCredentials
    {
        let path = environment["OBJDB_SYNC_CREDENTIALS"] ?? defaultFilePath(environment: environment)
        var values: [String: String] = [:]
        if let path, FileManager.default.fileExists(atPath: path) { values = try readFile(path) }
        for name in variableNames { if let value = environment[name], !value.isEmpty { values[name] = value } }
        return try SyncCredentials(values: values)
    }

    /// Reads the credentials of the file at `path`.
    ///
    /// - Throws: ``SyncError/Code/credentials`` when the file cannot be read, is not its reader's
    ///   own, or its group or others may read or write it.
    public static func load(file path: String) throws -> SyncCredentials {
        try SyncCredentials(values: readFile(path))
    }

    /// Twitter's credentials, or an error that says how to give them.
    public func requireTwitter() throws -> TwitterCredentials {
        guard let twitter else {
            throw SyncError(
                .credentials,
                "no Twitter credentials: set TWITTER_CONSUMER_KEY, TWITTER_CONSUMER_SECRET, TWITTER_ACCESS_TOKEN and "
                    + "TWITTER_ACCESS_TOKEN_SECRET (or TWITTER_BEARER_TOKEN) in the environment or the credentials file"
            )
        }
        return twitter
    }

    /// X API v2's credentials, or an error that says how to give them.
    public func requireX() throws -> XCredentials {
        guard let x else {
            throw SyncError(
                .credentials,
                "no X API credentials: set X_USER_ACCESS_TOKEN (an OAuth 2.0 user access token) or X_BEARER_TOKEN "
                    + "(app-only; user and search only), or the four TWITTER_* OAuth 1.0a keys, in the environment "
                    + "or the credentials file")
        }
        return x
    }

    /// The NYT API key, or an error that says how to give it.
    public func requireNYTAPIKey() throws -> Secret {
        guard let nytAPIKey else {
            throw SyncError(.credentials, "no NYT API key: set NYT_API_KEY in the environment or the credentials file")
        }
        return nytAPIKey
    }

    private init(values: [String: String]) throws {
        let oauthNames = Array(Self.variableNames.prefix(4))
        let given = oauthNames.filter { values[$0] != nil }
        if given.count == 4 {
            twitter = .user(
                OAuth1Credentials(
                    consumerKey: Secret(values[oauthNames[0]]!), consumerSecret: Secret(values[oauthNames[1]]!),
                    token: Secret(values[oauthNames[2]]!), tokenSecret: Secret(values[oauthNames[3]]!)))
        } else if let bearer = values["TWITTER_BEARER_TOKEN"] {
            twitter = .app(bearerToken: Secret(bearer))
        } else if !given.isEmpty {
            let missing = oauthNames.filter { values[$0] == nil }.joined(separator: ", ")
            throw SyncError(.credentials, "incomplete Twitter OAuth credentials: \(missing) not set")
        }
        nytAPIKey = values["NYT_API_KEY"].map(Secret.init)
        if let token = values["X_USER_ACCESS_TOKEN"] {
            x = .user(accessToken: Secret(token))
        } else if case .user(let keys) = twitter {
            x = .oauth1(keys)
        } else if let bearer = values["X_BEARER_TOKEN"] ?? values["TWITTER_BEARER_TOKEN"] {
            x = .app(bearerToken: Secret(bearer))
        }
    }

    private static func defaultFilePath(environment: [String: String]) -> String? {
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.config/objdb-sync/credentials"
    }

    /// The `NAME=value` lines of the file at `path`, which must be its reader's and no one else's.
    private static func readFile(_ path: String) throws -> [String: String] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw SyncError(
                .credentials, "cannot open the credentials file \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw SyncError(.credentials, "cannot stat the credentials file \(path)")
        }
        guard status.st_uid == geteuid() else {
            throw SyncError(.credentials, "the credentials file \(path) belongs to another user: refused")
        }
        guard status.st_mode & 0o077 == 0 else {
            throw SyncError(
                .credentials,
                "the credentials file \(path) is readable by others (mode \(String(status.st_mode & 0o777, radix: 8))): "
                    + "run chmod 600 \(path)")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
        let contents: Data?
        do {
            contents = try handle.readToEnd()
        } catch {
            throw SyncError(.credentials, "cannot read the credentials file \(path): \(error)")
        }
        let text = String(decoding: contents ?? Data(), as: UTF8.self)
        var values: [String: String] = [:]
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty, !trimmed.hasPrefix("#"), let equals = trimmed.firstIndex(of: "=") else { continue }
            var name = trimmed[..<equals].trimmingCharacters(in: .whitespaces)
            if name.hasPrefix("export ") { name = String(name.dropFirst(7)).trimmingCharacters(in: .whitespaces) }
            var value = trimmed[trimmed.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first {
                value = String(value.dropFirst().dropLast())
            }
            if !value.isEmpty { values[name] = value }
        }
        return values
    }
}
