import Foundation
import ObjDBInspection
import Synchronization
import TestSupport
import Testing

@testable import ObjDB

final class Node: Object {
    @Persisted var name = ""
    @Persisted var children: List<Node>
}

final class Reading: Object {
    @Persisted(indexed: true) var value = 0.0
    @Persisted(unique: true) var serial: Double?
}

enum PeopleV1 {
    final class Person: Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted var first = ""
        @Persisted var last = ""
        @Persisted(unique: true) var badge = 0
    }
}

enum PeopleV2 {
    final class Person: Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted var givenName = ""
        @Persisted var familyName = ""
        @Persisted(indexed: true) var badge = 0
    }
}

/// Scenarios found in review, each once broken.
@Suite("Objects: regressions")
struct RegressionTests {
    let directory = TemporaryDirectory()

    @Test func aTypeWithoutPrimaryKeyLinkingToItsOwnKindStoresParentAndChildren() throws {
        let db = try Database(path: directory.store(), types: [Node.self])
        let root = Node()
        root.name = "root"
        let child = Node()
        child.name = "child"
        root.children.append(child)
        try db.write { try $0.add(root) }
        let nodes = try db.view().objects(Node.self)
        #expect(Set(nodes.map(\.name)) == ["root", "child"])
        #expect(nodes.first { $0.name == "root" }?.children.map(\.name) == ["child"])
        #expect(try StoreCheck(database: db).problems() == [])
    }

    @Test func objectsCreatedInAMigrationKeepTheirInternalIDs() throws {
        do { _ = try Database(path: directory.store(), types: [Recent.self, Photo.self, Tag.self]) }
        var configuration = Configuration(path: directory.store(), types: [Recent.self, Photo.self, Tag.self])
        configuration.schemaVersion = 1
        configuration.migration = { migration, _ in
            for _ in 0..<3 { try migration.create("Recent", value: ["lastViewed": Date()]) }
        }
        let db = try Database(configuration: configuration)
        try db.write { try $0.add(Recent()) }
        #expect(try db.view().objects(Recent.self).count == 4)
    }

    @Test func aMigrationCanMoveTwoPropertiesWithoutLosingEither() throws {
        do {
            let db = try Database(path: directory.store(), types: [PeopleV1.Person.self])
            try db.write {
                try $0.create(PeopleV1.Person.self, value: ["id": 1, "first": "Ada", "last": "Lovelace", "badge": 7])
            }
        }
        var configuration = Configuration(path: directory.store(), types: [PeopleV2.Person.self])
        configuration.schemaVersion = 1
        configuration.migration = { migration, _ in
            try migration.renameProperty(onType: "Person", from: "first", to: "givenName")
            try migration.renameProperty(onType: "Person", from: "last", to: "familyName")
        }
        let db = try Database(configuration: configuration)
        let person = try #require(try db.view().object(ofType: PeopleV2.Person.self, forPrimaryKey: 1))
        #expect(person.givenName == "Ada")
        #expect(person.familyName == "Lovelace")
        // the index changed kind (unique → regular): it still indexes every object, once
        try db.write { try $0.create(PeopleV2.Person.self, value: ["id": 2, "badge": 7]) }
        #expect(try StoreCheck(database: db).problems() == [])
    }

    @Test func oldObjectsInAMigrationAreReadOnly() throws {
        do { _ = try Database(path: directory.store(), types: [PeopleV1.Person.self]) }
        do {
            let db = try Database(path: directory.store(), types: [PeopleV1.Person.self])
            try db.write { try $0.create(PeopleV1.Person.self, value: ["id": 1, "badge": 1]) }
        }
        var configuration = Configuration(path: directory.store(), types: [PeopleV2.Person.self])
        configuration.schemaVersion = 1
        configuration.migration = { migration, _ in
            try migration.enumerateObjects(ofType: "Person") { old, _ in
                try old?.setValue("x", forKey: "first")
            }
        }
        #expect(throws: ObjDBError.self) { try Database(configuration: configuration) }
    }

