import Foundation
import ObjDBInspection
import TestSupport
import Testing

@testable import ObjDB

@Suite("Objects: deleting clears links, lists, sets, maps and backlinks")
struct DeletionTests {
    let directory = TemporaryDirectory()

    @Test func deletingAnObjectChangedThroughAnotherInstanceRemovesItsCurrentIndexEntries() throws {
        let db = try makeDatabase(directory)
        try db.write { try $0.add(makeUser(5, "ada")) }
        let readFirst = try db.view().object(ofType: TwitterUser.self, forPrimaryKey: Int64(5))
        try db.write { transaction in
            let deleting = try #require(transaction.object(ofType: TwitterUser.self, forPrimaryKey: Int64(5)))
            let renaming = try #require(transaction.object(ofType: TwitterUser.self, forPrimaryKey: Int64(5)))
            renaming.screenName = "grace"
            // `deleting` read its record before the rename: the delete must see the new name.
            try transaction.delete(deleting)
            // An object of another view is looked up in this write, not read from its own.
            #expect(throws: ObjDBError.objectInvalidated(type: "TwitterUser")) {
                try transaction.delete(try #require(readFirst))
            }
        }
        let view = try db.view()
        #expect(try view.objects(TwitterUser.self).filter("screenName == 'grace'").count == 0)
        #expect(try view.objects(TwitterUser.self).filter("screenName == 'ada'").count == 0)
        #expect(try StoreCheck(database: db).problems() == [])
    }

