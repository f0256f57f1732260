import Foundation
import ObjDBInspection
import TestSupport
import Testing

@testable import ObjDB

/// Records damaged at random (bytes flipped, cut short, lengthened, slot tables rewritten) must never stop
/// the program: typed and dynamic reads, queries and the store check all run, and the check reports them.
/// Each seed runs in a child process, which must exit normally, so a crash fails the test and not the run.
@Suite("Damaged records")
struct DamagedRecordTests {
    @Test(arguments: [21, 22] as [UInt64])
    func randomDamageNeverStopsReadsQueriesOrTheCheck(seed: UInt64) async throws {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) { [seed] in
            let problems = try Self.damageAndReadEverything(seed: seed)
            FileHandle.standardOutput.write(Data("problems \(problems)\n".utf8))
        }
        let output = String(decoding: result?.standardOutputContent ?? [], as: UTF8.self)
        let problems = output.split(separator: " ").last.flatMap {
            Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        #expect((problems ?? 0) > 0, "the check found no damage: \(output)")
    }

    /// Damages 150 records one by one, reading everything and checking the store after each;
    /// returns how many problems the last check reports.
    static func damageAndReadEverything(seed: UInt64) throws -> Int {
        let directory = TemporaryDirectory()
        let db = try makeDatabase(directory)
        try db.write { transaction in
            for id in 1...20 {
                let tweet = makeTweet(Int64(id), "tweet \(id) ✓", by: makeUser(Int64(id % 4), "user\(id % 4)"))
                tweet.retweetCount = id
                try transaction.add(tweet, update: .modified)
                let everything = Everything()
                everything.string = "value \(id)"
                everything.ints.append(contentsOf: [id, -id])
                everything.scores["a"] = Double(id)
                let address = Address()
                address.city = "City \(id)"
                everything.address = address
                everything.addresses.append(address)
                try transaction.add(everything)
            }
        }
        var random = SeededGenerator(seed: seed)
        for _ in 0..<150 {
            let table = Bool.random(using: &random) ? "obj.Tweet" : "obj.Everything"
            try damageOneRecord(in: table, of: db, using: &random)
            try readEverything(db)
            _ = try StoreCheck(database: db).problems()
        }
        return try StoreCheck(database: db).problems().count
    }

    /// Replaces one record of `table` with a damaged copy of itself.
    static func damageOneRecord(in table: String, of db: Database, using random: inout SeededGenerator) throws {
        try db.environment.write { transaction in
            let handle = try transaction.openDatabase(named: table)
            var entries: [([UInt8], [UInt8])] = []
            try transaction.cursor(handle).forEach {
                entries.append((Array($0.key), Array($0.value)))
                return true
            }
            guard let (key, original) = entries.randomElement(using: &random) else { return }
            var record = original
            switch Int.random(in: 0..<5, using: &random) {
            case 0:
                for _ in 0..<Int.random(in: 1...4, using: &random) where !record.isEmpty {
                    record[Int.random(in: 0..<record.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                }
            case 1:
                record = Array(record.prefix(Int.random(in: 0...record.count, using: &random)))
            case 2:
                record += (0..<Int.random(in: 1...40, using: &random)).map { _ in
                    UInt8.random(in: 0...255, using: &random)
                }
            case 3 where record.count >= 4:
                record[2] = UInt8.random(in: 0...255, using: &random)
                record[3] = UInt8.random(in: 0...1, using: &random)
            default:
                record = (0..<Int.random(in: 0...64, using: &random)).map { _ in
                    UInt8.random(in: 0...255, using: &random)
                }
            }
            if record.isEmpty { record = [0] }
            try key.withUnsafeBytes { key in
                try record.withUnsafeBytes { _ = try transaction.put($0, forKey: key, in: handle) }
            }
        }
    }

    /// Reads every property of every object, typed and dynamically, and runs queries over them.
    static func readEverything(_ db: Database) throws {
        try db.read { view in
            for tweet in view.objects(Tweet.self) {
                _ = (tweet.id, tweet.text, tweet.createdAt, tweet.retweetCount, tweet.user?.screenName)
                _ = tweet.retweetedBy.map(\.name)
            }
            for object in view.objects(Everything.self) {
                _ = (object.bool, object.int, object.int8, object.int16, object.int32, object.int64, object.float)
                _ = (object.double, object.string, object.data, object.date, object.uuid, object.decimal, object.mood)
                _ = (
                    object.priority, object.optionalString, object.optionalDate, object.optionalUUID,
                    object.optionalMood
                )
                _ = (Array(object.ints), Array(object.strings), Array(object.optionalStrings), Array(object.doubles))
                _ = (Array(object.dates), Array(object.stringSet), object.scores.dictionary, object.labels.dictionary)
                _ = (object.address?.city, object.addresses.map(\.street))
            }
            // The dynamic API throws a typed error for a damaged record; nothing else may escape.
            for type in ["Tweet", "Everything", "TwitterUser"] {
                for object in try view.dynamicObjects(type) {
                    do {
                        _ = try object.values()
                    } catch let error as ObjDBError where error.code == .corruptRecord {
                        // In the child: a wrong type name fails it with this error.
                        guard error.typeName == type else { throw TestFailure("\(type) reported as \(error)") }
                    }
                }
            }
            _ = try view.objects(Tweet.self).filter("retweetCount > 3 AND text CONTAINS[c] 'TWEET'").count
            _ = try view.objects(Tweet.self).filter("text CONTAINS[c] 'TWEET'").count
            _ = try view.objects(Tweet.self).filter("ANY retweetedBy.screenName BEGINSWITH 'u'").count
            _ = try view.objects(Everything.self).filter("ints.@sum > 0 OR string LIKE 'v*'").count
            _ = Array(try view.objects(Tweet.self).sorted(byKeyPath: "user.screenName").map(\.id))
        }
    }
}
