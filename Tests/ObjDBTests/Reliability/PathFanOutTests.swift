import Foundation
import TestSupport
import Testing

@testable import ObjDB

final class FanOutAuthor: Object {
    @Persisted(primaryKey: true) var name = ""
    @Persisted(originProperty: "author") var posts: LinkingObjects<FanOutPost>
}

final class FanOutPost: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var title = ""
    @Persisted var author: FanOutAuthor?
    @Persisted var related: List<FanOutPost>
}

/// A query that walks links and backlinks back and forth reaches few objects by very many routes:
/// here 150 posts per author, so `author.posts.author.posts.author.posts` has 150³ routes from each of
/// 600 posts (two billion in all), through 154 objects. It costs what it reaches, not the routes (#30).
@Suite("Queries through links back and forth", .timeLimit(.minutes(5)))
struct PathFanOutTests {
    let directory = TemporaryDirectory()
    static let authors = ["a0", "a1", "a2", "a3"]
    static let postsPerAuthor = 150

    private func posts() throws -> Results<FanOutPost> {
        let db = try Database(path: directory.store(), types: [FanOutAuthor.self, FanOutPost.self])
        try db.write { transaction in
            var previous: FanOutPost?
            for (index, name) in Self.authors.enumerated() {
                let author = FanOutAuthor()
                author.name = name
                try transaction.add(author)
                for number in 0..<Self.postsPerAuthor {
                    let post = FanOutPost()
                    post.id = index * Self.postsPerAuthor + number
                    post.title = "p\(post.id)"
                    post.author = author
                    // Each post also links to the one before and to itself: lists with repeats.
                    if let previous { post.related.append(previous) }
                    try transaction.add(post)
                    post.related.append(post)
                    previous = post
                }
            }
        }
        return try db.view().objects(FanOutPost.self)
    }

    /// Runs `query`, checking it took less than `seconds`: a walk of the routes takes hours, while
    /// a debug build on a loaded 2-core machine takes up to about 20 seconds for what it reaches.
    private func timed(_ posts: Results<FanOutPost>, _ query: String, within seconds: Double = 90) throws -> [Int] {
        let clock = ContinuousClock()
        let start = clock.now
        let found = try posts.filter(query).map(\.id)
        let elapsed = clock.now - start
        #expect(elapsed < .seconds(seconds), "\(query) took \(elapsed)")
        return found
    }

    @Test func aComparisonAtTheEndOfTheWalkFindsTheRightObjects() throws {
        let all = try posts()
        let found = try timed(all, "author.posts.author.posts.author.posts.author.name == 'a1'")
        #expect(found == Array(Self.postsPerAuthor..<2 * Self.postsPerAuthor))
        #expect(try timed(all, "ALL author.posts.author.posts.author.name == 'a2'").count == Self.postsPerAuthor)
        #expect(try timed(all, "NONE author.posts.author.posts.title == 'p3'").count == 450)
    }

    @Test func countsAlongTheWalkCountEveryRoute() throws {
        let all = try posts()
        let perPost = Self.postsPerAuthor * Self.postsPerAuthor
        #expect(try timed(all, "author.posts.author.posts.@count == \(perPost)").count == 600)
        #expect(try timed(all, "author.posts.author.posts.author.posts.@count > 3000000").count == 600)
        let sum = (0..<Self.postsPerAuthor).reduce(0, +) * Self.postsPerAuthor
        // Every route from a post of a0 sums a0's posts' IDs once per post of a0.
        #expect(try timed(all, "author.posts.author.posts.@sum.id == \(sum)") == Array(0..<Self.postsPerAuthor))
    }

    @Test func listsWithRepeatsAreWalkedOnceAPerObject() throws {
        let all = try posts()
        // related.related.related…: each post reaches the ones before it by many routes.
        let deep = "related.related.related.related.related.related.related.related.related.related"
        let found = try timed(all, "ANY \(deep).id == 0")
        #expect(found == Array(0..<11))
        #expect(try timed(all, "SUBQUERY(\(deep), $p, $p.id < 3).@count > 0") == Array(0...12))
    }

    @Test func anElementByElementComparisonListsNoMoreThanItNeeds() throws {
        let all = try posts()
        #expect(try timed(all, "author.posts.author.posts.author.posts.title == {'p0', 'p1'}").isEmpty)
        // related(p) is [p - 1, p] (post 0's is [0]), so related.related(p) is related(p - 1) then related(p).
        #expect(try timed(all, "related.related.id == {0}") == [0])
        #expect(try timed(all, "related.related.id == {0, 0, 1}") == [1])
        #expect(try timed(all, "related.related.id == {0, 1, 1, 2}") == [2])
        #expect(try timed(all, "related.related.related.id == {0, 0, 1, 0, 1, 1, 2}") == [2])
    }
}
