import Foundation
import TestSupport
import Testing

@testable import ObjDB

func makeUser(_ id: Int64, _ screenName: String) -> TwitterUser {
    let user = TwitterUser()
    user.id = id
    user.screenName = screenName
    user.name = screenName.capitalized
    return user
}

func makeTweet(_ id: Int64, _ text: String, by user: TwitterUser? = nil) -> Tweet {
    let tweet = Tweet()
    tweet.id = id
    tweet.text = text
    tweet.user = user
    return tweet
}

@Suite("Objects: write transactions")
struct WriteTransactionTests {
    let directory = TemporaryDirectory()

    @Test func aThrowingWriteLeavesNothingBehind() throws {
        struct Cancelled: Error {}
        let db = try makeDatabase(directory)
        #expect(throws: Cancelled.self) {
            try db.write { transaction in
                try transaction.add(makeTweet(1, "lost", by: makeUser(9, "ghost")))
                throw Cancelled()
            }
        }
        let view = try db.view()
        #expect(view.objects(Tweet.self).isEmpty)
        #expect(view.objects(TwitterUser.self).isEmpty)
    }

    @Test func assigningOnePropertyKeepsEveryOtherValue() throws {
        let db = try makeDatabase(directory)
        let created = Date(timeIntervalSinceReferenceDate: 12_345.678_9)
        try db.write { transaction in
            let author = try transaction.create(TwitterUser.self, value: ["id": 7, "screenName": "ada"])
            try transaction.create(
                Tweet.self,
                value: ["id": 1, "text": "short", "createdAt": created, "user": author, "retweetCount": 3])
        }
        for text in ["a longer text than the one before it, with ünïcödé", "", "short again"] {
            try db.write { $0.object(ofType: Tweet.self, forPrimaryKey: 1)!.text = text }
            try db.read { view in
                let tweet = try #require(view.object(ofType: Tweet.self, forPrimaryKey: 1))
                #expect(tweet.text == text)
                #expect(tweet.createdAt == created)
                #expect(tweet.retweetCount == 3)
                #expect(tweet.user?.screenName == "ada")
            }
        }
        // The untouched index still finds it.
        let found = try db.read { try $0.objects(Tweet.self).filter("createdAt == %@", created).count }
        #expect(found == 1)
    }

    @Test func assigningTheStoredValueWritesNothing() throws {
        let db = try makeDatabase(directory)
        try db.write { try $0.add(makeTweet(1, "same")) }
        let version = try db.view().version
        try db.write { transaction in
            let tweet = try #require(transaction.object(ofType: Tweet.self, forPrimaryKey: 1))
            tweet.text = "same"
            tweet.retweetCount = 0
        }
        #expect(try db.view().version == version)
        // A value as long as the stored one is still a change.
        try db.write { $0.object(ofType: Tweet.self, forPrimaryKey: 1)!.text = "sane" }
        #expect(try db.view().version > version)
        #expect(try db.view().object(ofType: Tweet.self, forPrimaryKey: 1)?.text == "sane")
    }

    @Test func explicitBeginCommitAndCancel() throws {
        let db = try makeDatabase(directory)
        let cancelled = try db.beginWrite()
        try cancelled.add(makeTweet(1, "cancelled"))
        cancelled.cancel()
        let committed = try db.beginWrite()
        try committed.add(makeTweet(2, "committed"))
        try committed.commit()
        #expect(try db.view().objects(Tweet.self).map(\.id) == [2])
    }

    @Test func addingAnExistingPrimaryKeyIsATypedErrorUnderTheDefaultPolicy() throws {
        let db = try makeDatabase(directory)
        try db.write { try $0.add(makeTweet(1, "first")) }
        #expect(throws: ObjDBError.primaryKeyExists(type: "Tweet", key: "1")) {
            try db.write { try $0.add(makeTweet(1, "second")) }
        }
        #expect(try db.view().object(ofType: Tweet.self, forPrimaryKey: Int64(1))?.text == "first")
    }

    @Test func upsertWithModifiedOrAllReplacesTheValues() throws {
        let db = try makeDatabase(directory)
        try db.write { try $0.add(makeTweet(1, "first")) }
        try db.write { try $0.add(makeTweet(1, "second"), update: .modified) }
        #expect(try db.view().object(ofType: Tweet.self, forPrimaryKey: Int64(1))?.text == "second")
        try db.write { try $0.add(makeTweet(1, "third"), update: .all) }
        let view = try db.view()
        #expect(view.object(ofType: Tweet.self, forPrimaryKey: Int64(1))?.text == "third")
        #expect(view.objects(Tweet.self).count == 1)
    }

    @Test func createFromADictionaryMakesAManagedObject_andUpdatesOnlyGivenProperties() throws {
        let db = try makeDatabase(directory)
        let tweet = try db.write { transaction in
            try transaction.create(
                Tweet.self,
                value: ["id": 7, "text": "hello", "user": ["id": 3, "screenName": "ada", "name": "Ada"]])
        }
        #expect(tweet.view != nil)
        try db.write { try $0.create(Tweet.self, value: ["id": 7, "retweetCount": 5], update: .modified) }
        let view = try db.view()
        let stored = try #require(view.object(ofType: Tweet.self, forPrimaryKey: 7))
        #expect(stored.text == "hello")
        #expect(stored.retweetCount == 5)
        #expect(stored.user?.name == "Ada")
    }

    @Test func createRejectsUnknownPropertiesAndMissingKeys() throws {
        let db = try makeDatabase(directory)
        #expect(throws: ObjDBError.unknownProperty(type: "Tweet", property: "body")) {
            try db.write { try $0.create(Tweet.self, value: ["id": 1, "body": "x"]) }
        }
        #expect(throws: ObjDBError.missingValue(type: "Tweet", property: "id")) {
            try db.write { try $0.create(Tweet.self, value: ["text": "x"]) }
        }
        #expect(
            throws: ObjDBError.typeMismatch(type: "Tweet", property: "text", expected: "string", found: "Int")
        ) {
            try db.write { try $0.create(Tweet.self, value: ["id": 1, "text": 5]) }
        }
    }

    @Test func managedObjectsChangeInsideAWriteAndStayChanged() throws {
        let db = try makeDatabase(directory)
        let view = try db.view()
        try view.write { try $0.add(makeTweet(1, "draft")) }
        let tweet = try #require(view.object(ofType: Tweet.self, forPrimaryKey: 1))
        try view.write { _ in
            tweet.text = "final"
            tweet.retweetCount += 1
        }
        #expect(tweet.text == "final")
        #expect(try db.view().object(ofType: Tweet.self, forPrimaryKey: 1)?.retweetCount == 1)
    }

    @Test func changingAManagedObjectOutsideAWriteStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            let directory = TemporaryDirectory()
            let db = try makeDatabase(directory)
            try db.write { try $0.add(makeTweet(1, "x")) }
            let tweet = try db.view().object(ofType: Tweet.self, forPrimaryKey: 1)
            tweet?.text = "not in a write"
        }
    }

    @Test func changingTheDatabaseThroughAReadViewIsATypedError() throws {
        let db = try makeDatabase(directory)
        try db.write { try $0.add(makeTweet(1, "x")) }
        let tweet = try #require(try db.view().dynamicObject("Tweet", forPrimaryKey: .int(1)))
        #expect(throws: ObjDBError.notInWriteTransaction(operation: "set Tweet.text")) {
            try tweet.setValue("y", forKey: "text")
        }
    }

    @Test func aDeletedObjectIsInvalidated() throws {
        let db = try makeDatabase(directory)
        let view = try db.view()
        try view.write { try $0.add(makeTweet(1, "x")) }
        let tweet = try #require(view.object(ofType: Tweet.self, forPrimaryKey: 1))
        #expect(!tweet.isInvalidated)
        try view.write { try $0.delete(tweet) }
        #expect(tweet.isInvalidated)
        #expect(throws: ObjDBError.objectInvalidated(type: "Tweet")) { try view.write { try $0.delete(tweet) } }
        #expect(view.objects(Tweet.self).isEmpty)
    }

    @Test func readingADeletedObjectStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            let directory = TemporaryDirectory()
            let db = try makeDatabase(directory)
            let view = try db.view()
            try view.write { try $0.add(makeTweet(1, "x")) }
            let tweet = view.object(ofType: Tweet.self, forPrimaryKey: 1)!
            try view.write { try $0.delete(tweet) }
            _ = tweet.text
        }
    }

    @Test func aUniqueIndexRefusesADuplicateAndRollsTheWriteBack() throws {
        let db = try makeDatabase(directory)
        try db.write { try $0.create(Brewery.self, value: ["name": "Cantillon", "website": "cantillon.be"]) }
        #expect(
            throws: ObjDBError.uniqueConstraintViolated(type: "Brewery", property: "website", value: "\"cantillon.be\"")
        ) {
            try db.write { transaction in
                try transaction.create(Brewery.self, value: ["name": "Other"])
                try transaction.create(Brewery.self, value: ["name": "Copycat", "website": "cantillon.be"])
            }
        }
        let view = try db.view()
        #expect(view.objects(Brewery.self).map(\.name) == ["Cantillon"])
        // nil does not collide in a unique index
        try db.write { transaction in
            try transaction.create(Brewery.self, value: ["name": "A"])
            try transaction.create(Brewery.self, value: ["name": "B"])
        }
    }

    @Test func aUniqueViolationByAssignmentFailsTheCommit() throws {
        let db = try makeDatabase(directory)
        let view = try db.view()
        try view.write { transaction in
            try transaction.create(Brewery.self, value: ["name": "A", "website": "a.be"])
            try transaction.create(Brewery.self, value: ["name": "B", "website": "b.be"])
        }
        let b = try #require(view.object(ofType: Brewery.self, forPrimaryKey: "B"))
        #expect(throws: ObjDBError.uniqueConstraintViolated(type: "Brewery", property: "website", value: "\"a.be\"")) {
            try view.write { _ in b.website = "a.be" }
        }
        #expect(b.website == "b.be")
    }

    @Test func changingAPrimaryKeyFailsTheCommit() throws {
        let db = try makeDatabase(directory)
        let view = try db.view()
        try view.write { try $0.add(makeTweet(1, "x")) }
        let tweet = try #require(view.object(ofType: Tweet.self, forPrimaryKey: 1))
        #expect(throws: ObjDBError.primaryKeyChanged(type: "Tweet")) {
            try view.write { _ in tweet.id = 2 }
        }
    }

    @Test func aStringPrimaryKeyTooLongForLMDBIsATypedError() throws {
        let db = try makeDatabase(directory)
        let maximum = db.maxTableKeySize
        #expect(maximum == 511 - 3 - "TwitterUser".utf8.count)
        #expect(throws: ObjDBError.keyTooLarge(size: maximum + 1, maximum: maximum, operation: "primary key of Tag")) {
            try db.write { try $0.create(Tag.self, value: ["name": String(repeating: "x", count: maximum)]) }
        }
        try db.write { try $0.create(Tag.self, value: ["name": String(repeating: "x", count: maximum - 1)]) }
    }

    @Test func deleteAllOfATypeKeepsTheOthers() throws {
        let db = try makeDatabase(directory)
        try db.write { transaction in
            for id in 1...5 { try transaction.add(makeTweet(Int64(id), "t", by: makeUser(Int64(id), "u\(id)"))) }
        }
        try db.write { try $0.deleteAll(Tweet.self) }
        let view = try db.view()
        #expect(view.objects(Tweet.self).isEmpty)
        #expect(view.objects(TwitterUser.self).count == 5)
        #expect(view.objects(TwitterUser.self).allSatisfy { $0.tweets.isEmpty })
        try db.write { try $0.deleteAll() }
        try view.refresh()
        #expect(view.objects(TwitterUser.self).isEmpty)
    }

    @Test func addingAnObjectAddsTheUnmanagedObjectsItLinksTo_cyclesIncluded() throws {
        let db = try makeDatabase(directory)
        let beer = Beer()
        beer.name = "Kriek"
        let style = BeerStyle()
        style.name = "Lambic"
        beer.style = style
        let brewery = Brewery()
        brewery.name = "Cantillon"
        beer.breweries.append(brewery)
        beer.breweries.append(brewery)
        try db.write { try $0.add(beer) }
        let view = try db.view()
        #expect(view.objects(BeerStyle.self).map(\.name) == ["Lambic"])
        #expect(view.objects(Brewery.self).map(\.name) == ["Cantillon"])
        let stored = try #require(view.object(ofType: Beer.self, forPrimaryKey: "Kriek"))
        #expect(stored.breweries.map(\.name) == ["Cantillon", "Cantillon"])
        #expect(stored.style?.beers.map(\.name) == ["Kriek"])
    }

    @Test func objectsOfOneWriteReadTheirOwnChanges() throws {
        let db = try makeDatabase(directory)
        try db.write { transaction in
            try transaction.add(makeTweet(1, "one"))
            #expect(transaction.objects(Tweet.self).count == 1)
            let tweet = try #require(transaction.object(ofType: Tweet.self, forPrimaryKey: 1))
            tweet.text = "uno"
            #expect(transaction.object(ofType: Tweet.self, forPrimaryKey: 1)?.text == "uno")
        }
    }

    @Test func objectsAddedInAWriteStayReadableAfterItCommits() throws {
        let db = try makeDatabase(directory)
        let tweet = makeTweet(1, "kept")
        try db.write { try $0.add(tweet) }
        #expect(tweet.text == "kept")
        #expect(!tweet.isInvalidated)
    }
}
