import Foundation
import TestSupport
import Testing

@testable import ObjDBSync

@Suite("Credentials")
struct CredentialsTests {
    private let oauthEnvironment = [
        "TWITTER_CONSUMER_KEY": "ck-value", "TWITTER_CONSUMER_SECRET": "cs-value", "TWITTER_ACCESS_TOKEN": "at-value",
        "TWITTER_ACCESS_TOKEN_SECRET": "ts-value", "NYT_API_KEY": "nyt-value", "HOME": "/nonexistent",
    ]

    @Test func fourOAuthVariablesGiveUserContext() throws {
        let credentials = try SyncCredentials.load(environment: oauthEnvironment)
        guard case .user(let oauth)? = credentials.twitter else {
            Issue.record("expected user context")
            return
        }
        #expect(oauth.tokenSecret.revealed == "ts-value")
        #expect(credentials.nytAPIKey?.revealed == "nyt-value")
    }

    @Test func aBearerTokenAloneGivesAppOnly() throws {
        let credentials = try SyncCredentials.load(environment: ["TWITTER_BEARER_TOKEN": "bt", "HOME": "/nonexistent"])
        #expect(credentials.twitter == .app(bearerToken: Secret("bt")))
    }

    @Test func anIncompleteOAuthSetNamesWhatIsMissingAndNoValue() {
        let error = #expect(throws: SyncError.self) {
            try SyncCredentials.load(environment: ["TWITTER_CONSUMER_KEY": "ck-value", "HOME": "/nonexistent"])
        }
        #expect(error?.code == .credentials)
        #expect(error?.message.contains("TWITTER_ACCESS_TOKEN_SECRET") == true)
        #expect(error.map { !"\($0)".contains("ck-value") } == true)
    }

    @Test func noSecretShowsInDescriptionsOrDumps() throws {
        let credentials = try SyncCredentials.load(environment: oauthEnvironment)
        var dumped = ""
        dump(credentials, to: &dumped)
        let client = TwitterClient(credentials: try credentials.requireTwitter())
        var dumpedClient = ""
        dump(client, to: &dumpedClient)
        for text in ["\(credentials)", String(reflecting: credentials), dumped, dumpedClient] {
            for value in ["ck-value", "cs-value", "at-value", "ts-value", "nyt-value"] {
                #expect(!text.contains(value))
            }
        }
    }

    @Test func anOwnerOnlyFileIsRead() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/credentials"
        try "# keys\nexport NYT_API_KEY=\"from-file\"\nTWITTER_BEARER_TOKEN = bt-file\n".write(
            toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o600)
        let credentials = try SyncCredentials.load(environment: ["OBJDB_SYNC_CREDENTIALS": path])
        #expect(credentials.nytAPIKey?.revealed == "from-file")
        #expect(credentials.twitter == .app(bearerToken: Secret("bt-file")))
        // The environment wins, name by name.
        let overridden = try SyncCredentials.load(environment: ["OBJDB_SYNC_CREDENTIALS": path, "NYT_API_KEY": "env"])
        #expect(overridden.nytAPIKey?.revealed == "env")
    }

    @Test func aFileOthersMayReadIsRefused() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/credentials"
        try "NYT_API_KEY=leaky-value\n".write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o644)
        let error = #expect(throws: SyncError.self) { try SyncCredentials.load(file: path) }
        #expect(error?.code == .credentials)
        #expect(error?.message.contains("chmod 600") == true)
        #expect(error.map { !"\($0)".contains("leaky-value") } == true)
    }

    @Test func aFileThatCannotBeReadIsAnErrorNotAnEmptyFile() throws {
        // A directory opens, belongs to its user and has mode 0700, but reading it fails (EISDIR).
        let directory = TemporaryDirectory()
        let path = directory.path + "/credentials"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        chmod(path, 0o700)
        let error = #expect(throws: SyncError.self) {
            try SyncCredentials.load(environment: ["OBJDB_SYNC_CREDENTIALS": path])
        }
        #expect(error?.code == .credentials)
        #expect(error?.message.contains("cannot read the credentials file") == true)
    }
}
