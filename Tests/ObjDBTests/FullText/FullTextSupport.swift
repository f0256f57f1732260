import Foundation
import TestSupport
import Testing

@testable import ObjDB

/// A note with an integer primary key and two full-text indexed properties.
final class Snippet: Object {
    @Persisted(primaryKey: true) var id: Int64
    @Persisted(indexed: .fullText) var text = ""
    @Persisted(indexed: .fullText) var summary: String?
    @Persisted var likes = 0
    @Persisted var plain = ""
}

/// A page with a string primary key (front-coded keys in the postings).
final class Page: Object {
    @Persisted(primaryKey: true) var slug = ""
    @Persisted(indexed: .fullText) var body = ""
}

/// A memo without a primary key (internal IDs).
final class Memo: Object {
    @Persisted(indexed: .fullText) var body = ""
}

let fullTextTypes: [ObjectBase.Type] = [Snippet.self, Page.self, Memo.self]

/// A store of ``fullTextTypes``; `recentLimit` sets when the recent segment is folded (0: at
/// every write).
func fullTextStore(_ directory: TemporaryDirectory, name: String = "fts.objdb", recentLimit: Int? = nil) throws
    -> Database
{
    var configuration = Configuration(path: directory.store(name), types: fullTextTypes)
    if let recentLimit { configuration.fullTextRecentLimit = recentLimit }
    return try Database(configuration: configuration)
}

/// Every entry of `property`'s full-text index (its chunks; `segment`: its statistics and recent
/// segment), in key order.
func fullTextEntries(_ db: Database, type: String, property: String, segment: Bool = false) throws -> [(
    [UInt8], [UInt8]
)] {
    let binding = try db.catalog.binding(named: type)
    let index = try #require(segment ? binding[property]?.fullTextSegment?.database : binding[property]?.index)
    return try db.catalog.environment.read { try allEntries(of: index, in: $0) }
}

/// Every entry of `database`, in key order.
func allEntries(of database: DatabaseHandle, in transaction: Transaction) throws -> [([UInt8], [UInt8])] {
    var found: [([UInt8], [UInt8])] = []
    let cursor = try transaction.cursor(database)
    var entry = try cursor.first()
    while let current = entry {
        found.append((Array(current.key), Array(current.value)))
        entry = try cursor.next()
    }
    return found
}

/// The tokens the tokenizer gives for `text`, as strings.
func tokens(_ text: String, forQuery: Bool = false) -> [String] {
    var found: [String] = []
    var copy = text
    copy.withUTF8 { bytes in
        TextTokenizer.forEachToken(in: UnsafeRawBufferPointer(bytes), forQuery: forQuery) { token, _, _ in
            found.append(String(decoding: token, as: UTF8.self))
        }
    }
    return found
}

extension Database {
    /// The ids of the notes a predicate selects, in id order.
    func snippetIDs(_ predicate: String) throws -> [Int64] {
        try view().objects(Snippet.self).filter(predicate).map(\.id).sorted()
    }
}
