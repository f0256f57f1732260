import Foundation
import ObjDB

/// Imports NYT Article Search API v2 response bodies (`svc/search/v2/articlesearch.json`) into a store.
///
/// ```swift
/// let db = try Database(path: "nyt.objdb", types: NYTImporter.modelTypes)
/// let page = try NYTImporter(database: db).importPage(data, search: ArticleSearchQuery("bailout"))
/// print(page.summary, page.hits ?? 0)
/// ```
///
/// Each page is one write transaction: a page that does not map, or an error body, leaves the
/// store as it was; the same page again changes nothing. Articles are upserted by `_id`. With a
/// search, the page's articles go into that ``ArticleSearch`` at the page's offset: page 0 (the
/// search run again) replaces its list, later pages extend it; articles are never deleted.
///
/// A body with a top-level `fault` (the API gateway's errors: a bad key, the rate limit) or a
/// `status` other than `OK` is a ``SyncError`` of code ``SyncError/Code/apiError`` or
/// ``SyncError/Code/rateLimited``.
public struct NYTImporter: Sendable {
    /// The store.
    public let database: Database

    /// The model classes a store needs to hold NYT imports.
    public static let modelTypes: [ObjectBase.Type] = [
        Article.self, ArticleKeyword.self, ArticleMultimedia.self, ArticleSearch.self,
    ]

    /// An importer into `database`, which must have been opened with ``modelTypes``.
    public init(database: Database) {
        self.database = database
    }

    /// Imports one response body, in one write transaction.
    ///
    /// - Parameter search: the search the page answers; `nil` imports the articles alone.
    /// - Throws: ``SyncError``: the JSON path of the first value that does not map, or an API error.
    @discardableResult
    public func importPage(_ data: Data, search: ArticleSearchQuery? = nil) throws -> ArticleSearchPage {
        if let search, search.query.isEmpty {
            throw SyncError(.invalidArgument, "a search needs a query")
        }
        let document = try JSONDocument(data)
        let (docs, meta) = try Self.response(in: document.root)
        let hits = try meta?["hits"].map(JSONTransformer<Int>.integer.transform)
        let offset = try meta?["offset"].map(JSONTransformer<Int>.integer.transform) ?? 0
        let (ids, summary) = try database.importJSON(document) { _, session -> [String] in
            var ids: [String] = []
            for doc in docs.elements {
                if let article = try session.upsert(doc, using: Article.jsonMapping) { ids.append(article.id) }
            }
            if let search { try Self.store(search, hits: hits, offset: offset, articleIDs: ids, in: session) }
            return ids
        }
        return ArticleSearchPage(articleIDs: ids, hits: hits, offset: offset, search: search, summary: summary)
    }

    /// The `docs` and `meta` of a body, or the error it is.
    private static func response(in root: JSONValue) throws -> (docs: JSONValue, meta: JSONValue?) {
        guard root.kind == .object else {
            throw SyncError(
                .unexpectedPayload, "not an NYT Article Search payload: expected an object, found \(root)")
        }
        if let error = nytAPIError(in: root) { throw error }
        guard let response = root["response"], response.kind == .object else {
            throw SyncError(
                .unexpectedPayload, at: JSONPath([.key("response")]),
                "not an NYT Article Search payload: expected a response object, found \(root["response"]?.description ?? "none")"
            )
        }
        guard let docs = response["docs"], docs.kind == .array else {
            let found = response["docs"]
            throw SyncError(
                found == nil ? .unexpectedPayload : .unexpectedValue,
                at: found?.path ?? response.path.appending(.key("docs")),
                "expected an array of docs, found \(found?.description ?? "none")")
        }
        let meta = (response["meta"] ?? response["metadata"]).flatMap { $0.isNull ? nil : $0 }
        if let meta, meta.kind != .object {
            throw SyncError(.unexpectedValue, at: meta.path, "expected an object, found \(meta)")
        }
        return (docs, meta)
    }

