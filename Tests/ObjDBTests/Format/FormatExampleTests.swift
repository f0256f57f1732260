import Foundation
import TestSupport
import Testing

@testable import ObjDB

/// The worked examples of docs/FORMAT.md, byte for byte: the documentation and the code must agree.
@Suite("docs/FORMAT.md worked examples")
struct FormatExampleTests {
    let directory = TemporaryDirectory()

    func hex(_ text: String) -> [UInt8] {
        text.split(separator: " ").map { UInt8($0, radix: 16)! }
    }

    func raw(_ database: String, key: [UInt8]) throws -> [UInt8]? {
        let environment = try Environment.openForReading(path: directory.store())
        return try environment.read { transaction in
            guard let handle = try transaction.openDatabaseIfPresent(named: database) else { return nil }
            return try key.withUnsafeBytes { try transaction.get($0, in: handle).map(Array.init) }
        }
    }

    @Test func aTwitterUserAndATweetAreStoredAsDocumented() throws {
        let db = try makeDatabase(directory)
        try db.write { transaction in
            let user = makeUser(12, "jack")
            user.name = "Jack"
            let tweet = makeTweet(20, "hi", by: user)
            tweet.createdAt = Date(timeIntervalSinceReferenceDate: 1)
            tweet.retweetedBy.append(user)
            try transaction.add(tweet)
        }
        let userKey = hex("01 80 00 00 00 00 00 00 0C")
        #expect(
            try raw("obj.TwitterUser", key: userKey)
                == hex(
                    "01 00 04 00 00 00 00 00 08 00 00 00 0C 00 00 00 10 00 00 80 0C 00 00 00 00 00 00 00 4A 61 63 6B 6A 61 63 6B"
                ))
        let tweetKey = hex("01 80 00 00 00 00 00 00 14")
        #expect(
            try raw("obj.Tweet", key: tweetKey)
                == hex(
                    "01 00 06 00 00 00 00 00 08 00 00 00 0A 00 00 00 12 00 00 00 1B 00 00 00 2C 00 00 00 "
                        + "14 00 00 00 00 00 00 00 68 69 00 00 00 00 00 00 F0 3F 01 80 00 00 00 00 00 00 0C "
                        + "01 00 00 00 09 00 00 00 01 80 00 00 00 00 00 00 0C 00 00 00 00 00 00 00 00"))
        #expect(try raw("idx.TwitterUser.2", key: hex("01 6A 61 63 6B")) == userKey)
        #expect(try raw("idx.Tweet.2", key: hex("01 BF F0 00 00 00 00 00 00")) == tweetKey)
    }
}
