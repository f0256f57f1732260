import Foundation
import TestSupport
import Testing

@testable import ObjDB

@Suite("Objects: basics")
struct ObjectBasicsTests {
    let directory = TemporaryDirectory()

    @Test func anAddedObjectReadsBackFromANewView() throws {
        let db = try makeDatabase(directory)
        let user = TwitterUser()
        user.id = 12
        user.name = "Jack"
        user.screenName = "jack"
        let tweet = Tweet()
        tweet.id = 20
        tweet.text = "just setting up my twttr"
        tweet.user = user
        try db.write { try $0.add(tweet) }
        #expect(tweet.isManaged)
        #expect(user.isManaged)

        let view = try db.view()
        let stored = try #require(view.object(ofType: Tweet.self, forPrimaryKey: Int64(20)))
        #expect(stored.text == "just setting up my twttr")
        #expect(stored.user?.screenName == "jack")
        #expect(view.objects(Tweet.self).count == 1)
        #expect(view.objects(TwitterUser.self).count == 1)
        #expect(stored.user?.tweets.map(\.id) == [20])
    }
}
