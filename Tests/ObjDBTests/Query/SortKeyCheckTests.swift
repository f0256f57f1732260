import Foundation
import TestSupport
import Testing

@testable import ObjDB

/// A sort or `distinct` key path is checked where it is given, and a typo is thrown as a bad
/// filter string is, not found when the results are first read (#16.7).
@Suite("Queries: sort keys")
struct SortKeyCheckTests {
    @Test func aSortKeyTypoIsThrownBySortedNamingTheKey() throws {
        let directory = TemporaryDirectory()
        let tweets = try makeDatabase(directory).view().objects(Tweet.self)
        #expect {
            _ = try tweets.sorted(byKeyPath: "nosuch")
        } throws: { error in
            let error = error as? ObjDBError
            return error?.code == .invalidQuery && error?.message.contains("Tweet has no property nosuch") == true
        }
    }

    @Test func aDistinctKeyTypoThroughALinkIsThrownByDistinct() throws {
        let directory = TemporaryDirectory()
        let tweets = try makeDatabase(directory).view().objects(Tweet.self)
        #expect {
            _ = try tweets.distinct(by: ["user.nosuch"])
        } throws: { error in
            (error as? ObjDBError)?.message.contains("TwitterUser has no property nosuch") == true
        }
    }

    @Test func aSortByACollectionIsThrown() throws {
        let directory = TemporaryDirectory()
        let photos = try makeDatabase(directory).view().objects(Photo.self)
        #expect(throws: ObjDBError.self) { _ = try photos.sorted(by: [SortKey("tags.name")]) }
    }

    @Test func aValidSortKeyThroughALinkIsAccepted() throws {
        let directory = TemporaryDirectory()
        let tweets = try makeDatabase(directory).view().objects(Tweet.self)
        #expect(try tweets.sorted(byKeyPath: "user.screenName").isEmpty)
    }

    @Test func aCompilerCheckedKeyPathSortsLikeItsName() throws {
        let directory = TemporaryDirectory()
        let database = try makeDatabase(directory)
        try database.write { transaction in
            for id: Int64 in [3, 1, 2] {
                let tweet = Tweet()
                tweet.id = id
                try transaction.add(tweet)
            }
        }
        let tweets = try database.view().objects(Tweet.self)
        #expect(tweets.sorted(by: \.id, ascending: false).map(\.id) == [3, 2, 1])
        #expect(try tweets.sorted(byKeyPath: "id", ascending: false).map(\.id) == [3, 2, 1])
    }
}
