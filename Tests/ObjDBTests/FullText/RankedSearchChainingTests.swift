import Foundation
import TestSupport
import Testing

@testable import ObjDB

/// Whatever follows a ranked search (``Results/search(_:in:limit:)``) applies to the objects the
/// search picked, as it would to any results: a limit keeps the first, a sort reorders them (ties
/// in rank order), `distinct` keeps the first of each, a filter narrows what the search picks from.
@Suite("Results chained after a ranked search")
struct RankedSearchChainingTests {
    let directory = TemporaryDirectory()

    static let words = ["swift", "actor", "task", "cafe", "zoe", "lmdb", "index", "query"]

    /// Notes of a few random words each, with random likes and a random `plain` tag.
    func seeded(_ random: inout SeededGenerator) throws -> Database {
        let db = try fullTextStore(directory, name: "chaining-\(random.next() % 1000).objdb")
        try db.write { transaction in
            for id in Int64(1)...60 {
                let snippet = Snippet()
                snippet.id = id
                let count = Int.random(in: 1...6, using: &random)
                snippet.text = (0..<count).map { _ in Self.words.randomElement(using: &random)! }
                    .joined(separator: " ")
                snippet.likes = Int.random(in: 0..<5, using: &random)
                snippet.plain = ["a", "b", "c"].randomElement(using: &random)!
                try transaction.add(snippet)
            }
        }
        return db
    }

    /// The ids, likes and tags of `results`, in order.
    func rows(_ results: Results<Snippet>) -> [(id: Int64, likes: Int, plain: String)] {
        results.map { ($0.id, $0.likes, $0.plain) }
    }

    @Test(arguments: [UInt64(1), 2, 3, 4, 5])
    func everyStepAfterASearchAppliesToWhatItPicked(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let db = try seeded(&random)
        let notes = try db.view().objects(Snippet.self)
        let search = "swift " + Self.words.randomElement(using: &random)!.prefix(3) + "*"
        let limit = Int.random(in: 3...12, using: &random)
        let ranked = try notes.search(search, in: "text", limit: limit)
        let picked = rows(ranked)
        #expect(!picked.isEmpty)
        let stablyByLikes = { (ascending: Bool) in
            picked.enumerated().sorted { left, right in
                left.element.likes != right.element.likes
                    ? (left.element.likes < right.element.likes) == ascending : left.offset < right.offset
            }.map(\.element.id)
        }

        let cut = Int.random(in: 1...limit, using: &random)
        #expect(ranked.limit(cut).map(\.id) == Array(picked.prefix(cut).map(\.id)))
        #expect(ranked.limit(cut).count == Swift.min(cut, picked.count))
        #expect(try ranked.sorted(byKeyPath: "likes").map(\.id) == stablyByLikes(true))
        #expect(ranked.sorted(by: \.likes, ascending: false).map(\.id) == stablyByLikes(false))
        #expect(try ranked.sorted(byKeyPath: "likes").count == picked.count)
        #expect(try ranked.sorted(byKeyPath: "likes").first?.id == stablyByLikes(true).first)
        #expect(try ranked.sorted(byKeyPath: "likes").limit(cut).map(\.id) == Array(stablyByLikes(true).prefix(cut)))
        #expect(
            try ranked.filter("TRUEPREDICATE SORT(likes DESC) LIMIT(\(cut))").map(\.id)
                == Array(stablyByLikes(false).prefix(cut)))
        var seen = Set<String>()
        #expect(
            try ranked.distinct(by: ["plain"]).map(\.id) == picked.filter { seen.insert($0.plain).inserted }.map(\.id))
        #expect(try ranked.max(ofProperty: "likes") == picked.map(\.likes).max())
        let sorted = try ranked.sorted(byKeyPath: "likes")
        #expect(sorted.allSatisfy { (sorted.score(of: $0) ?? 0) > 0 })

        // A filter narrows what the search picks from, as a filter after any limit does.
        let everyMatch = rows(try notes.search(search, in: "text", limit: 1000))
        let liked = everyMatch.filter { $0.likes >= 2 }.prefix(limit).map(\.id)
        #expect(try ranked.filter("likes >= 2").map(\.id) == Array(liked))
        #expect(ranked.where { $0.likes >= 2 }.map(\.id) == Array(liked))
        #expect(try notes.filter("likes >= 2").search(search, in: "text", limit: limit).map(\.id) == Array(liked))
    }

    @Test func explainShowsTheStepsAfterTheSearch() throws {
        var random = SeededGenerator(seed: 9)
        let db = try seeded(&random)
        let ranked = try db.view().objects(Snippet.self).search("swift", in: "text", limit: 10)
        let plan = try ranked.sorted(byKeyPath: "likes", ascending: false).limit(3).explain()
        #expect(plan.contains("ranked by BM25"))
        #expect(plan.contains("then sorted by likes DESC"))
        #expect(plan.contains("then limit 3"))
    }

    @Test func liveResultsSortedAfterASearchStaySorted() throws {
        var random = SeededGenerator(seed: 11)
        let db = try seeded(&random)
        let queue = DispatchQueue(label: "observer")
        let inbox = Inbox<[Int]>()
        let token = try onQueue(queue) {
            try db.view(queue: queue).objects(Snippet.self).search("swift", in: "text", limit: 5)
                .sorted(byKeyPath: "likes").observe { change in
                    switch change {
                    case .initial(let results), .update(let results, _, _, _): inbox.append(results.map(\.likes))
                    case .error: inbox.append([])
                    }
                }
        }
        let first = try #require(inbox.wait(for: 1).first)
        #expect(first == first.sorted())
        try db.write { transaction in
            let snippet = Snippet()
            snippet.id = 100
            snippet.text = Array(repeating: "swift", count: 12).joined(separator: " ")
            snippet.likes = 9
            try transaction.add(snippet)
        }
        let last = try #require(inbox.wait(for: 2).last)
        #expect(last.count == 5 && last.last == 9 && last == last.sorted())
        token.invalidate()
    }
}
