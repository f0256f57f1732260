import Foundation
import ObjDB
import TestSupport
import Testing

@testable import ObjDBSync

/// `../shared/fixtures` beside the checkout: real API payloads, never copied into the repository.
let fixtures = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/fixtures")
let fixturesAvailable = FileManager.default.fileExists(atPath: fixtures.path)
let fixturesAbsent: Comment = "../shared/fixtures is absent: the real-payload tests are skipped"

/// The bytes of a fixture, `twitter/…` or `nyt/…`.
func fixture(_ name: String) throws -> Data {
    try Data(contentsOf: fixtures.appendingPathComponent(name))
}

/// The fixture files of one service, sorted.
func fixtureNames(_ service: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: fixtures.appendingPathComponent(service).path)
        .filter { $0.hasSuffix(".json") }.sorted().map { service + "/" + $0 }
}

/// A fresh store that holds every ObjDBSync model, in a directory of its own.
final class SyncStore {
    let directory = TemporaryDirectory()
    let database: Database

    init() throws {
        database = try Database(
            path: directory.store(), types: TwitterImporter.modelTypes + NYTImporter.modelTypes)
    }

    var twitter: TwitterImporter { TwitterImporter(database: database) }
    var x: XImporter { XImporter(database: database) }
    var nyt: NYTImporter { NYTImporter(database: database) }

    /// How many objects of each stored type there are.
    func counts() throws -> [String: Int] {
        let view = try database.view()
        var counts: [String: Int] = [:]
        for name in ["Tweet", "TwitterUser", "Timeline", "Article", "ArticleSearch"] {
            counts[name] = try view.count(name)
        }
        return counts
    }

    /// Every stored object's values, by type and key: to show that a failed import changed nothing.
    func snapshot() throws -> [String: [ObjectKey: [String: StoredValue]]] {
        let view = try database.view()
        var snapshot: [String: [ObjectKey: [String: StoredValue]]] = [:]
        for name in ["Tweet", "TwitterUser", "Timeline", "Article", "ArticleSearch"] {
            for object in try view.dynamicObjects(name) {
                snapshot[name, default: [:]][object.objectKey] = try object.values()
            }
        }
        return snapshot
    }

    /// The store's version: it moves with every commit.
    func version() throws -> Int { try database.view().version }
}

/// What a Twitter payload holds, counted with Foundation's parser, independently of the importer.
struct TwitterPayloadFacts {
    var statusIDs: Set<Int64> = []
    var ownStatusIDs: [Int64] = []
    var userIDs: Set<Int64> = []
    var createdAt: [Int64: String] = [:]
    var texts: [Int64: String] = [:]

    init(_ data: Data) throws {
        let root = try JSONSerialization.jsonObject(with: data)
        if let statuses = root as? [[String: Any]] {
            for status in statuses { ownStatusIDs.append(id(status)); visit(status) }
        } else if let object = root as? [String: Any], let statuses = object["statuses"] as? [[String: Any]] {
            for status in statuses { ownStatusIDs.append(id(status)); visit(status) }
        } else if let user = root as? [String: Any] {
            userIDs.insert(id(user))
            if let status = user["status"] as? [String: Any] {
                ownStatusIDs.append(id(status))
                visit(status)
            }
        }
    }

    private func id(_ object: [String: Any]) -> Int64 { Int64(object["id_str"] as! String)! }

    private mutating func visit(_ status: [String: Any]) {
        let statusID = id(status)
        statusIDs.insert(statusID)
        createdAt[statusID] = status["created_at"] as? String
        texts[statusID] = (status["full_text"] ?? status["text"]) as? String
        if let user = status["user"] as? [String: Any] { userIDs.insert(id(user)) }
        if let entities = status["entities"] as? [String: Any],
            let mentions = entities["user_mentions"] as? [[String: Any]]
        {
            for mention in mentions { userIDs.insert(id(mention)) }
        }
        for key in ["retweeted_status", "quoted_status"] {
            if let nested = status[key] as? [String: Any] { visit(nested) }
        }
    }
}

/// Parses `created_at` with Foundation's formatter, as an app would.
func foundationTwitterDate(_ text: String) -> Date? {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = "EEE MMM dd HH:mm:ss Z yyyy"
    return formatter.date(from: text)
}
