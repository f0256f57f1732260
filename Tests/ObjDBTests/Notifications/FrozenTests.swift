import Dispatch
import Foundation
import TestSupport
import Testing

@testable import ObjDB

@Suite("Frozen objects hand out only Sendable values")
struct FrozenTests {
    let directory = TemporaryDirectory()

    /// Tweet 1 by user 12 (name "jack"), retweeted by users 13 and 14.
    private func timeline() throws -> Database {
        let database = try makeDatabase(directory)
        try database.write { transaction in
            let jack = try transaction.create(TwitterUser.self, value: ["id": 12, "name": "jack"])
            let retweeters = try [13, 14].map {
                try transaction.create(TwitterUser.self, value: ["id": $0, "name": "u\($0)"])
            }
            try transaction.create(
                Tweet.self,
                value: ["id": 1, "text": "hello", "user": jack, "retweetedBy": retweeters, "retweetCount": 2])
        }
        return database
    }

    @Test func aLinkReadsAsAFrozenObjectOfTheSameVersion() throws {
        let database = try timeline()
        let frozen = try #require(try database.view().object(ofType: Tweet.self, forPrimaryKey: 1)).freeze()
        try database.write { $0.object(ofType: TwitterUser.self, forPrimaryKey: 12)!.name = "renamed" }
        let user: Frozen<TwitterUser>? = frozen.user
        #expect(user?.name == "jack")
        #expect(user?.tweets.map(\.id) == [1])
    }

    @Test func collectionsReadAsSendableCopiesOfFrozenElements() throws {
        let database = try makeDatabase(directory)
        try database.write { transaction in
            try transaction.create(
                Everything.self,
                value: [
                    "key": UUID(), "ints": [3, 1, 2], "stringSet": ["a", "b"], "scores": ["x": 1.5],
                    "labels": ["y": "z"],
                    "address": ["street": "Main", "city": "Ghent"],
                    "addresses": [["street": "One", "city": "A"], ["street": "Two", "city": "B"]],
                ])
            let tag = try transaction.create(Tag.self, value: ["name": "sky"])
            try transaction.create(Photo.self, value: ["id": "p", "title": "Sky", "tags": [tag]])
        }
        let view = try database.view()
        let everything = try #require(view.objects(Everything.self).first).freeze()
        let ints: [Int] = everything.ints
        let strings: Set<String> = everything.stringSet
        let scores: [String: Double] = everything.scores
        let labels: [String: String?] = everything.labels
        let address: Frozen<Address>? = everything.address
        let addresses: [Frozen<Address>] = everything.addresses
        #expect(ints == [3, 1, 2])
        #expect(strings == ["a", "b"])
        #expect(scores == ["x": 1.5])
        #expect(labels == ["y": "z"])
        #expect(address?.city == "Ghent")
        #expect(addresses.map(\.street) == ["One", "Two"])
        let photo = try #require(view.object(ofType: Photo.self, forPrimaryKey: "p")).freeze()
        let tags: [Frozen<Tag>] = photo.tags
        #expect(tags.map(\.name) == ["sky"])
        #expect(tags.first?.photos.map(\.title) == ["Sky"])
        let music = try Database(path: directory.store("music.objdb"), types: [Playlist.self, Track.self])
        try music.write { transaction in
            let track = try transaction.create(Track.self, value: ["title": "Gymnopédie"])
            try transaction.create(Playlist.self, value: ["name": "mix", "byMood": ["calm": track]])
        }
        let playlist = try #require(try music.view().object(ofType: Playlist.self, forPrimaryKey: "mix")).freeze()
        let byMood: [String: Frozen<Track>?] = playlist.byMood
        #expect(byMood["calm"]??.title == "Gymnopédie")
    }

    @Test func manyTasksReadOneFrozenObjectAndItsLinksAtOnce() async throws {
        let database = try timeline()
        let frozen = try #require(try database.view().object(ofType: Tweet.self, forPrimaryKey: 1)).freeze()
        let results = try database.view().objects(Tweet.self).freeze()
        let seen = await withTaskGroup(of: String.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var names = ""
                    for _ in 0..<50 {
                        names = (frozen.user?.name ?? "") + " " + frozen.retweetedBy.map(\.name).joined(separator: ",")
                        _ = results.first?.user?.tweets.count
                    }
                    return names
                }
            }
            return await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(seen == ["jack u13,u14"])
    }

    @Test func readHandsTheObjectToABlockThatReturnsSendableValues() throws {
        let database = try timeline()
        let frozen = try #require(try database.view().object(ofType: Tweet.self, forPrimaryKey: 1)).freeze()
        let summary = frozen.read { tweet in "\(tweet.text) by \(tweet.user?.name ?? "")" }
        #expect(summary == "hello by jack")
    }

    @Test func aFrozenViewThrowsWhatItCannotRead() throws {
        let database = try counterStore(directory)
        try database.write { transaction in
            try transaction.create(Counter.self, value: ["id": 1])
            let raw = try #require(transaction.scope.snapshot.transaction)
            let table = try #require(try database.binding(for: Counter.self).table)
            let garbage: [UInt8] = [0xFF]
            try ObjectKeyCodec.encode(.int(1)).withUnsafeBytes { key in
                try garbage.withUnsafeBytes { _ = try raw.put($0, forKey: key, in: table) }
            }
        }
        let frozen = try database.view().freeze()
        let error = #expect(throws: ObjDBError.self) { try frozen.object(ofType: Counter.self, forPrimaryKey: 1) }
        #expect(error?.code == .corruptRecord)
        #expect(frozen.version == (try database.view().version))
    }

    @Test func wrappingALiveObjectStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            let database = try counterStore(TemporaryDirectory())
            try database.write { try $0.create(Counter.self, value: ["id": 1]) }
            _ = Frozen(try #require(try database.view().object(ofType: Counter.self, forPrimaryKey: 1)))
        }
    }

    @Test func aDeliveryTargetReadOffItsQueueStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            let target = DeliveryTarget<Int, Int>(subject: 1, block: { _ in }, queue: DispatchQueue(label: "view"))
            _ = target.subject
        }
    }

    @Test func aViewDeliveryDrainedOffItsQueueStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            let database = try counterStore(TemporaryDirectory())
            let queue = DispatchQueue(label: "view")
            let view = try queue.sync { try database.view(queue: queue) }
            let delivery = ViewDelivery(queue: queue, snapshot: view.snapshot, notifier: database.notifier)
            delivery.drain()
        }
    }
}
