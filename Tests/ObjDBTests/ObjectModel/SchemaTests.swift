import Foundation
import TestSupport
import Testing

@testable import ObjDB

final class TwoKeys: Object {
    @Persisted(primaryKey: true) var a = 0
    @Persisted(primaryKey: true) var b = 0
}

final class RequiredLink: Object {
    @Persisted var user: TwitterUser = TwitterUser()
}

final class DoubleKey: Object {
    @Persisted(primaryKey: true) var value = 0.0
}

final class IndexedList: Object {
    @Persisted(indexed: true) var values: List<Int>
}

final class OrphanInverse: Object {
    @Persisted(originProperty: "nothing") var tweets: LinkingObjects<Tweet>
}

@Suite("Schema")
struct SchemaTests {
    let directory = TemporaryDirectory()

    @Test func aClassIsDescribedOnceFromItsDeclarations() throws {
        let schema = try DiscoveredType.of(Tweet.self).schema
        #expect(schema.name == "Tweet")
        #expect(schema.properties.map(\.name) == ["id", "text", "createdAt", "user", "retweetedBy", "retweetCount"])
        #expect(schema.primaryKey?.name == "id")
        #expect(schema["createdAt"]?.index == .regular)
        #expect(schema["user"]?.type == .object && schema["user"]?.objectType == "TwitterUser")
        #expect(schema["user"]?.isOptional == true)
        #expect(schema["retweetedBy"]?.collection == .list)
        #expect(try DiscoveredType.of(Tweet.self) === DiscoveredType.of(Tweet.self))
    }

    @Test func theSchemaIsStoredWithStablePropertyIDs() throws {
        let db = try makeDatabase(directory)
        let tweet = try #require(db.schema["Tweet"])
        #expect(tweet.properties.map(\.id) == [0, 1, 2, 3, 4, 5])
        let reopened = try Database(path: directory.store())  // by the stored schema alone
        #expect(reopened.schema == db.schema)
    }

    @Test(arguments: [
        (TwoKeys.self as ObjectBase.Type, "2 primary keys"),
        (RequiredLink.self, "must be optional"),
        (DoubleKey.self, "cannot be a primary key"),
        (IndexedList.self, "cannot have an index"),
    ])
    func invalidDeclarationsAreTypedErrors(type: ObjectBase.Type, reason: String) throws {
        #expect {
            try Database(path: directory.store(), types: [type, TwitterUser.self, Tweet.self])
        } throws: { error in
            guard let error = error as? ObjDBError, error.code == .invalidSchema else { return false }
            let message = error.message
            return message.contains(reason)
        }
    }

    @Test func embeddedClassesNeedNotBeListed() throws {
        let database = try Database(path: directory.store(), types: [Beer.self])
        try database.write { transaction in
            let brewery = try transaction.create(
                Brewery.self, value: ["name": "Anchor", "address": ["street": "Mariposa St"]])
            try transaction.create(Beer.self, value: ["name": "Steam", "breweries": [brewery]])
        }
        let names = Set(database.schema.types.map(\.name))
        #expect(names == ["Beer", "BeerStyle", "Brewery", "Address"])
        let street = try database.read { $0.object(ofType: Brewery.self, forPrimaryKey: "Anchor")?.address?.street }
        #expect(street == "Mariposa St")
    }

    @Test func linkedClassesNeedNotBeListed() throws {
        let database = try Database(path: directory.store(), types: [Tweet.self])
        #expect(database.schema.types.contains { $0.name == "TwitterUser" })
    }

    @Test func anInverseOfAPropertyThatDoesNotExistIsATypedError() throws {
        #expect(throws: ObjDBError.self) {
            try Database(path: directory.store(), types: [OrphanInverse.self, Tweet.self, TwitterUser.self])
        }
    }

    @Test func classesThatDifferFromTheStoredSchemaAreATypedErrorNamingEachDifference() throws {
        _ = try Database(path: directory.store(), types: [TweetV1.self])
        #expect {
            try Database(path: directory.store(), types: [TweetV2.self])
        } throws: { error in
            guard let error = error as? ObjDBError, error.code == .schemaMismatch else { return false }
            let differences = error.details
            return differences == [
                "type TweetV2 is new", "type TweetV1 was removed",
            ]
        }
    }

    @Test func aDifferenceInOneTypeNamesPropertiesAndIndexes() throws {
        let stored = Schema(
            version: 0,
            types: [
                ObjectSchema(
                    name: "T",
                    properties: [
                        PropertySchema(name: "id", type: .int64, isPrimaryKey: true),
                        PropertySchema(name: "body", type: .string),
                        PropertySchema(name: "count", type: .int),
                        PropertySchema(name: "when", type: .date),
                    ])
            ])
        let declared = Schema(
            version: 0,
            types: [
                ObjectSchema(
                    name: "T",
                    properties: [
                        PropertySchema(name: "id", type: .int64, isPrimaryKey: true),
                        PropertySchema(name: "count", type: .string),
                        PropertySchema(name: "when", type: .date, index: .regular),
                        PropertySchema(name: "text", type: .string),
                    ])
            ])
        #expect(
            StoredSchema.differences(stored: stored, declared: declared) == [
                "T.count: declared string, stored int",
                "T.when: index regular declared, none stored",
                "T.text is new",
                "T.body was removed",
            ])
    }
}

final class TweetV1: Object {
    @Persisted(primaryKey: true) var id: Int64
}

final class TweetV2: Object {
    @Persisted(primaryKey: true) var id: Int64
}

protocol Greeting {}
struct Hello: Greeting {}

final class WithExtras: Object {
    var notStored: any Greeting = Hello()
    @Persisted(primaryKey: true) var id = 0
    var cache: [String] = []
    @Persisted var name = ""
}

@Suite("Schema: reading unmanaged objects")
struct UnmanagedLayoutTests {
    let directory = TemporaryDirectory()

    @Test func theSeedModelsAreReadWithoutMirror() throws {
        for type in seedTypes {
            #expect(try DiscoveredType.of(type).layout != nil, "\(type)")
        }
    }

    @Test func classesWithOtherStoredPropertiesStoreTheirPersistedOnes() throws {
        let db = try Database(path: directory.store(), types: [WithExtras.self])
        let object = WithExtras()
        object.id = 3
        object.name = "kept"
        object.cache = ["ignored"]
        try db.write { try $0.add(object) }
        #expect(try db.view().object(ofType: WithExtras.self, forPrimaryKey: 3)?.name == "kept")
    }
}
