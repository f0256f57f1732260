import Foundation
import TestSupport
import Testing

@testable import ObjDB

@Suite("Seed apps")
struct SeedAppTests {
    let directory = TemporaryDirectory()

    /// A timeline page as the Twitter cache receives it: statuses with embedded users,
    /// the same user appearing in several statuses.
    struct Status {
        let id: Int64
        let text: String
        let userID: Int64
        let screenName: String
        let retweeters: [Int64]
    }

    /// Imports a page the way the Core Data app did: find-or-create each user by id, inside one write.
    func importPage(_ page: [Status], into db: Database) throws {
        try db.write { transaction in
            for status in page {
                let user =
                    try transaction.object(ofType: TwitterUser.self, forPrimaryKey: status.userID)
                    ?? transaction.create(TwitterUser.self, value: ["id": status.userID])
                user.screenName = status.screenName
                let tweet = Tweet()
                tweet.id = status.id
                tweet.text = status.text
                tweet.createdAt = Date(timeIntervalSince1970: TimeInterval(status.id))
                tweet.user = user
                for retweeter in status.retweeters {
                    tweet.retweetedBy.append(
                        try transaction.object(ofType: TwitterUser.self, forPrimaryKey: retweeter)
                            ?? transaction.create(TwitterUser.self, value: ["id": retweeter]))
                }
                try transaction.add(tweet, update: .modified)
            }
        }
    }

    @Test func twitterCacheImportsAPageFindingOrCreatingUsersById() throws {
        let db = try makeDatabase(directory)
        let page = [
            Status(id: 103, text: "third", userID: 1, screenName: "jack", retweeters: [2]),
            Status(id: 102, text: "second", userID: 2, screenName: "biz", retweeters: []),
            Status(id: 101, text: "first", userID: 1, screenName: "jack", retweeters: [2, 3]),
        ]
        try importPage(page, into: db)
        // the next page overlaps by one status and renames a user
        try importPage(
            [
                Status(id: 104, text: "fourth", userID: 3, screenName: "ev", retweeters: []),
                Status(id: 103, text: "third, edited", userID: 1, screenName: "jack_", retweeters: [2]),
            ], into: db)

        let view = try db.view()
        #expect(view.objects(Tweet.self).map(\.id) == [101, 102, 103, 104])
        #expect(view.objects(TwitterUser.self).map(\.id) == [1, 2, 3])
        let jack = try #require(view.object(ofType: TwitterUser.self, forPrimaryKey: Int64(1)))
        #expect(jack.screenName == "jack_")
        #expect(jack.tweets.map(\.id) == [101, 103])
        #expect(view.object(ofType: Tweet.self, forPrimaryKey: 103)?.text == "third, edited")
        #expect(view.object(ofType: Tweet.self, forPrimaryKey: 101)?.retweetedBy.map(\.id) == [2, 3])
        // paging: since_id is the newest stored id, max_id one below the oldest
        #expect(view.objects(Tweet.self).last?.id == 104)
        #expect(view.objects(Tweet.self).first.map { $0.id - 1 } == 100)
    }

    @Test func flickrPhotosAndTagsAreManyToManyWithTheInverse() throws {
        let db = try makeDatabase(directory)
        try db.write { transaction in
            let tags = try ["sunset", "beach", "city"].map { try transaction.create(Tag.self, value: ["name": $0]) }
            let beach = try transaction.create(Photo.self, value: ["id": "1", "title": "Beach at dusk"])
            beach.tags.insert(contentsOf: [tags[0], tags[1]])
            let skyline = try transaction.create(Photo.self, value: ["id": "2", "title": "skyline"])
            skyline.tags.insert(contentsOf: [tags[0], tags[2], tags[0]])
        }
        let view = try db.view()
        let sunset = try #require(view.object(ofType: Tag.self, forPrimaryKey: "sunset"))
        #expect(
            sunset.photos.map(\.title).sorted { $0.lowercased() < $1.lowercased() } == ["Beach at dusk", "skyline"])
        #expect(view.object(ofType: Tag.self, forPrimaryKey: "city")?.photos.map(\.id) == ["2"])
        #expect(view.object(ofType: Photo.self, forPrimaryKey: "2")?.tags.map(\.name) == ["sunset", "city"])
    }

    @Test func flickrRecentsAreCappedByDeletingTheOldest() throws {
        let db = try makeDatabase(directory)
        let cap = 3
        let start = Date(timeIntervalSince1970: 1_000_000)
        for viewed in 0..<5 {
            try db.write { transaction in
                let photo = try transaction.create(
                    Photo.self, value: ["id": "p\(viewed)", "title": "photo \(viewed)"], update: .modified)
                let recent = Recent()
                recent.lastViewed = start.addingTimeInterval(TimeInterval(viewed))
                recent.photo = photo
                try transaction.add(recent)
                let recents = transaction.objects(Recent.self).sorted { $0.lastViewed < $1.lastViewed }
                try transaction.delete(recents.prefix(max(0, recents.count - cap)))
            }
        }
        let view = try db.view()
        let recents = view.objects(Recent.self).sorted { $0.lastViewed > $1.lastViewed }
        #expect(recents.compactMap { $0.photo?.id } == ["p4", "p3", "p2"])
        #expect(view.objects(Photo.self).count == 5)
    }

    @Test func beerCatalogKeepsBreweriesInOrderAndStylesKnowTheirBeers() throws {
        let db = try makeDatabase(directory)
        try db.write { transaction in
            let lambic = try transaction.create(BeerStyle.self, value: ["name": "Lambic"])
            let stout = try transaction.create(BeerStyle.self, value: ["name": "Stout"])
            try transaction.create(
                Beer.self,
                value: [
                    "name": "Oude Geuze", "style": lambic, "abv": 6.0,
                    "breweries": [["name": "3 Fonteinen"], ["name": "Cantillon", "address": ["city": "Brussels"]]],
                ])
            try transaction.create(
                Beer.self, value: ["name": "Kriek", "style": lambic, "breweries": [["name": "Cantillon"]]])
            try transaction.create(Beer.self, value: ["name": "Guinness", "style": stout])
        }
        let view = try db.view()
        let geuze = try #require(view.object(ofType: Beer.self, forPrimaryKey: "Oude Geuze"))
        #expect(geuze.breweries.map(\.name) == ["3 Fonteinen", "Cantillon"])
        #expect(view.object(ofType: Brewery.self, forPrimaryKey: "Cantillon")?.address?.city == "Brussels")
        let lambic = try #require(view.object(ofType: BeerStyle.self, forPrimaryKey: "Lambic"))
        #expect(lambic.beers.map(\.name) == ["Kriek", "Oude Geuze"])
        #expect(view.object(ofType: BeerStyle.self, forPrimaryKey: "Stout")?.beers.map(\.name) == ["Guinness"])
    }
}
