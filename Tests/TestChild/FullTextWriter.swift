import Foundation
import ObjDB

/// The full-text crash suite's model: the same name and properties as the test's `Snippet`.
final class Snippet: Object {
    @Persisted(primaryKey: true) var id: Int64
    @Persisted(indexed: .fullText) var text = ""
    @Persisted(indexed: .fullText) var summary: String?
    @Persisted var likes = 0
    @Persisted var plain = ""
}

/// Indexed writes until killed: random adds, edits and deletes of snippets, `commit N` after each
/// commit returns.
func runFullTextWriter(path: String, seed: UInt64, durable: Bool) throws -> Never {
    var configuration = Configuration(path: path, types: [Snippet.self])
    configuration.isDurable = durable
    let database = try Database(configuration: configuration)
    var random = SplitMix(seed: seed)
    let words = ["swift", "Café", "naïve", "#swift", "@joe", "東京都", "actors", "https://t.co/x1", "tea", "zoë"]
    func text() -> String {
        (0..<(1 + random.below(12))).map { _ in words[random.below(words.count)] }.joined(separator: " ")
    }
    var commits = 0
    while true {
        try database.write { transaction in
            for _ in 0..<(1 + random.below(20)) {
                let id = Int64(random.below(300))
                if let snippet = transaction.object(ofType: Snippet.self, forPrimaryKey: id) {
                    if random.below(3) == 0 {
                        try transaction.delete(snippet)
                    } else {
                        snippet.text = text()
                        snippet.summary = random.below(2) == 0 ? nil : text()
                    }
                } else {
                    try transaction.create(Snippet.self, value: ["id": id, "text": text(), "summary": text()])
                }
            }
        }
        commits += 1
        // The first commit says the writer is ready: every kill comes after at least one.
        say(commits == 1 ? "ready 1" : "commit \(commits)")
    }
}