    @Test func indexedDoublesGivenAsIntegersAreIndexedAsDoubles() throws {
        let db = try Database(path: directory.store(), types: [Reading.self])
        let view = try db.view()
        try view.write { try $0.create(Reading.self, value: ["value": 5, "serial": 1]) }
        let reading = try #require(view.objects(Reading.self).first)
        try view.write { _ in reading.value = 6 }
        #expect(try StoreCheck(database: db).problems() == [])
        #expect(throws: ObjDBError.uniqueConstraintViolated(type: "Reading", property: "serial", value: "1.0")) {
            try db.write { try $0.create(Reading.self, value: ["serial": 1.0]) }
        }
    }

    @Test func linkingToAnObjectDeletedSinceItsViewsSnapshotIsATypedError() throws {
        let db = try makeDatabase(directory)
        try db.write { try $0.add(makeUser(1, "ada")) }
        let stale = try db.view()
        let ada = try #require(stale.object(ofType: TwitterUser.self, forPrimaryKey: Int64(1)))
        try db.write { transaction in
            try transaction.delete(try #require(transaction.object(ofType: TwitterUser.self, forPrimaryKey: Int64(1))))
        }
        #expect(throws: ObjDBError.objectInvalidated(type: "TwitterUser")) {
            try db.write { try $0.add(makeTweet(1, "to a ghost", by: ada)) }
        }
    }

    @Test func cancellingInsideAWriteClosureEndsItQuietly() throws {
        let db = try makeDatabase(directory)
        try db.write { transaction in
            try transaction.add(makeTweet(1, "never"))
            transaction.cancel()
        }
        #expect(try db.view().objects(Tweet.self).isEmpty)
    }

    @Test func aWriteInsideAWriteOnTheSameThreadStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            let db = try makeDatabase(TemporaryDirectory())
            try db.write { _ in try db.write { _ in } }
        }
    }

    @Test func aWriteCanTellItIsInsideAWrite() throws {
        let db = try makeDatabase(directory)
        #expect(!db.isInWriteTransaction)
        try db.write { _ in #expect(db.isInWriteTransaction) }
        #expect(!db.isInWriteTransaction)
        try db.write { try $0.add(makeTweet(1, "after")) }
    }

    @Test func linkingObjectsFollowLaterWrites() throws {
        let db = try makeDatabase(directory)
        let view = try db.view()
        try view.write { try $0.add(makeUser(1, "ada")) }
        let ada = try #require(view.object(ofType: TwitterUser.self, forPrimaryKey: Int64(1)))
        let tweets = ada.tweets
        #expect(tweets.isEmpty)
        try view.write { try $0.add(makeTweet(1, "hi", by: ada)) }
        #expect(tweets.map(\.id) == [1])
    }

    @Test func aFailedAddThatStoredLinkedObjectsFailsTheCommit() throws {
        let db = try makeDatabase(directory)
        try db.write { try $0.create(Brewery.self, value: ["name": "A", "website": "a.be"]) }
        #expect(throws: ObjDBError.uniqueConstraintViolated(type: "Brewery", property: "website", value: "\"a.be\"")) {
            try db.write { transaction in
                let beer = Beer()
                beer.name = "Copy"
                let fine = Brewery()
                fine.name = "C"
                let duplicate = Brewery()
                duplicate.name = "B"
                duplicate.website = "a.be"
                beer.breweries.append(contentsOf: [fine, duplicate])
                do { try transaction.add(beer) } catch {}
            }
        }
        #expect(try db.view().objects(Brewery.self).map(\.name) == ["A"])
    }

    // #12: adding an object changed its hash, corrupting any Set or Dictionary holding it.
    @Test func anObjectStaysInItsSetAndDictionaryWhenAdded() throws {
        let db = try makeDatabase(directory)
        let tweet = makeTweet(1, "x")
        let recent = Recent()
        let tweets: Set<Tweet> = [tweet]
        let recents: [Recent: String] = [recent: "seen"]
        try db.write { transaction in
            try transaction.add(tweet)
            try transaction.add(recent)
        }
        #expect(tweets.contains(tweet))
        #expect(recents[recent] == "seen")
        let stored = try #require(try db.view().object(ofType: Tweet.self, forPrimaryKey: 1))
        #expect(tweets.contains(stored))
        #expect(stored.hashValue == tweet.hashValue)
    }

    // #12: a damaged record read through a typed property reads zero values and is reported
    // once to the fault handler, instead of stopping the program or passing unnoticed.
    @Test func aDamagedRecordReadsAsZeroValuesAndIsReportedOnce() throws {
        let faults = Guarded<[ObjDBError]>([])
        var configuration = Configuration(path: directory.store(), types: seedTypes)
        configuration.faultHandler = { error in faults.withLock { $0.append(error) } }
        let db = try Database(configuration: configuration)
        try db.write { try $0.add(makeTweet(1, "intact")) }
        let key = ObjectKeyCodec.encode(.int(1))
        try db.environment.write { transaction in
            let table = try transaction.openDatabase(named: DatabaseNames.table("Tweet"))
            try key.withUnsafeBytes { key in
                try [UInt8](repeating: 0xFF, count: 5).withUnsafeBytes {
                    _ = try transaction.put($0, forKey: key, in: table)
                }
            }
        }
        let tweet = try #require(try db.view().objects(Tweet.self).first)
        #expect(tweet.text == "")
        #expect(tweet.retweetCount == 0)
        let reported = faults.withLock { $0 }
        #expect(reported.count == 1)
        #expect(reported.first?.code == .corruptRecord)
        #expect(reported.first?.typeName == "Tweet")
    }
}

/// A value shared with a `@Sendable` closure, behind a lock.
final class Guarded<Value: Sendable>: Sendable {
    private let value: Mutex<Value>

    init(_ value: Value) {
        self.value = Mutex(value)
    }

    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        value.withLock { body(&$0) }
    }
}
