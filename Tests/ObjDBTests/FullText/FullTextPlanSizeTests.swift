import Foundation
import TestSupport
import Testing

@testable import ObjDB

/// A post with a full-text indexed text, an indexed author, and an integer primary key.
final class AuthoredPost: Object {
    @Persisted(primaryKey: true) var id: Int64
    @Persisted(indexed: .fullText) var text = ""
    @Persisted(indexed: true) var userId = 0
    @Persisted var likes = 0
}

/// The planner starts a full-text query combined with an index condition from the side with
/// fewer candidates in the snapshot read, and `explain()` says which and why.
@Suite("Full-text plans by size")
struct FullTextPlanSizeTests {
    let directory = TemporaryDirectory()

    /// 400 posts: "the" in every one, "zygote" in three; user 5 wrote 4 of them, user 7 wrote 300.
    func seeded() throws -> Database {
        let db = try Database(path: directory.store("sizes.objdb"), types: [AuthoredPost.self])
        try db.write { transaction in
            for id in Int64(1)...400 {
                let post = AuthoredPost()
                post.id = id
                post.userId = id <= 300 ? 7 : (id % 25 == 0 ? 5 : Int(id))
                post.text = "the post number \(id)" + (id % 150 == 0 || id == 7 ? " zygote" : "")
                post.likes = Int(id % 10)
                try transaction.add(post)
            }
        }
        return db
    }

    /// The ids a predicate selects, in the results' order, and the plan it ran with.
    func run(_ db: Database, _ predicate: String) throws -> (ids: [Int64], plan: String) {
        let results = try db.view().objects(AuthoredPost.self).filter(predicate)
        return (results.map(\.id), try results.explain())
    }

    @Test func aCommonWordStartsFromTheSmallerIndexLookup() throws {
        let db = try seeded()
        let (ids, plan) = try run(db, "text TEXT 'the' AND userId == 5")
        #expect(ids == [325, 350, 375, 400])
        #expect(plan.hasPrefix("AuthoredPost: index lookup on userId"), "\(plan)")
        #expect(plan.contains("full-text search on text ('the') > 4"), "\(plan)")
    }

    @Test func aRareWordStartsFromTheFullTextIndex() throws {
        let db = try seeded()
        let (ids, plan) = try run(db, "userId == 7 AND text TEXT 'zygote'")
        #expect(ids == [7, 150, 300])
        #expect(plan.hasPrefix("AuthoredPost: full-text search on text ('zygote')"), "\(plan)")
        #expect(plan.contains("index lookup on userId (1 key) 300"), "\(plan)")
    }

    @Test func theChoiceFollowsTheSnapshotNotThePreparation() throws {
        let db = try seeded()
        let predicate = "text TEXT 'zygote' AND userId == 333"
        #expect(try run(db, predicate).plan.hasPrefix("AuthoredPost: index lookup on userId"))
        try db.write { transaction in
            for id in Int64(1001)...1040 {
                let post = AuthoredPost()
                post.id = id
                post.userId = 333
                post.text = "the same old post"
                try transaction.add(post)
            }
        }
        let (ids, plan) = try run(db, predicate)
        #expect(plan.hasPrefix("AuthoredPost: full-text search on text ('zygote')"), "\(plan)")
        #expect(ids == [])
    }

    @Test func everyPathGivesTheSameAnswerInTheSameOrder() throws {
        let db = try seeded()
        var random = SeededGenerator(seed: 27)
        let words = ["the", "post", "zygote", "number", "1*", "3*", "\"post number\"", "-zygote"]
        for _ in 0..<40 {
            let search = (0..<Int.random(in: 1...2, using: &random)).map { _ in words.randomElement(using: &random)! }
            let user = [5, 7, 333].randomElement(using: &random)!
            let predicate = "text TEXT '\(search.joined(separator: " "))' AND userId == \(user)"
            let answer = try run(db, predicate).ids
            let matching = Set(
                try db.view().objects(AuthoredPost.self).filter("text TEXT %@", search.joined(separator: " ")).map(\.id)
            )
            let scanned = try db.view().objects(AuthoredPost.self).filter("userId == \(user)").map(\.id)
                .filter(matching.contains)
            #expect(answer == scanned, "\(predicate)")
            let sorted = try run(db, predicate + " SORT(likes DESC) LIMIT(2)").ids
            let expected = try db.view().objects(AuthoredPost.self).filter("id IN %@", answer)
                .sorted(byKeyPath: "likes", ascending: false).limit(2).map(\.id)
            #expect(sorted == expected, "\(predicate)")
        }
    }
}
