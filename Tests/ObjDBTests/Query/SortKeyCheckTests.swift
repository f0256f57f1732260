import Foundation
import TestSupport
import Testing

@testable import ObjDB

/// A sort or `distinct` key path is checked where it is given, not when the results are first read (#16.7).
@Suite("Queries: sort keys")
struct SortKeyCheckTests {
    @Test func aSortKeyTypoStopsTheProgramAtSortedNamingTheKey() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let directory = TemporaryDirectory()
            let tweets = try makeDatabase(directory).view().objects(Tweet.self)
            FileHandle.standardError.write(Data("before sorted\n".utf8))
            _ = tweets.sorted(byKeyPath: "nosuch")
            FileHandle.standardError.write(Data("after sorted\n".utf8))
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains("before sorted"))
        #expect(!output.contains("after sorted"))
        #expect(output.contains("Tweet has no property nosuch"))
    }

    @Test func aDistinctKeyTypoStopsTheProgramAtDistinct() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let directory = TemporaryDirectory()
            let tweets = try makeDatabase(directory).view().objects(Tweet.self)
            _ = tweets.distinct(by: ["user.nosuch"])
            FileHandle.standardError.write(Data("after distinct\n".utf8))
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(!output.contains("after distinct"))
        #expect(output.contains("TwitterUser has no property nosuch"))
    }

    @Test func aValidSortKeyThroughALinkIsAccepted() throws {
        let directory = TemporaryDirectory()
        let tweets = try makeDatabase(directory).view().objects(Tweet.self)
        #expect(tweets.sorted(byKeyPath: "user.screenName").isEmpty)
    }
}
