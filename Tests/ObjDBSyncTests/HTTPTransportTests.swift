import Foundation
import LoopbackServer
import Testing

@testable import ObjDBSync

#if canImport(Glibc)
    import Glibc
#endif

@Suite("URLSession transport", .timeLimit(.minutes(5)))
struct HTTPTransportTests {
    @Test func sendsTheRequestAndReturnsStatusHeadersAndBody() async throws {
        let server = try LoopbackHTTPServer { request in
            .init(
                status: 201, headers: ["X-Echo": request.headers["x-test"] ?? "", "X-Path": request.path],
                body: Data("\(request.method) \(request.query["q"] ?? "")".utf8))
        }
        defer { server.stop() }
        let url = URL(string: "\(server.baseURL)a/b.json?q=caf%C3%A9%20bar")!
        let response = try await URLSessionTransport().send(HTTPRequest(url: url, headers: ["X-Test": "1"]))
        #expect(response.statusCode == 201)
        #expect(response.header("x-echo") == "1")
        #expect(response.header("X-Path") == "/a/b.json")
        #expect(String(decoding: response.body, as: UTF8.self) == "GET café bar")
    }

    @Test func aStatusOfFailureIsAResponseNotAnError() async throws {
        let server = try LoopbackHTTPServer { _ in .init(status: 503, body: Data("down".utf8)) }
        defer { server.stop() }
        let response = try await URLSessionTransport().send(HTTPRequest(url: server.baseURL))
        #expect(response.statusCode == 503)
    }

    @Test func aSlowServerTimesOutWithATypedError() async throws {
        // The server would answer after 55 s (it stops waiting when the client hangs up): an error before
        // that is the timeout's. FoundationNetworking's timer has fired as late as 29 s on a loaded
        // machine, so the bound leaves room for it; the error's code says which it was.
        let server = try LoopbackHTTPServer { _ in .init(body: Data("late".utf8), delay: .seconds(55)) }
        defer { server.stop() }
        let start = ContinuousClock.now
        let error = await #expect(throws: SyncError.self) {
            try await URLSessionTransport().send(HTTPRequest(url: server.baseURL, timeout: .milliseconds(300)))
        }
        #expect(error?.code == .timedOut)
        #expect(ContinuousClock.now - start < .seconds(50))
        #expect(server.waitUntilIdle())
    }

    @Test func cancellingTheTaskEndsTheRequestAndClosesTheConnection() async throws {
        // The server answers after 50 s and the request times out after 55 s: an end well before both is the
        // cancel's. FoundationNetworking's sessions share one work queue, which the suite's other requests keep
        // busy on a loaded machine, so connecting may take seconds.
        let server = try LoopbackHTTPServer { _ in .init(body: Data("late".utf8), delay: .seconds(50)) }
        defer { server.stop() }
        let transport = URLSessionTransport()
        let task = Task { try await transport.send(HTTPRequest(url: server.baseURL, timeout: .seconds(55))) }
        // Cancelled once the server holds the whole request: a cancel while connecting is another case.
        let deadline = ContinuousClock.now + .seconds(20)
        while server.delayedRequests == 0 && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(server.delayedRequests == 1)
        let start = ContinuousClock.now
        task.cancel()
        let result = await task.result
        #expect(ContinuousClock.now - start < .seconds(20))
        #expect((result.error as? SyncError)?.code == .cancelled)
        // The server saw the client go away: nothing is left in flight.
        #expect(server.waitUntilIdle())
        #expect(server.abandonedCount == 1)
    }

    @Test func aCancelledTaskSendsNothing() async throws {
        let server = try LoopbackHTTPServer { _ in .init() }
        defer { server.stop() }
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await URLSessionTransport().send(HTTPRequest(url: server.baseURL))
        }
        #expect((await task.result.error as? SyncError)?.code == .cancelled)
        #expect(server.requests.isEmpty)
    }

    @Test func aRefusedConnectionIsATransportErrorWithoutTheQuery() async throws {
        // A port bound but never listening refuses connections, and stays ours while the test runs: a
        // stopped server's port could be taken meanwhile by a server of a test running beside this one.
        let refusing = try RefusingPort()
        defer { refusing.close() }
        let url = URL(string: "http://127.0.0.1:\(refusing.port)/search?api-key=SECRET")!
        let error = await #expect(throws: SyncError.self) {
            try await URLSessionTransport().send(HTTPRequest(url: url))
        }
        #expect(error?.code == .transport)
        #expect(error.map { !"\($0)".contains("SECRET") } == true)
    }
}

extension Result {
    var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

/// A loopback TCP port bound without listening: connecting to it is refused until `close()`.
private struct RefusingPort {
    struct Failure: Error {}
    let descriptor: Int32
    let port: Int

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure() }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(descriptor, address, length) == 0 && getsockname(descriptor, address, &length) == 0
            }
        }
        guard bound else {
            Glibc.close(descriptor)
            throw Failure()
        }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() {
        Glibc.close(descriptor)
    }
}
