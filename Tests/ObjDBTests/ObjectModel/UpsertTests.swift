import Foundation
import ObjDB
import TestSupport
import Testing

@Suite("Upserts that report what they did")
struct UpsertTests {
    let directory = TemporaryDirectory()

    private func user(_ id: Int64, name: String = "Ada", screenName: String = "ada") -> TwitterUser {
        let user = TwitterUser()
        user.id = id
        user.name = name
        user.screenName = screenName
        return user
    }

    @Test func anAbsentObjectIsInsertedWhole() throws {
        let db = try makeDatabase(directory)
        let outcome = try db.write { try $0.upsert(user(1), updating: [\.name]) }
        #expect(outcome == .inserted)
        #expect(try db.view().object(ofType: TwitterUser.self, forPrimaryKey: 1)?.screenName == "ada")
    }

    @Test func theSameValuesAgainAreUnchangedAndWriteNothing() throws {
        let db = try makeDatabase(directory)
        try db.write { try $0.upsert(user(1)) }
        let version = try db.view().version
        let outcome = try db.write { try $0.upsert(user(1)) }
        #expect(outcome == .unchanged)
        #expect(try db.view().version == version)
    }

    @Test func onlyTheNamedPropertiesOfAnExistingObjectAreWritten() throws {
        let db = try makeDatabase(directory)
        try db.write { try $0.upsert(user(1, name: "Ada", screenName: "ada")) }
        let outcome = try db.write { try $0.upsert(user(1, name: "Ada L.", screenName: "ignored"), updating: [\.name]) }
        #expect(outcome == .updated)
        let stored = try #require(try db.view().object(ofType: TwitterUser.self, forPrimaryKey: 1))
        #expect(stored.name == "Ada L.")
        #expect(stored.screenName == "ada")
        let unchanged = try db.write { try $0.upsert(user(1, name: "Ada L.", screenName: "other"), updating: [\.name]) }
        #expect(unchanged == .unchanged)
    }

    @Test func withoutKeyPathsEveryPropertyIsWritten() throws {
        let db = try makeDatabase(directory)
        try db.write { try $0.upsert(user(1, screenName: "ada")) }
        #expect(try db.write { try $0.upsert(user(1, screenName: "lovelace")) } == .updated)
        #expect(try db.view().object(ofType: TwitterUser.self, forPrimaryKey: 1)?.screenName == "lovelace")
    }

    @Test func theObjectBecomesManagedAndItsUnmanagedLinksAreAdded() throws {
        let db = try makeDatabase(directory)
        let tweet = Tweet()
        tweet.id = 20
        tweet.user = user(12)
        let outcome = try db.write { transaction -> WriteTransaction.UpsertOutcome in
            let outcome = try transaction.upsert(tweet)
            #expect(tweet.isManaged)
            #expect(tweet.user?.isManaged == true)
            return outcome
        }
        #expect(outcome == .inserted)
        #expect(try db.view().object(ofType: TwitterUser.self, forPrimaryKey: 12)?.tweets.count == 1)
    }

    @Test func indexesFollowAnUpdate() throws {
        let db = try makeDatabase(directory)
        try db.write { try $0.upsert(user(1, screenName: "ada")) }
        try db.write { try $0.upsert(user(1, screenName: "lovelace"), updating: [\.screenName]) }
        let users = try db.view().objects(TwitterUser.self)
        #expect(try users.filter("screenName == 'ada'").isEmpty)
        #expect(try users.filter("screenName == 'lovelace'").count == 1)
    }

    @Test func aUniqueViolationThrowsAndTheWriteRollsBack() throws {
        let db = try makeDatabase(directory)
        let first = Brewery()
        first.name = "A"
        first.website = "https://a.example"
        try db.write { try $0.upsert(first) }
        let second = Brewery()
        second.name = "B"
        second.website = "https://a.example"
        #expect(throws: ObjDBError.self) { try db.write { try $0.upsert(second) } }
        #expect(try db.view().objects(Brewery.self).count == 1)
    }
}
