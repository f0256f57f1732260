import Foundation
import ObjDB

/// The JSON API's reads: info, schema, a page of a query, its count and plan, one object, and
/// the objects a list or a backlink holds.
extension Inspector {
    func info() throws -> HTTPResponse {
        let info = try StoreInfo.read(path: path)
        let counts = try database.read { view in
            try database.schema.types.filter { !$0.isEmbedded }.map { ($0.name, try view.count($0.name)) }
        }
        let environment = info.environment
        return Self.json { json in
            json.beginObject()
            json.member("path", info.path)
            json.member("formatVersion", Int(info.formatVersion))
            json.member("schemaVersion", info.schemaVersion.map { Int(clamping: $0) })
            json.member("fileSize", info.fileSize)
            json.member("pageSize", environment.pageSize)
            json.member("mapSize", environment.mapSize)
            json.member("mapUsed", environment.usedBytes)
            json.member("version", environment.lastTransactionID)
            json.key("readers")
            json.beginObject()
            json.member("open", environment.readers.count)
            json.member("slotsUsed", environment.readerSlotsUsed)
            json.member("slots", environment.maxReaders)
            json.member("staleCleared", info.staleReadersCleared)
            json.member("oldestPinnedVersion", info.oldestPinnedVersion?.version)
            json.key("list")
            json.beginArray()
            for reader in environment.readers {
                json.beginObject()
                json.member("pid", Int(reader.processID))
                json.member("version", reader.transactionID)
                json.endObject()
            }
            json.endArray()
            json.endObject()
            json.key("types")
            json.beginArray()
            for (name, count) in counts {
                json.beginObject()
                json.member("name", name)
                json.member("count", count)
                json.endObject()
            }
            json.endArray()
            json.key("databases")
            json.beginArray()
            for (name, statistics) in [("(main)", info.mainDatabase)] + info.databases.map({ ($0.name, $0.statistics) })
            {
                json.beginObject()
                json.member("name", name)
                json.member("depth", statistics.depth)
                json.member("branchPages", statistics.branchPages)
                json.member("leafPages", statistics.leafPages)
                json.member("overflowPages", statistics.overflowPages)
                json.member("entries", statistics.entries)
                json.endObject()
            }
            json.endArray()
            json.key("server")
            json.beginObject()
            json.member("timeLimitMs", Int(timeLimit.components.seconds * 1000))
            json.member("maximumPageSize", Self.maximumPageSize)
            json.member("queriesTimedOut", timedOut.load(ordering: .relaxed))
            json.member("queriesCancelled", cancelled.load(ordering: .relaxed))
            json.endObject()
            json.endObject()
        }
    }

    func schema() throws -> HTTPResponse {
        let schema = database.schema
        return Self.json { json in
            json.beginObject()
            json.member("version", Int(clamping: schema.version))
            json.key("types")
            json.beginArray()
            for type in schema.types {
                json.beginObject()
                json.member("name", type.name)
                json.member("embedded", type.isEmbedded)
                json.member("primaryKey", type.primaryKey?.name)
                json.key("properties")
                json.beginArray()
                for property in type.properties {
                    json.beginObject()
                    json.member("name", property.name)
                    json.member("type", property.type.rawValue)
                    json.member("collection", property.collection.rawValue)
                    json.member("optional", property.isOptional)
                    json.member("primaryKey", property.isPrimaryKey)
                    json.member("indexed", property.index?.rawValue)
                    json.member("objectType", property.objectType)
                    json.member("originProperty", property.originProperty)
                    json.member("description", property.typeDescription)
                    json.endObject()
                }
                json.endArray()
                json.endObject()
            }
            json.endArray()
            json.endObject()
        }
    }

    /// `GET /api/objects`: one page of a query.
    func objects(_ request: HTTPRequest) throws -> HTTPResponse {
        let parameters = try PageParameters(request)
        return try disconnects.watching(request.socket) { cancellation in
            try database.read { view in
                let pager = try QueryPager(
                    view: view, type: parameters.type, filter: parameters.filter, sorts: parameters.sorts)
                let rows = try RowWriter(pager: pager, view: view, columns: parameters.columns)
                let page = try pager.page(
                    parameters.position, limit: parameters.limit, deadline: deadline(cancellation))
                let count = parameters.filter == nil ? try pager.count(deadline: deadline(cancellation)) : nil
                return Self.json { json in
                    json.beginObject()
                    writePage(
                        page, of: parameters, rows: rows, pager: pager, version: view.version, count: count, to: &json)
                    json.endObject()
                }
            }
        }
    }

    /// A page's members, shared by `/api/objects` and the live stream's events.
    func writePage(
        _ page: QueryPage, of parameters: PageParameters, rows: RowWriter, pager: QueryPager, version: Int,
        count: Int?, to json: inout JSONWriter
    ) {
        json.member("type", parameters.type)
        json.member("version", version)
        json.member("count", count)
        json.key("columns")
        json.beginArray()
        for property in rows.columns { json.string(property.name) }
        json.endArray()
        json.key("objects")
        json.beginArray()
        for (key, cursor) in zip(page.keys, page.cursors) {
            rows.write(key, cursor: cursor, to: &json)
        }
        json.endArray()
        json.member("previous", page.hasPrevious ? page.cursors.first?.token : nil)
        json.member("next", page.hasNext ? page.cursors.last?.token : nil)
        json.member("plan", pager.explanation)
    }

