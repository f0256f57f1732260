import Foundation

/// One loopback server serving ``FakeTwitterAPI`` under `/1.1/` (and its X API v2 side under
/// `/2/`) and ``FakeNYTAPI`` under `/svc/search/v2/`.
package final class FakeAPIServer: Sendable {
    /// The Twitter side.
    package let twitter: FakeTwitterAPI
    /// The NYT side.
    package let nyt: FakeNYTAPI
    /// The server.
    package let server: LoopbackHTTPServer

    /// Starts a server for these two APIs.
    package init(twitter: FakeTwitterAPI, nyt: FakeNYTAPI) throws {
        self.twitter = twitter
        self.nyt = nyt
        server = try LoopbackHTTPServer { request in
            request.path.hasPrefix("/svc/") ? nyt.respond(to: request) : twitter.respond(to: request)
        }
    }

    /// The Twitter base URL: `http://127.0.0.1:PORT/1.1/`.
    package var twitterBaseURL: URL { server.baseURL.appendingPathComponent("1.1/") }
    /// The X API v2 base URL: `http://127.0.0.1:PORT/2/`.
    package var xBaseURL: URL { server.baseURL.appendingPathComponent("2/") }
    /// The NYT base URL: `http://127.0.0.1:PORT/svc/search/v2/`.
    package var nytBaseURL: URL { server.baseURL.appendingPathComponent("svc/search/v2/") }

    /// Stops the server.
    package func stop() { server.stop() }
}