    @Test func deletingALinkedObjectNullifiesTheLink() throws {
        let db = try makeDatabase(directory)
        try db.write { try $0.add(makeTweet(1, "x", by: makeUser(5, "ada"))) }
        try db.write { transaction in
            try transaction.delete(try #require(transaction.object(ofType: TwitterUser.self, forPrimaryKey: Int64(5))))
        }
        let tweet = try #require(try db.view().object(ofType: Tweet.self, forPrimaryKey: 1))
        #expect(tweet.user == nil)
    }

    @Test func deletingAnObjectRemovesItFromListsAndSets() throws {
        let db = try makeDatabase(directory)
        try db.write { transaction in
            let photo = try transaction.create(Photo.self, value: ["id": "p1", "title": "Dune"])
            let sand = try transaction.create(Tag.self, value: ["name": "sand"])
            let sky = try transaction.create(Tag.self, value: ["name": "sky"])
            photo.tags.insert(sand)
            photo.tags.insert(sky)
            let tweet = try transaction.create(Tweet.self, value: ["id": 1])
            let ada = try transaction.create(TwitterUser.self, value: ["id": 2])
            tweet.retweetedBy.append(ada)
            tweet.retweetedBy.append(ada)
        }
        try db.write { transaction in
            try transaction.delete(try #require(transaction.object(ofType: Tag.self, forPrimaryKey: "sand")))
            try transaction.delete(try #require(transaction.object(ofType: TwitterUser.self, forPrimaryKey: Int64(2))))
        }
        let view = try db.view()
        #expect(view.object(ofType: Photo.self, forPrimaryKey: "p1")?.tags.map(\.name) == ["sky"])
        #expect(view.object(ofType: Tweet.self, forPrimaryKey: 1)?.retweetedBy.isEmpty == true)
    }

    @Test func deletingAnObjectRemovesItsBacklinks() throws {
        let db = try makeDatabase(directory)
        try db.write { transaction in
            try transaction.add(makeTweet(1, "a", by: makeUser(5, "ada")))
            try transaction.add(
                makeTweet(2, "b", by: transaction.object(ofType: TwitterUser.self, forPrimaryKey: Int64(5))))
        }
        let view = try db.view()
        let ada = try #require(view.object(ofType: TwitterUser.self, forPrimaryKey: Int64(5)))
        #expect(ada.tweets.map(\.id) == [1, 2])
        try view.write { transaction in
            try transaction.delete(try #require(transaction.object(ofType: Tweet.self, forPrimaryKey: 1)))
        }
        #expect(ada.tweets.map(\.id) == [2])
    }

    @Test func reassigningALinkMovesTheBacklink() throws {
        let db = try makeDatabase(directory)
        let view = try db.view()
        try view.write { transaction in
            try transaction.add(makeTweet(1, "a", by: makeUser(5, "ada")))
            try transaction.add(makeUser(6, "bob"))
        }
        let tweet = try #require(view.object(ofType: Tweet.self, forPrimaryKey: 1))
        try view.write { transaction in
            tweet.user = transaction.object(ofType: TwitterUser.self, forPrimaryKey: Int64(6))
        }
        #expect(view.object(ofType: TwitterUser.self, forPrimaryKey: Int64(5))?.tweets.isEmpty == true)
        #expect(view.object(ofType: TwitterUser.self, forPrimaryKey: Int64(6))?.tweets.map(\.id) == [1])
    }

    @Test func deletingAnOwnerDeletesItsEmbeddedObjects() throws {
        let db = try makeDatabase(directory)
        try db.write { transaction in
            try transaction.create(
                Brewery.self, value: ["name": "Cantillon", "address": ["street": "Rue Gheude 56", "city": "Brussels"]])
        }
        let view = try db.view()
        let address = try #require(view.object(ofType: Brewery.self, forPrimaryKey: "Cantillon")?.address)
        #expect(address.city == "Brussels")
        try view.write { transaction in
            try transaction.delete(try #require(transaction.object(ofType: Brewery.self, forPrimaryKey: "Cantillon")))
        }
        #expect(address.isInvalidated)
    }

    @Test func changingAnEmbeddedObjectRewritesItInItsOwner() throws {
        let db = try makeDatabase(directory)
        let view = try db.view()
        try view.write { transaction in
            try transaction.create(Brewery.self, value: ["name": "Cantillon", "address": ["city": "Brussel"]])
        }
        let brewery = try #require(view.object(ofType: Brewery.self, forPrimaryKey: "Cantillon"))
        try view.write { _ in brewery.address?.city = "Brussels" }
        #expect(try db.view().object(ofType: Brewery.self, forPrimaryKey: "Cantillon")?.address?.city == "Brussels")
    }

    @Test func anObjectLinkingToItselfCanBeDeleted() throws {
        let db = try makeDatabase(directory)
        try db.write { transaction in
            let tweet = try transaction.create(Tweet.self, value: ["id": 1])
            let user = try transaction.create(TwitterUser.self, value: ["id": 1])
            tweet.user = user
            tweet.retweetedBy.append(user)
        }
        try db.write { transaction in
            try transaction.delete(try #require(transaction.object(ofType: TwitterUser.self, forPrimaryKey: Int64(1))))
        }
        let tweet = try #require(try db.view().object(ofType: Tweet.self, forPrimaryKey: 1))
        #expect(tweet.user == nil)
        #expect(tweet.retweetedBy.isEmpty)
    }

    @Test func deletingTheTargetOfAMapValueRemovesTheEntry() throws {
        let db = try Database(path: directory.store(), types: [Playlist.self, Track.self])
        try db.write { transaction in
            let playlist = try transaction.create(Playlist.self, value: ["name": "mix"])
            playlist.byMood["calm"] = try transaction.create(Track.self, value: ["title": "Gymnopédie"])
            playlist.byMood["loud"] = try transaction.create(Track.self, value: ["title": "Thunderstruck"])
        }
        try db.write { transaction in
            try transaction.delete(try #require(transaction.object(ofType: Track.self, forPrimaryKey: "Thunderstruck")))
        }
        let playlist = try #require(try db.view().object(ofType: Playlist.self, forPrimaryKey: "mix"))
        #expect(playlist.byMood.keys == ["calm"])
        #expect(playlist.byMood["calm"]??.title == "Gymnopédie")
    }
}

final class Playlist: Object {
    @Persisted(primaryKey: true) var name = ""
    @Persisted var byMood: Map<String, Track?>
}

final class Track: Object {
    @Persisted(primaryKey: true) var title = ""
}