    /// `GET /api/count`: how many objects a query selects.
    func count(_ request: HTTPRequest) throws -> HTTPResponse {
        let parameters = try PageParameters(request)
        return try disconnects.watching(request.socket) { cancellation in
            try database.read { view in
                let pager = try QueryPager(view: view, type: parameters.type, filter: parameters.filter)
                let count = try pager.count(deadline: deadline(cancellation))
                return Self.json { json in
                    json.beginObject()
                    json.member("type", parameters.type)
                    json.member("version", view.version)
                    json.member("count", count)
                    json.endObject()
                }
            }
        }
    }

    /// `GET /api/explain`: whether a query parses and fits the schema, and if so its plan and how
    /// its pages are found. Always 200: a query bar asks as the person types, and a typo is an
    /// answer (`ok: false` with the error and its position), not a failed request.
    func explain(_ request: HTTPRequest) throws -> HTTPResponse {
        let parameters = try PageParameters(request)
        let plan: Result<String, any Error> = Result {
            try database.read { view in
                try QueryPager(view: view, type: parameters.type, filter: parameters.filter, sorts: parameters.sorts)
                    .explanation
            }
        }
        return Self.json { json in
            json.beginObject()
            json.member("type", parameters.type)
            switch plan {
            case .success(let plan):
                json.member("ok", true)
                json.member("plan", plan)
            case .failure(let error):
                json.member("ok", false)
                json.key("error")
                json.raw(Self.errorJSON(failure(error)))
            }
            json.endObject()
        }
    }

    /// `GET /api/object`: every property of one object, and what links to it.
    func object(_ request: HTTPRequest) throws -> HTTPResponse {
        let (type, key) = try Self.objectParameters(request, schema: database.schema)
        return try database.read { view in
            guard let json = try objectJSON(type: type, key: key, in: view) else {
                throw APIError(404, "objectNotFound", "\(type) has no object \(APIValue.keyText(key))")
            }
            return HTTPResponse(status: 200, contentType: "application/json; charset=utf-8", bytes: json)
        }
    }

    /// One object's JSON, or `nil` when there is no such object.
    func objectJSON(type: String, key: ObjectKey, in view: ReadView, withVersion: Bool = true) throws -> [UInt8]? {
        let pager = try QueryPager(view: view, type: type, filter: nil)
        let tableKey = view.tableKey(key)
        let rows = try RowWriter(pager: pager, view: view, columns: nil)
        var json = JSONWriter()
        let found = try pager.withObject(tableKey) { object -> Bool in
            json.beginObject()
            json.member("type", type)
            json.member("key", APIValue.keyText(key))
            if withVersion { json.member("version", view.version) }
            json.key("properties")
            json.beginArray()
            for property in pager.schema.properties {
                json.beginObject()
                json.member("name", property.name)
                try rows.writeWhole(object, property, key: tableKey, to: &json)
                json.endObject()
            }
            json.endArray()
            json.key("backlinks")
            json.beginArray()
            for group in try view.linkingGroups(to: tableKey, ofType: type, cap: 100_000) {
                json.beginObject()
                json.member("type", group.type)
                json.member("property", group.property)
                json.member("count", group.count)
                json.endObject()
            }
            json.endArray()
            json.endObject()
            return true
        }
        return found == true ? json.bytes : nil
    }

    /// `GET /api/related`: a page of the objects one object's list holds, or that link to it.
    ///
    /// `property` names a list or set of links (paged by position, in the list's order), a
    /// linking-objects property, or `@links.Type.property` (both paged by key, from the backlinks).
    func related(_ request: HTTPRequest) throws -> HTTPResponse {
        let (type, key) = try Self.objectParameters(request, schema: database.schema)
        guard let name = request.query("property"), !name.isEmpty else {
            throw APIError(400, "missingParameter", "name the list or backlinks with property=")
        }
        let limit = try PageParameters.limit(request)
        return try database.read { view in
            let schema = try view.objectSchema(type)
            let tableKey = view.tableKey(key)
            let target: String
            var keys: [[UInt8]] = []
            var next: String?
            var total: Int
            let after = request.query("after").flatMap(PageCursor.init(token:))
            if let property = schema[name], property.type == .object, property.collection != .single {
                guard let targetName = property.objectType else { throw APIError(400, "badProperty", "not a link") }
                target = targetName
                let pager = try QueryPager(view: view, type: type, filter: nil)
                guard
                    case .list(let elements)? = try pager.withObject(
                        tableKey, { $0.value(of: property) })
                else { throw APIError(404, "objectNotFound", "\(type) has no object \(APIValue.keyText(key))") }
                total = elements.count
                let start = min(after?.offset.map { $0 + 1 } ?? 0, elements.count)
                let end = min(elements.count, start + limit)
                for case .link(_, let linked) in elements[start..<end] { keys.append(view.tableKey(linked)) }
                if end < elements.count { next = PageCursor(offset: end - 1).token }
            } else {
                let (source, sourceProperty) = try Self.backlinkSource(name, of: schema, in: database.schema)
                target = source
                let found = try view.linkingKeys(
                    to: tableKey, ofType: type, from: source, property: sourceProperty,
                    after: after.map(\.key), limit: limit)
                keys = found.keys
                total = try view.linkingCount(
                    to: tableKey, ofType: type, from: source, property: sourceProperty, cap: 100_000)
                if found.hasMore, let last = keys.last { next = PageCursor(values: [], key: last).token }
            }
            let pager = try QueryPager(view: view, type: target, filter: nil)
            let rows = try RowWriter(pager: pager, view: view, columns: nil)
            return Self.json { json in
                json.beginObject()
                json.member("type", target)
                json.member("owner", type)
                json.member("ownerKey", APIValue.keyText(key))
                json.member("property", name)
                json.member("version", view.version)
                json.member("count", total)
                json.key("columns")
                json.beginArray()
                for property in rows.columns { json.string(property.name) }
                json.endArray()
                json.key("objects")
                json.beginArray()
                for key in keys { rows.write(key, cursor: nil, to: &json) }
                json.endArray()
                json.member("next", next)
                json.endObject()
            }
        }
    }

