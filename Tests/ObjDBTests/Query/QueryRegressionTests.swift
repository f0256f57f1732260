import Foundation
import TestSupport
import Testing

@testable import ObjDB

final class Person: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name: String?
    @Persisted var partner: Person?
}

/// Query scenarios found in review, each once wrong.
@Suite("Queries: regressions")
struct QueryRegressionTests {
    let directory = TemporaryDirectory()

    @Test func keysTooLongToBeStoredFindNothingInsteadOfStopping() throws {
        let db = try makeDatabase(directory)
        try db.write { transaction in
            try transaction.create(Tag.self, value: ["name": "short"])
            try transaction.create(Brewery.self, value: ["name": "A", "website": "a.be"])
        }
        let view = try db.view()
        let long = String(repeating: "x", count: 600)
        #expect(try view.objects(Tag.self).filter("name == %@", long).count == 0)
        #expect(try view.objects(Tag.self).filter("name IN %@", [long, "short"]).map(\.name) == ["short"])
        #expect(try view.objects(Brewery.self).filter("website == %@", long).isEmpty)
        #expect(view.objects(Brewery.self).where { $0.website == long }.isEmpty)
    }

    @Test func aLongPrefixOnARegularIndexStillFindsItsMatches() throws {
        let db = try makeDatabase(directory)
        let prefix = String(repeating: "a", count: 600)
        try db.write { try $0.create(TwitterUser.self, value: ["id": 1, "screenName": prefix + "z"]) }
        let users = try db.view().objects(TwitterUser.self)
        #expect(try users.filter("screenName BEGINSWITH %@", prefix).map(\.id) == [1])
        #expect(try users.filter("screenName BEGINSWITH %@", prefix + "y").isEmpty)
    }

    @Test func quantifiersAndAggregatesNeedACollection() throws {
        let tweets = try makeDatabase(directory).view().objects(Tweet.self)
        #expect(throws: ObjDBError.self) { try tweets.filter("NONE user.screenName == 'x'") }
        #expect(throws: ObjDBError.self) { try tweets.filter("ALL text == 'x'") }
        // `text.@count` is the text's length and `retweetedBy.id.@sum` a sum through links (#17), but a
        // sum of one string, or of strings, is no number.
        #expect(throws: ObjDBError.self) { try tweets.filter("text.@sum == 1") }
        #expect(throws: ObjDBError.self) { try tweets.filter("retweetedBy.name.@sum > 1") }
    }

    @Test func comparisonsThroughANilLinkActAsIfTheValueWereNil() throws {
        let db = try Database(path: directory.store(), types: [Person.self])
        try db.write { transaction in
            try transaction.create(Person.self, value: ["id": 1, "name": "alone"])
            let b = try transaction.create(Person.self, value: ["id": 2, "name": "b"])
            try transaction.create(Person.self, value: ["id": 3, "name": "c", "partner": b])
        }
        let people = try db.view().objects(Person.self)
        #expect(try people.filter("partner.partner.name == nil").map(\.id) == [1, 2, 3])
        #expect(try people.filter("partner.name != 'b'").map(\.id) == [1, 2])
        #expect(try people.filter(#Predicate<Person> { $0.partner?.partner?.name == nil }).map(\.id) == [1, 2, 3])
    }

    @Test func nilInAnInListMatchesNil() throws {
        let db = try Database(path: directory.store(), types: [Person.self])
        try db.write { transaction in
            try transaction.create(Person.self, value: ["id": 1])
            try transaction.create(Person.self, value: ["id": 2, "name": "a"])
            try transaction.create(Person.self, value: ["id": 3, "name": "b"])
        }
        #expect(try db.view().objects(Person.self).filter("name IN {nil, 'a'}").map(\.id) == [1, 2])
    }

    @Test func floatAndDecimalConstantsMeanWhatThePropertyHolds() throws {
        let db = try makeDatabase(directory)
        try db.write { transaction in
            let object = Everything()
            object.float = 0.1
            object.decimal = Decimal(string: "0.1")!
            object.strings.append("sun")
            try transaction.add(object)
        }
        let objects = try db.view().objects(Everything.self)
        #expect(try objects.filter("float == 0.1").count == 1)
        #expect(try objects.filter("float <= 0.1").count == 1)
        #expect(try objects.filter("decimal == 0.1").count == 1)
        #expect(try objects.filter("'SUN' IN[c] strings").count == 1)
        #expect(try objects.filter("'SUN' IN strings").count == 0)
    }

    @Test func predicatesFoldConstantComparisonsAsSwiftDoes() throws {
        let db = try makeDatabase(directory)
        try db.write { transaction in
            for id in 1...3 { try transaction.add(makeTweet(Int64(id), "t")) }
        }
        let tweets = try db.view().objects(Tweet.self)
        let limit = 10
        let ids: [Int64] = [2]
        #expect(try tweets.filter(#Predicate<Tweet> { limit >= 10 || $0.id == 1 }).count == 3)
        #expect(try tweets.filter(#Predicate<Tweet> { limit < 10 || $0.id == 1 }).map(\.id) == [1])
        #expect(try tweets.filter(#Predicate<Tweet> { ids.contains($0.id) }).map(\.id) == [2])
    }

    @Test func aDescendingIndexOrderKeepsTiesInKeyOrderLikeASort() throws {
        let db = try makeDatabase(directory)
        try db.write { transaction in
            for (id, second) in [(1, 5), (2, 9), (3, 5), (4, 9), (5, 1)] {
                let tweet = makeTweet(Int64(id), "t")
                tweet.createdAt = Date(timeIntervalSince1970: TimeInterval(second))
                try transaction.add(tweet)
            }
        }
        let tweets = try db.view().objects(Tweet.self)
        let byIndex = try tweets.sorted(byKeyPath: "createdAt", ascending: false)
        #expect(try byIndex.explain().contains("index order scan on createdAt (descending)"))
        let inMemory = try tweets.sorted(by: [SortKey("createdAt", ascending: false), SortKey("id")])
        #expect(byIndex.map(\.id) == [2, 4, 1, 3, 5])
        #expect(byIndex.map(\.id) == inMemory.map(\.id))
    }
}
