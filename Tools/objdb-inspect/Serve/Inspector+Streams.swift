import Foundation
import ObjDB

/// The API's streamed answers: an export, a check's progress, and the live change sets of a page
/// or an object (Server-Sent Events). Each is written by a thread of its own into a pipe, in a
/// read transaction of its own.
extension Inspector {
    /// `GET /api/export`: the query's objects as NDJSON or CSV, streamed in one snapshot.
    func export(_ request: HTTPRequest) throws -> HTTPResponse {
        let parameters = try PageParameters(request)
        let format = request.query("format") ?? "ndjson"
        guard format == "ndjson" || format == "csv" else {
            throw APIError(400, "badFormat", "format= is ndjson or csv")
        }
        // A bad query is answered here, as JSON, before any byte of the file.
        try database.read { view in
            let scan = try ObjectScan(
                view: view, type: parameters.type, filter: parameters.filter, sorts: parameters.sorts)
            _ = try ObjectTextWriter(scan: scan, properties: parameters.columns)
        }
        let database = self.database
        let stream = register(
            PipeStream(name: "objdb-inspect.export") { writer in
                let output = ByteOutput(descriptor: writer.descriptor, name: "the browser")
                defer { try? output.flush() }
                try? database.read { view in
                    let scan = try ObjectScan(
                        view: view, type: parameters.type, filter: parameters.filter, sorts: parameters.sorts)
                    let text = try ObjectTextWriter(scan: scan, properties: parameters.columns)
                    let scratch = ByteBuffer()
                    if format == "csv" { text.writeCSVHeader(to: output) }
                    var written = 0
                    try scan.forEach { object in
                        if format == "csv" {
                            try text.writeCSV(object, scratch: scratch, to: output)
                        } else {
                            try text.writeJSON(object, identity: .key, to: output)
                            output.write(UInt8(ascii: "\n"))
                        }
                        written += 1
                        // The client went away: its pipe is closed, and every later write would be dropped.
                        return written % 256 != 0 || !writer.shouldStop
                    }
                }
            })
        guard let stream else { throw APIError(503, "unavailable", "cannot start the export") }
        var response = HTTPResponse(
            status: 200, contentType: format == "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson",
            stream: stream)
        let name = parameters.type.filter { $0.isLetter || $0.isNumber || $0 == "_" }
        response.headers.append(("Content-Disposition", "attachment; filename=\"\(name).\(format)\""))
        return response
    }

    /// `GET /api/check`: `check` as events: `progress`, each `problem`, then `done` (or `failed`).
    func check(_ request: HTTPRequest) throws -> HTTPResponse {
        let database = self.database
        let stream = register(
            PipeStream(name: "objdb-inspect.check") { writer in
                writer.write(Array("retry: 60000\n\n".utf8))
                writer.flush()
                var lastProgress = ContinuousClock.now - .seconds(1)
                do {
                    let count = try StoreCheck(database: database).run(
                        progress: { name, done, total in
                            guard ContinuousClock.now - lastProgress >= .milliseconds(100) else { return }
                            lastProgress = .now
                            Self.event("progress", to: writer) { json in
                                json.member("database", name)
                                json.member("done", done)
                                json.member("total", total)
                            }
                        },
                        report: { problem in
                            Self.event("problem", to: writer) { json in json.member("message", problem) }
                        })
                    Self.event("done", to: writer) { json in json.member("problems", count) }
                } catch {
                    Self.event("failed", to: writer) { json in json.member("message", "\(error)") }
                }
            })
        guard let stream else { throw APIError(503, "unavailable", "cannot start the check") }
        return Self.eventStream(stream)
    }

    /// `GET /api/events`: the page a `/api/objects` request names, again after every commit that
    /// may change it, with the change set since the version the client shows (`since=`).
    func pageEvents(_ request: HTTPRequest) throws -> HTTPResponse {
        let parameters = try PageParameters(request)
        try database.read { view in
            let pager = try QueryPager(
                view: view, type: parameters.type, filter: parameters.filter, sorts: parameters.sorts)
            _ = try RowWriter(pager: pager, view: view, columns: parameters.columns)
        }
        let watched = watchedTypes(
            parameters.type,
            throughLinks: (parameters.filter ?? "").contains(".")
                || parameters.sorts.contains { $0.keyPath.contains(".") })
        return try live(request) { round, writer in
            if let changes = round.changes, !watched(changes) { return }
            let view = round.readView
            var json = JSONWriter()
            json.beginObject()
            do {
                let pager = try QueryPager(
                    view: view, type: parameters.type, filter: parameters.filter, sorts: parameters.sorts)
                let rows = try RowWriter(pager: pager, view: view, columns: parameters.columns)
                let page = try pager.page(
                    parameters.position, limit: parameters.limit, deadline: .after(self.timeLimit))
                let count = try? pager.count(deadline: .after(self.timeLimit))
                self.writePage(
                    page, of: parameters, rows: rows, pager: pager, version: round.version, count: count, to: &json)
                json.member("since", round.since)
                self.writeChanges(round, type: parameters.type, shown: Set(page.keys), view: view, to: &json)
            } catch {
                json.member("version", round.version)
                json.key("error")
                json.raw(Self.errorJSON(self.failure(error)))
            }
            json.endObject()
            Self.event("change", json: json, to: writer)
        }
    }