    /// The type and key a request names in `type=` and `key=`.
    static func objectParameters(_ request: HTTPRequest, schema: Schema) throws -> (String, ObjectKey) {
        guard let type = request.query("type"), let objectSchema = schema[type] else {
            throw APIError(404, "unknownType", "no type \(request.query("type") ?? "(none)") in the store")
        }
        guard let text = request.query("key"), let key = APIValue.key(text, primaryKey: objectSchema.primaryKey)
        else {
            throw APIError(
                400, "badKey",
                "key= must be a \(objectSchema.primaryKey.map { $0.type.rawValue } ?? "#internal ID") key of \(type)")
        }
        return (type, key)
    }

    /// The type and link property a linking-objects property or `@links.Type.property` names.
    static func backlinkSource(_ name: String, of schema: ObjectSchema, in whole: Schema) throws -> (String, String) {
        if let property = schema[name], property.type == .linkingObjects, let origin = property.objectType,
            let originProperty = property.originProperty
        {
            return (origin, originProperty)
        }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if parts.count == 3, parts[0] == "@links", let source = whole[parts[1]], let link = source[parts[2]],
            link.type == .object, link.objectType == schema.name
        {
            return (parts[1], parts[2])
        }
        throw APIError(400, "badProperty", "\(schema.name) has no list or backlinks named \(name)")
    }
}

extension ReadView {
    /// The stored schema of `type`, or the API's error.
    func objectSchema(_ type: String) throws -> ObjectSchema {
        guard let schema = database.schema[type] else {
            throw APIError(404, "unknownType", "no type \(type) in the store")
        }
        return schema
    }
}

/// What a page request names: the type, the query, the sort, the columns and where the page starts.
struct PageParameters {
    let type: String
    let filter: String?
    let sorts: [SortKey]
    let columns: [String]?
    let limit: Int
    let position: PagePosition

    init(_ request: HTTPRequest) throws {
        guard let type = request.query("type"), !type.isEmpty else {
            throw APIError(400, "missingParameter", "name a type with type=")
        }
        self.type = type
        let query = request.query("q")?.trimmingCharacters(in: .whitespacesAndNewlines)
        filter = query?.isEmpty == false ? query : nil
        var sorts: [SortKey] = []
        for field in (request.query("sort") ?? "").split(separator: ",") {
            let name = field.hasPrefix("-") ? field.dropFirst() : field
            guard !name.isEmpty else { throw APIError(400, "badSort", "sort= takes property names: a,-b") }
            sorts.append(SortKey(String(name), ascending: !field.hasPrefix("-")))
        }
        self.sorts = sorts
        columns = request.query("columns").flatMap { $0.isEmpty ? nil : $0.split(separator: ",").map(String.init) }
        limit = try Self.limit(request)
        if let token = request.query("after") {
            guard let cursor = PageCursor(token: token) else { throw Self.badCursor }
            position = .after(cursor)
        } else if let token = request.query("before") {
            guard let cursor = PageCursor(token: token) else { throw Self.badCursor }
            position = .before(cursor)
        } else if request.query("last") != nil {
            position = .last
        } else {
            position = .first
        }
    }

    /// `limit=`: 1 to ``Inspector/maximumPageSize``, 50 when absent.
    static func limit(_ request: HTTPRequest) throws -> Int {
        guard let text = request.query("limit") else { return Inspector.defaultPageSize }
        guard let limit = Int(text), limit >= 1 else {
            throw APIError(400, "badLimit", "limit= takes a number from 1 to \(Inspector.maximumPageSize)")
        }
        return min(limit, Inspector.maximumPageSize)
    }

    private static var badCursor: APIError {
        APIError(400, "badCursor", "the page cursor is not one this inspector made; start from the first page")
    }
}
