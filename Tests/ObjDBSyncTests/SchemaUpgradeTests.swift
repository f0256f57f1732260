import Foundation
import ObjDB
import TestSupport
import Testing

@testable import ObjDBSync

/// The models as #13 stored them: a timeline without gaps.
private enum Issue13 {
    final class Timeline: Object {
        @Persisted(primaryKey: true) var name = ""
        @Persisted var entries: List<Tweet>
        @Persisted var newestId: Int64?
        @Persisted var oldestId: Int64?
    }

    final class Tweet: Object {
        @Persisted(primaryKey: true) var id: Int64
        @Persisted var text = ""
        @Persisted(originProperty: "entries") var timelines: LinkingObjects<Timeline>
    }
}

@Suite("Schema upgrades")
struct SchemaUpgradeTests {
    @Test func aStoreWrittenBeforeGapsOpensWithItsEntriesAndNoGaps() throws {
        let directory = TemporaryDirectory()
        let path = directory.store()
        do {
            let old = try Database(path: path, types: [Issue13.Timeline.self, Issue13.Tweet.self])
            try old.write { transaction in
                let timeline = Issue13.Timeline()
                timeline.name = "home"
                for id in [Int64(30), 20, 10] {
                    let tweet = Issue13.Tweet()
                    tweet.id = id
                    timeline.entries.append(tweet)
                }
                timeline.newestId = 30
                timeline.oldestId = 10
                try transaction.add(timeline)
            }
        }
        let database = try Database(configuration: .syncStore(path: path))
        let timeline = try #require(try database.view().object(ofType: Timeline.self, forPrimaryKey: "home"))
        #expect(timeline.entries.map(\.id) == [30, 20, 10])
        #expect(timeline.gaps.isEmpty && timeline.newestId == 30)
    }
}