    /// `GET /api/object/events`: one object again after every commit that changes it or what links to it.
    func objectEvents(_ request: HTTPRequest) throws -> HTTPResponse {
        let (type, key) = try Self.objectParameters(request, schema: database.schema)
        let watched = watchedTypes(type, throughLinks: false)
        let lastSent = Box<[UInt8]?>(nil)
        return try live(request) { round, writer in
            if let changes = round.changes, !watched(changes) { return }
            let view = round.readView
            var json = JSONWriter()
            json.beginObject()
            json.member("version", round.version)
            json.member("since", round.since)
            do {
                let object = try self.objectJSON(type: type, key: key, in: view, withVersion: false)
                guard object != lastSent.value else { return }
                lastSent.value = object
                json.key("object")
                if let object { json.raw(String(decoding: object, as: UTF8.self)) } else { json.null() }
                let change = round.changes?.objects(of: type, in: view)?[view.tableKey(key)]
                json.key("changed")
                if let names = change?.properties {
                    json.beginArray()
                    for name in names { json.string(name) }
                    json.endArray()
                } else {
                    json.null()
                }
            } catch {
                json.key("error")
                json.raw(Self.errorJSON(self.failure(error)))
            }
            json.endObject()
            Self.event("change", json: json, to: writer)
        }
    }

    // MARK: Live streams

    /// An event stream that calls `body` with every round of commits after the client's `since=`.
    private func live(
        _ request: HTTPRequest, _ body: @escaping @Sendable (CommitRound, PipeWriter) -> Void
    ) throws -> HTTPResponse {
        let since = request.query("since").flatMap(Int.init)
        let feed = CommitFeed(database: database, since: since)
        let stream = register(
            PipeStream(name: "objdb-inspect.events", onCancel: { feed.close() }) { writer in
                defer { feed.close() }
                writer.write(Array("retry: 1000\n: live\n\n".utf8))
                writer.flush()
                while !writer.shouldStop {
                    let round: CommitRound?
                    do {
                        round = try feed.next(timeout: .seconds(15))
                    } catch {
                        Self.event("failed", to: writer) { json in json.member("message", "\(error)") }
                        return
                    }
                    guard let round else {
                        // A comment keeps proxies from closing the connection, and finds a client that left.
                        writer.write(Array(": ping\n\n".utf8))
                        writer.flush()
                        continue
                    }
                    body(round, writer)
                }
            })
        guard let stream else { throw APIError(503, "unavailable", "cannot start the stream") }
        return Self.eventStream(stream)
    }

    /// Whether a change set may change what a page or object of `type` shows: its own type, the
    /// types that link to it (their backlinks show), and, for a query through links, any type.
    private func watchedTypes(_ type: String, throughLinks: Bool) -> @Sendable (CommitChanges) -> Bool {
        let linking = Set(
            database.schema.types.filter { other in other.properties.contains { $0.objectType == type } }.map(\.name))
        return { changes in
            throughLinks
                ? !changes.types.isEmpty : changes.touches(type) || changes.types.contains(where: linking.contains)
        }
    }

    /// The change set's members of a page event: which of the shown objects are new or changed
    /// (and in which properties), and which objects of the type are gone.
    private func writeChanges(
        _ round: CommitRound, type: String, shown: Set<[UInt8]>, view: ReadView, to json: inout JSONWriter
    ) {
        json.key("changes")
        json.beginObject()
        guard let objects = round.changes?.objects(of: type, in: view) else {
            // The log does not cover it: the client compares what it shows with the new page.
            json.member("exact", false)
            json.endObject()
            return
        }
        json.member("exact", true)
        func keyText(_ key: [UInt8]) -> String? {
            (try? view.objectKey(ofType: type, tableKey: key)).flatMap { $0 }.map(APIValue.keyText)
        }
        json.key("inserted")
        json.beginArray()
        for (key, change) in objects where change.isInserted && shown.contains(key) {
            if let text = keyText(key) { json.string(text) }
        }
        json.endArray()
        json.key("deleted")
        json.beginArray()
        for (key, change) in objects.prefix(10_000) where change.isDeleted {
            if let text = keyText(key) { json.string(text) }
        }
        json.endArray()
        json.key("modified")
        json.beginObject()
        for (key, change) in objects where !change.isInserted && !change.isDeleted && shown.contains(key) {
            guard let text = keyText(key) else { continue }
            json.key(text)
            if let names = change.properties {
                json.beginArray()
                for name in names { json.string(name) }
                json.endArray()
            } else {
                json.null()
            }
        }
        json.endObject()
        json.endObject()
    }

    private static func eventStream(_ stream: PipeStream) -> HTTPResponse {
        var response = HTTPResponse(status: 200, contentType: "text/event-stream; charset=utf-8", stream: stream)
        response.headers.append(("X-Accel-Buffering", "no"))
        return response
    }

    /// Writes one Server-Sent Event whose data is the JSON object `build` fills.
    static func event(_ name: String, to writer: PipeWriter, _ build: (inout JSONWriter) -> Void) {
        var json = JSONWriter()
        json.beginObject()
        build(&json)
        json.endObject()
        event(name, json: json, to: writer)
    }

    static func event(_ name: String, json: JSONWriter, to writer: PipeWriter) {
        // JSON holds no raw line break, so the data is one line.
        writer.write(Array("event: \(name)\ndata: ".utf8))
        writer.write(json.bytes)
        writer.write(Array("\n\n".utf8))
        writer.flush()
    }

    /// The `error` member of an error response.
    static func errorJSON(_ response: HTTPResponse) -> String {
        guard case .bytes(let bytes) = response.body else { return "null" }
        let text = String(decoding: bytes, as: UTF8.self)
        // `{"error":{…}}` → `{…}`
        guard text.hasPrefix("{\"error\":"), text.hasSuffix("}") else { return "null" }
        return String(text.dropFirst("{\"error\":".count).dropLast())
    }
}

/// A value a stream's thread keeps from one round to the next.
final class Box<Value>: @unchecked Sendable {
    // @unchecked: used by the one thread that writes a stream.
    var value: Value
    init(_ value: Value) { self.value = value }
}