    /// Puts the page's articles into the search's list at `offset`, creating the search.
    private static func store(
        _ search: ArticleSearchQuery, hits: Int?, offset: Int, articleIDs: [String], in session: JSONImportSession
    ) throws {
        let transaction = session.transaction
        let key = ObjectKey.string(search.identifier)
        let stored = try transaction.dynamicObjects("ArticleSearch").first { $0.objectKey == key }
        var old: [String] = []
        if let stored, case .list(let links) = try stored.value(forKey: "articles") {
            old = links.compactMap { link in
                guard case .link(_, .string(let id)) = link else { return nil }
                return id
            }
        }
        var articles = Array(old.prefix(offset))
        var seen = Set(articles)
        for id in articleIDs where seen.insert(id).inserted { articles.append(id) }
        let values: [String: StoredValue] = [
            "id": .string(search.identifier), "query": .string(search.query),
            "beginDate": search.beginDate.map { .date($0) } ?? .null,
            "endDate": search.endDate.map { .date($0) } ?? .null,
            "hits": hits.map { .int(Int64($0)) } ?? stored?["hits"] ?? .int(0),
            "articles": .list(articles.map { .link(type: "Article", key: .string($0)) }),
        ]
        if let stored, values.allSatisfy({ stored[$0.key] == $0.value }) {
            session.record(.unchanged, typeName: "ArticleSearch", key: key)
            return
        }
        do {
            try transaction.dynamicCreate("ArticleSearch", value: values.mapValues { $0 as Any }, update: .modified)
        } catch {
            throw SyncError(.store, "the store refused search '\(search.query)': \(error)", underlyingError: error)
        }
        session.record(stored == nil ? .inserted : .updated, typeName: "ArticleSearch", key: key)
    }
}

/// What importing one Article Search response did.
public struct ArticleSearchPage: Sendable, Hashable {
    /// The `_id`s of the page's docs, in the payload's order (docs without one left out).
    public let articleIDs: [String]
    /// How many docs the API said match (`response.meta.hits`).
    public let hits: Int?
    /// Where the page starts among them (`response.meta.offset`).
    public let offset: Int
    /// The search the page went into, if any.
    public let search: ArticleSearchQuery?
    /// The inserted, updated and unchanged objects per type.
    public let summary: ImportSummary
}

/// The error an NYT error body stands for, or `nil` when `root` is not one: a `fault` object
/// (`faultstring`, `detail.errorcode`) or a `status` other than `OK` (with `errors` or `message`).
func nytAPIError(in root: JSONValue) -> SyncError? {
    if let fault = root["fault"], !fault.isNull {
        let text = fault["faultstring"]?.stringValue ?? fault.stringValue ?? fault.jsonText
        let code = fault["detail"]?["errorcode"]?.stringValue
        let message = SyncError.APIMessage(code: code, message: text)
        let isRateLimit =
            (code ?? "").localizedCaseInsensitiveContains("ratelimit")
            || text.localizedCaseInsensitiveContains("rate limit")
        return isRateLimit
            ? SyncError(.rateLimited, "the NYT API's rate limit was reached: \(message)", apiMessages: [message])
            : SyncError(.apiError, "the NYT API answered with a fault: \(message)", apiMessages: [message])
    }
    guard let status = root["status"], !status.isNull else { return nil }
    guard status.stringValue != "OK" else { return nil }
    var messages: [SyncError.APIMessage] = []
    if let errors = root["errors"] {
        let entries = errors.kind == .array ? errors.elements : [errors]
        messages = entries.map { SyncError.APIMessage(code: nil, message: $0.stringValue ?? $0.jsonText) }
    }
    if let message = root["message"]?.stringValue { messages.append(SyncError.APIMessage(code: nil, message: message)) }
    if messages.isEmpty { messages.append(SyncError.APIMessage(code: nil, message: "status \(status.jsonText)")) }
    let said = messages.map(\.description).joined(separator: "; ")
    return SyncError(.apiError, "the NYT API answered with status \(status.jsonText): \(said)", apiMessages: messages)
}
