import Foundation
import ObjDB
import TestSupport
import Testing

/// `objdb-inspect serve`'s HTTP API, against the running tool (#28). The browser's side is
/// Tests/Browser/inspector_test.py (`make test-browser`).
@Suite("objdb-inspect serve", .serialized)
struct InspectServeTests {
    let directory = TemporaryDirectory()

    /// The demo's Twitter cache: 200 tweets (ids 1000…1199) by 8 users.
    func demoStore() throws -> String {
        let store = directory.path + "/demo.objdb"
        let demo = try run("objdb-demo", [store])
        #expect(demo.status == 0, "\(demo.error)")
        return store
    }

    @Test func everyRequestNeedsTheToken() throws {
        let server = try Server(store: try demoStore())
        for path in ["/", "/api/info", "/api/objects?type=Tweet", "/api/events?type=Tweet", "/assets/inspector.js"] {
            let answer = try server.get(path, token: .none)
            #expect(answer.status == 401, "\(path)")
            #expect(!answer.body.contains("Tweet"), "\(path)")
        }
        #expect(try server.get("/api/info", token: .token(String(repeating: "0", count: 64))).status == 401)
        let login = try server.get("/types/Tweet?token=\(server.token)", token: .none)
        #expect(login.status == 303)
        #expect(login.header("Location") == "/types/Tweet")
        let cookie = try #require(login.header("Set-Cookie"))
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))
        let withCookie = try server.get(
            "/api/info", token: .none, headers: ["Cookie": String(cookie.prefix { $0 != ";" })])
        #expect(withCookie.status == 200)
        #expect(try server.get("/api/info?token=\(server.token)", token: .none).status == 200)
    }

    @Test func onlyTheLoopbackAndTheSameOriginAreAnsweredAndNothingWrites() throws {
        let server = try Server(store: try demoStore())
        #expect(try server.get("/api/info", headers: ["Host": "rebound.example.com"]).status == 403)
        #expect(try server.get("/api/info", headers: ["Host": "127.0.0.1:1"]).status == 403)
        #expect(try server.get("/api/info", headers: ["Host": "localhost:\(server.port)"]).status == 200)
        #expect(try server.get("/api/info", headers: ["Origin": "http://evil.example.com"]).status == 403)
        #expect(try server.get("/api/info", headers: ["Sec-Fetch-Site": "cross-site"]).status == 403)
        #expect(try server.get("/api/info", method: "POST").status == 405)
        #expect(try server.get("/api/info", method: "OPTIONS").status == 405)
        let page = try server.get("/")
        let policy = try #require(page.header("Content-Security-Policy"))
        #expect(policy.contains("script-src 'self'") && !policy.contains("unsafe-inline"))
        #expect(page.header("X-Content-Type-Options") == "nosniff")
        #expect(page.header("Referrer-Policy") == "no-referrer")
        #expect(page.header("Access-Control-Allow-Origin") == nil)
    }

    @Test func pagesByKeyVisitEveryObjectOnceEitherWay() throws {
        let store = try demoStore()
        let server = try Server(store: store)
        for (query, sort) in [("", ""), ("", "-retweetCount"), ("retweetCount > 40", "text,-id"), ("id > 1150", "")] {
            var forward: [String] = []
            var after: String?
            repeat {
                let page = try server.json(
                    "/api/objects?type=Tweet&limit=7&q=\(escape(query))&sort=\(sort)"
                        + (after.map { "&after=\($0)" } ?? ""))
                forward += (page["objects"] as! [[String: Any]]).map { $0["key"] as! String }
                after = page["next"] as? String
            } while after != nil
            var backward: [String] = []
            var before: String?
            var path = "/api/objects?type=Tweet&limit=7&q=\(escape(query))&sort=\(sort)&last=1"
            while true {
                let page = try server.json(path)
                backward = (page["objects"] as! [[String: Any]]).map { $0["key"] as! String } + backward
                before = page["previous"] as? String
                guard let before else { break }
                path = "/api/objects?type=Tweet&limit=7&q=\(escape(query))&sort=\(sort)&before=\(before)"
            }
            // The order dump gives (the same query, all at once).
            var arguments = [store, "dump", "Tweet", "--props", "id", "--format", "ndjson"]
            if !query.isEmpty { arguments += ["--where", query] }
            if !sort.isEmpty { arguments += ["--sort", sort] }
            let dumped = try run("objdb-inspect", arguments).output.split(separator: "\n").map {
                String($0.dropFirst(6).dropLast())
            }
            #expect(forward == dumped, "\(query) \(sort)")
            #expect(backward == dumped, "\(query) \(sort)")
        }
    }

    @Test func aQueryWithDistinctOrLimitPagesByPosition() throws {
        let server = try Server(store: try demoStore())
        let first = try server.json(
            "/api/objects?type=Tweet&limit=3&q=\(escape("TRUEPREDICATE SORT(id DESC) LIMIT(5)"))")
        #expect((first["objects"] as! [[String: Any]]).map { $0["key"] as! String } == ["1199", "1198", "1197"])
        let next = try server.json(
            "/api/objects?type=Tweet&limit=3&q=\(escape("TRUEPREDICATE SORT(id DESC) LIMIT(5)"))&after=\(first["next"] as! String)"
        )
        #expect((next["objects"] as! [[String: Any]]).map { $0["key"] as! String } == ["1196", "1195"])
        #expect(next["next"] is NSNull)
    }

    @Test func errorsAreJSONWithACodeAMessageAndForAQueryThePosition() throws {
        let server = try Server(store: try demoStore())
        let typo = try server.get("/api/objects?type=Tweet&q=\(escape("retweetCount >> 3"))")
        #expect(typo.status == 400)
        let error = try #require(try typo.json()["error"] as? [String: Any])
        #expect(error["code"] as? String == "predicateSyntax")
        #expect(error["position"] as? Int == 14)
        #expect((error["message"] as? String)?.isEmpty == false)
        let explained = try server.json("/api/explain?type=Tweet&q=\(escape("retweetCount >> 3"))")
        #expect(explained["ok"] as? Bool == false)
        #expect((explained["error"] as? [String: Any])?["position"] as? Int == 14)
        let unknown = try server.get("/api/objects?type=Tweet&q=\(escape("nope == 3"))")
        #expect(unknown.status == 400)
        #expect(try unknown.json()["error"].flatMap { ($0 as? [String: Any])?["code"] as? String } == "invalidQuery")
        #expect(try server.get("/api/objects?type=Nothing").status == 404)
        #expect(try server.get("/api/object?type=Tweet&key=nope").status == 400)
        #expect(try server.get("/api/object?type=Tweet&key=5").status == 404)
        #expect(try server.get("/api/objects?type=Tweet&limit=0").status == 400)
        for cursor in ["", "AAAA", "_-_-", "%00", String(repeating: "A", count: 20_000), "AAECZAAAAAAAAAACw1E"] {
            let answer = try server.get("/api/objects?type=Tweet&after=\(escape(cursor))")
            #expect(answer.status == 400, "\(cursor.prefix(20))")
        }
    }

    @Test func pageSizesAreCapped() throws {
        let store = try demoStore()
        let file = directory.path + "/more.ndjson"
        let lines = (0..<600).map { #"{"_type":"Tweet","_key":\#(5000 + $0),"id":\#(5000 + $0),"text":"more"}"# }
        try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try run("objdb-inspect", [store, "import", file]).status == 0)
        let server = try Server(store: store)
        let page = try server.json("/api/objects?type=Tweet&limit=100000")
        #expect((page["objects"] as! [Any]).count == 500)
        #expect(page["count"] as? Int == 800)
    }

    @Test func objectsListsAndBacklinksOpen() throws {
        let server = try Server(store: try demoStore())
        let user = try server.json("/api/object?type=TwitterUser&key=1")
        let backlinks = try #require(user["backlinks"] as? [[String: Any]])
        #expect(backlinks.first?["type"] as? String == "Tweet" && backlinks.first?["property"] as? String == "user")
        let count = try #require(backlinks.first?["count"] as? Int)
        var keys: [String] = []
        var after: String?
        repeat {
            let page = try server.json(
                "/api/related?type=TwitterUser&key=1&property=tweets&limit=4" + (after.map { "&after=\($0)" } ?? ""))
            let objects = page["objects"] as! [[String: Any]]
            for object in objects {
                let link = ((object["values"] as! [String: Any])["user"] as! [String: Any])["link"] as! [String: Any]
                #expect(link["key"] as? String == "1")
                keys.append(object["key"] as! String)
            }
            after = page["next"] as? String
        } while after != nil
        #expect(keys.count == count && keys == keys.sorted { Int($0)! < Int($1)! })
        let undeclared = try server.json("/api/related?type=TwitterUser&key=1&property=@links.Tweet.user&limit=500")
        #expect((undeclared["objects"] as! [[String: Any]]).map { $0["key"] as! String } == keys)
    }

    @Test func aCommitByAnotherProcessReachesTheStreamWithin200ms() throws {
        let store = try demoStore()
        let server = try Server(store: store)
        let database = try Database(path: store)
        try server.settle(after: database)
        let page = try server.json("/api/objects?type=Tweet&sort=-id&limit=5")
        let version = try #require(page["version"] as? Int)
        let events = try server.stream("/api/events?type=Tweet&sort=-id&limit=5&since=\(version)")
        var delays: [Duration] = []
        for id in 5000..<5003 {
            let start = ContinuousClock.now
            try database.write { try $0.dynamicCreate("Tweet", value: ["id": id, "text": "new \(id)"]) }
            let event = try events.next(containing: "\"\(id)\"", timeout: .seconds(5))
            delays.append(ContinuousClock.now - start)
            let changes = try #require(event["changes"] as? [String: Any])
            #expect(changes["inserted"] as? [String] == ["\(id)"])
            #expect((event["objects"] as! [[String: Any]]).first?["key"] as? String == "\(id)")
            #expect(event["count"] as? Int == 201 + id - 4999)
        }
        #expect(delays.sorted()[1] < .milliseconds(200), "\(delays)")
        try database.write { transaction in
            let tweet = try #require(try transaction.dynamicObjects("Tweet").first { $0.objectKey == .int(5001) })
            try tweet.setValue(42, forKey: "retweetCount")
        }
        let modified = try events.next(containing: "retweetCount", timeout: .seconds(5))
        #expect(
            (modified["changes"] as? [String: Any])?["modified"] as? [String: [String]] == ["5001": ["retweetCount"]])
        try database.write { transaction in
            let tweet = try #require(try transaction.dynamicObjects("Tweet").first { $0.objectKey == .int(5002) })
            try transaction.delete(tweet)
        }
        let deleted = try events.next(containing: "\"deleted\":[\"5002\"]", timeout: .seconds(5))
        #expect(!(deleted["objects"] as! [[String: Any]]).contains { $0["key"] as? String == "5002" })
        #expect(deleted["count"] as? Int == 203)
    }

    @Test func theFirstCommitAfterTheServerStartsComesWithItsChangeSet() throws {
        let store = try demoStore()
        let server = try Server(store: store)
        let database = try Database(path: store)
        let page = try server.json("/api/objects?type=Tweet&sort=-id&limit=5")
        let version = try #require(page["version"] as? Int)
        let events = try server.stream("/api/events?type=Tweet&sort=-id&limit=5&since=\(version)")
        try events.waitUntilLive(timeout: .seconds(5))
        try database.write { try $0.dynamicCreate("Tweet", value: ["id": 6000, "text": "first"]) }
        let event = try events.next(containing: "\"6000\"", timeout: .seconds(5))
        let changes = try #require(event["changes"] as? [String: Any])
        #expect(changes["exact"] as? Bool == true)
        #expect(changes["inserted"] as? [String] == ["6000"])
        #expect(event["since"] as? Int == version)
    }

    @Test func anObjectStreamFollowsItsObject() throws {
        let store = try demoStore()
        let server = try Server(store: store)
        let database = try Database(path: store)
        try server.settle(after: database)
        let object = try server.json("/api/object?type=TwitterUser&key=2")
        let events = try server.stream("/api/object/events?type=TwitterUser&key=2&since=\(object["version"] as! Int)")
        try database.write { transaction in
            let user = try #require(try transaction.dynamicObjects("TwitterUser").first { $0.objectKey == .int(2) })
            try user.setValue("Biz S.", forKey: "name")
        }
        let event = try events.next(containing: "Biz S.", timeout: .seconds(5))
        #expect(event["changed"] as? [String] == ["name"])
    }

    @Test func exportsStreamTheQueryAsNDJSONAndCSV() throws {
        let server = try Server(store: try demoStore())
        let ndjson = try server.get("/api/export?type=Tweet&q=\(escape("retweetCount > 50"))&sort=-id")
        #expect(ndjson.status == 200)
        #expect(ndjson.header("Content-Disposition")?.contains("Tweet.ndjson") == true)
        let rows = ndjson.body.split(separator: "\n").map {
            try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
        let count = try server.json("/api/count?type=Tweet&q=\(escape("retweetCount > 50"))")["count"] as? Int
        #expect(rows.count == count && rows.allSatisfy { ($0["retweetCount"] as! Int) > 50 })
        #expect(rows.map { $0["id"] as! Int } == rows.map { $0["id"] as! Int }.sorted(by: >))
        let csv = try server.get("/api/export?type=TwitterUser&format=csv&columns=id,screenName")
        #expect(csv.body.hasPrefix("id,screenName\n1,jack\n"))
        #expect(try server.get("/api/export?type=Tweet&format=xml").status == 400)
    }

    @Test func aQueryPastItsTimeLimitIsStopped() throws {
        let server = try Server(store: try demoStore(), arguments: ["--time-limit", "1"])
        let slow = try server.get(
            "/api/objects?type=Tweet&q=\(escape("ANY user.tweets.user.tweets.retweetCount == -1"))")
        #expect(slow.status == 503)
        #expect(try slow.json()["error"].flatMap { ($0 as? [String: Any])?["code"] as? String } == "queryTimedOut")
        let info = try server.json("/api/info")
        #expect((info["server"] as? [String: Any])?["queriesTimedOut"] as? Int == 1)
    }

    @Test func aQueryIsCancelledWhenItsClientGoesAway() throws {
        let server = try Server(store: try demoStore(), arguments: ["--time-limit", "600000"])
        // Nested subqueries run a loop per level (25^3 inner tests per tweet on the demo store):
        // seconds of work, so the query is still running when its client goes.
        let query = escape(
            "SUBQUERY(user.tweets, $a, SUBQUERY($a.user.tweets, $b, SUBQUERY($b.user.tweets, $c,"
                + " $c.retweetCount == -1).@count > 0).@count > 0).@count > 0")
        let connection = try Connection(port: server.port)
        try connection.send(
            "GET /api/objects?type=Tweet&q=\(query) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n"
                + "Authorization: token \(server.token)\r\n\r\n")
        Thread.sleep(forTimeInterval: 0.2)
        connection.close()
        let deadline = ContinuousClock.now + .seconds(10)
        var cancelled = 0
        while ContinuousClock.now < deadline {
            let info = try server.json("/api/info")
            cancelled = (info["server"] as? [String: Any])?["queriesCancelled"] as? Int ?? 0
            if cancelled > 0 { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(cancelled == 1)
    }

    @Test func checkStreamsItsProgressAndFindings() throws {
        let server = try Server(store: try demoStore())
        let events = try server.stream("/api/check")
        let done = try events.next(event: "done", timeout: .seconds(30))
        #expect(done["problems"] as? Int == 0)
    }

    @Test func ctrlCStopsTheServerWithAStreamOpen() throws {
        let server = try Server(store: try demoStore())
        let events = try server.stream("/api/events?type=Tweet")
        _ = events
        let start = ContinuousClock.now
        #expect(server.interrupt() == 0)
        #expect(ContinuousClock.now - start < .seconds(5))
    }
}

// MARK: - A client for the tests

private func escape(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
}

/// `objdb-inspect STORE serve --port 0`, stopped when released.
private final class Server {
    let process = Process()
    let port: Int
    let token: String
    private var stopped = false

    init(store: String, arguments: [String] = []) throws {
        process.executableURL = builtProductsDirectory().appendingPathComponent("objdb-inspect")
        process.arguments = [store, "serve", "--port", "0"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var text = ""
        let handle = output.fileHandleForReading
        while !text.contains("Ctrl-C") {
            let data = handle.availableData
            guard !data.isEmpty else { throw TestFailure("serve ended: \(text)") }
            text += String(decoding: data, as: UTF8.self)
        }
        guard let match = text.firstMatch(of: /127\.0\.0\.1:(\d+)\/\?token=([0-9a-f]+)/) else {
            throw TestFailure("no URL in \(text)")
        }
        port = Int(match.1)!
        token = String(match.2)
    }

    deinit {
        if !stopped { _ = interrupt() }
    }

    /// Ctrl-C; the exit status.
    func interrupt() -> Int32 {
        stopped = true
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// What a request says of the token.
    enum Credentials {
        case mine
        case none
        case token(String)
    }

    /// One request, with the token (or another, or none) in the Authorization header.
    func get(
        _ path: String, token credentials: Credentials = .mine, method: String = "GET",
        headers: [String: String] = [:]
    ) throws -> Answer {
        let token: String? =
            switch credentials {
            case .mine: self.token
            case .none: nil
            case .token(let other): other
            }
        var fields = ["Host": "127.0.0.1:\(port)", "Connection": "close"]
        if let token { fields["Authorization"] = "token \(token)" }
        fields.merge(headers) { _, new in new }
        let connection = try Connection(port: port)
        try connection.send(
            "\(method) \(path) HTTP/1.1\r\n" + fields.map { "\($0): \($1)\r\n" }.joined() + "\r\n")
        return try Answer(connection.readAll())
    }

    /// Commits one tweet (id 4999) through `database` and waits for the server to see it: a test
    /// that counts tweets counts it.
    func settle(after database: Database) throws {
        let before = try json("/api/info")["version"] as! Int
        try database.write { try $0.dynamicCreate("Tweet", value: ["id": 4999, "text": "settling"]) }
        let deadline = ContinuousClock.now + .seconds(5)
        while try json("/api/info")["version"] as! Int == before, ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    func json(_ path: String) throws -> [String: Any] {
        let answer = try get(path)
        guard answer.status == 200 else { throw TestFailure("\(path): \(answer.status) \(answer.body)") }
        return try answer.json()
    }

    /// A Server-Sent Events stream.
    func stream(_ path: String) throws -> EventStream {
        let connection = try Connection(port: port)
        try connection.send(
            "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAuthorization: token \(token)\r\n\r\n")
        return EventStream(connection: connection)
    }
}

/// An HTTP response, read whole (chunked bodies joined).
private struct Answer {
    let status: Int
    let headers: [(String, String)]
    let body: String

    init(_ raw: [UInt8]) throws {
        let text = String(decoding: raw, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { throw TestFailure("no header end: \(text)") }
        let lines = text[..<split.lowerBound].split(separator: "\r\n")
        status = Int(lines.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
        headers = lines.dropFirst().compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (
                String(line[..<colon]), String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            )
        }
        var body = String(text[split.upperBound...])
        if headers.contains(where: { $0.0.lowercased() == "transfer-encoding" && $0.1 == "chunked" }) {
            body = Answer.unchunk(body)
        }
        self.body = body
    }

    func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    func json() throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any] ?? [:]
    }

    static func unchunk(_ text: String) -> String {
        var bytes = Array(text.utf8)[...]
        var body: [UInt8] = []
        while let end = bytes.firstIndex(of: UInt8(ascii: "\r")) {
            let size = Int(String(decoding: bytes[bytes.startIndex..<end], as: UTF8.self), radix: 16) ?? 0
            let start = end + 2
            guard size > 0, start + size <= bytes.endIndex else { break }
            body += bytes[start..<start + size]
            bytes = bytes[(start + size + 2)...]
        }
        return String(decoding: body, as: UTF8.self)
    }
}

/// The events of a stream, read as they come.
private final class EventStream {
    let connection: Connection
    private var buffer = ""

    init(connection: Connection) {
        self.connection = connection
    }

    /// Reads until the server's `: live` comment: the stream follows the store from then on.
    func waitUntilLive(timeout: Duration) throws {
        let deadline = ContinuousClock.now + timeout
        while !buffer.contains(": live\n"), ContinuousClock.now < deadline {
            let bytes = try connection.read(timeout: .milliseconds(100))
            buffer += String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
        }
        guard buffer.contains(": live\n") else { throw TestFailure("the stream did not go live within \(timeout)") }
    }

    /// The data of the next `change` event whose data contains `text`.
    func next(containing text: String, timeout: Duration) throws -> [String: Any] {
        try next(event: "change", timeout: timeout) { $0.contains(text) }
    }

    func next(event name: String, timeout: Duration, where accept: (String) -> Bool = { _ in true }) throws
        -> [String: Any]
    {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            while let range = buffer.range(of: "\n\n") {
                let block = String(buffer[..<range.lowerBound])
                buffer.removeSubrange(..<range.upperBound)
                let lines = block.split(separator: "\n")
                guard lines.contains(where: { $0 == "event: \(name)" }),
                    let data = lines.first(where: { $0.hasPrefix("data: ") })?.dropFirst(6), accept(String(data))
                else { continue }
                return try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any] ?? [:]
            }
            let bytes = try connection.read(timeout: .milliseconds(100))
            // Chunk sizes sit on lines of their own; they never hold a blank line, so the events still parse.
            buffer += String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
        }
        throw TestFailure("no \(name) event within \(timeout); read: \(buffer.suffix(500))")
    }
}

/// A TCP connection to 127.0.0.1.
private final class Connection {
    private let socket: Int32

    init(port: Int) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw TestFailure("cannot connect to port \(port)") }
    }

    deinit { close() }

    private var isClosed = false

    func close() {
        guard !isClosed else { return }
        isClosed = true
        _ = Glibc.close(socket)
    }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        guard Glibc.send(socket, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else {
            throw TestFailure("send failed")
        }
    }

    /// What arrives within `timeout` (at most one read).
    func read(timeout: Duration) throws -> [UInt8] {
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(
            timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        guard poll(&descriptor, 1, milliseconds) > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = recv(socket, &buffer, buffer.count, 0)
        return count > 0 ? Array(buffer.prefix(count)) : []
    }

    /// Everything until the server closes the connection.
    func readAll() throws -> [UInt8] {
        var all: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count <= 0 { break }
            all += buffer.prefix(count)
        }
        return all
    }
}
