import Foundation
import TestSupport
import Testing

@testable import ObjDB

/// The worked examples of docs/FORMAT.md, byte for byte: the documentation and the code must agree.
@Suite("docs/FORMAT.md worked examples")
struct FormatExampleTests {
    let directory = TemporaryDirectory()

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
        let userKey = hex("15")
        #expect(try raw("obj.TwitterUser", key: userKey) == hex("02 04 04 40 01 05 09 09 15 4A 61 63 6B 6A 61 63 6B"))
        let tweetKey = hex("1D")
        #expect(try raw("obj.Tweet", key: tweetKey) == hex("02 00 06 01 03 04 05 08 09 1D 68 69 0A 15 01 02 15 09"))
        #expect(try raw("idx.TwitterUser.2", key: hex("01 6A 61 63 6B")) == userKey)
        #expect(try raw("idx.Tweet.2", key: hex("01 BF F0 00 00 00 00 00 00")) == tweetKey)
        let backlinkKey = hex("0B") + Array("TwitterUser".utf8) + userKey
        #expect(
            try backlinks(under: backlinkKey) == [
                hex("05") + Array("Tweet".utf8) + hex("00 03 1D"), hex("05") + Array("Tweet".utf8) + hex("00 04 1D"),
            ])
    }

    func backlinks(under key: [UInt8]) throws -> [[UInt8]] {
        let environment = try Environment.openForReading(path: directory.store())
        return try environment.read { transaction in
            let handle = try transaction.openDatabase(named: "objdb.backlinks")
            var values: [[UInt8]] = []
            try transaction.cursor(handle).forEach {
                if Array($0.key) == key { values.append(Array($0.value)) }
                return true
            }
            return values
        }
    }

    @Test func theChangeLogExampleIsAsDocumented() {
        var recorder = ChangeRecorder()
        hex("1D").withUnsafeBytes { recorder.recordModification(of: $0, properties: [5], in: "Tweet") }
        hex("16").withUnsafeBytes { recorder.recordInsertion(of: $0, in: "TwitterUser") }
        #expect(
            ChangeLog.encode(recorder)
                == hex("01 05 00") + Array("Tweet".utf8)
                + hex("00 01 00 00 00 08 00 00 00 02 01 00 1D 01 00 05 00 0B 00")
                + Array("TwitterUser".utf8) + hex("00 01 00 00 00 04 00 00 00 01 01 00 16"))
    }

    @Test func theIntegerTableIsAsDocumented() {
        let examples: [(Int64, String)] = [
            (0, "09"), (-1, "08 FF"), (1, "0A"), (-256, "08 00"), (12, "15"), (-257, "07 FE FF"), (182, "BF"),
            (183, "C0 00"), (12_470, "EF FF"), (12_471, "F0 00 00"), (78_006, "F0 FF FF"), (78_007, "F1 01 00 00"),
            (.max, "F6 7F FF FF FF FF FF CF 48"), (.min, "01 80 00 00 00 00 00 00 00"), (1_000_000, "F1 0F 11 89"),
        ]
        for (value, bytes) in examples {
            var encoded: [UInt8] = []
            OrderedVarInt.append(value, to: &encoded)
            #expect(encoded == hex(bytes), "\(value)")
        }
        var unsigned: [UInt8] = []
        OrderedVarInt.appendUnsigned(.max, to: &unsigned)
        #expect(unsigned == hex("F6 FF FF FF FF FF FF CF 48"))
        for (value, bytes) in [(5, "05"), (127, "7F"), (128, "80 01"), (300, "AC 02")] {
            var encoded: [UInt8] = []
            VarUInt.append(value, to: &encoded)
            #expect(encoded == hex(bytes))
        }
    }

    @Test func theKeyExamplesAreAsDocumented() {
        #expect(ObjectKeyCodec.encode(.int(12)) == hex("15"))
        #expect(ObjectKeyCodec.encode(.int(1_000_000)) == hex("F1 0F 11 89"))
        #expect(ObjectKeyCodec.encode(.string("Lambic")) == hex("01 4C 61 6D 62 69 63"))
        #expect(ObjectKeyCodec.encode(.internalID(1)) == hex("0A"))
        for (value, bytes) in [(-1, "01 08 FF"), (0, "01 09"), (1, "01 0A"), (1000, "01 C3 31")] {
            var key: [UInt8] = []
            IndexKeyCodec.encode(integer: Int64(value), into: &key)
            #expect(key == hex(bytes))
        }
    }

    @Test func theFieldExamplesAreAsDocumented() throws {
        func field(_ value: StoredValue, _ property: PropertySchema, types: [ObjectSchema] = []) throws -> [UInt8] {
            var writer = RecordWriter(slotCount: 1)
            try ValueCodec(schema: SchemaIndex(Schema(version: 0, types: types))).encodeField(
                value, of: property, in: "T", into: &writer)
            return Array(writer.data)
        }
        let ints = PropertySchema(name: "ints", type: .int, collection: .list)
        #expect(try field(.list([]), ints) == [])
        #expect(try field(.list([.int(1), .int(2), .int(300)]), ints) == hex("03 0A 0B C0 75"))
        let strings = PropertySchema(name: "s", type: .string, collection: .list, isOptional: true)
        #expect(try field(.list([.string("x"), .null]), strings) == hex("02 02 78 00"))
        let doubles = PropertySchema(name: "d", type: .double, collection: .list)
        #expect(try field(.list([.double(1.5)]), doubles) == hex("01 00 00 00 00 00 00 F8 3F"))
        let scores = PropertySchema(name: "m", type: .double, collection: .map)
        #expect(try field(.map(["a": .double(1.5)]), scores) == hex("01 01 61 09 00 00 00 00 00 00 F8 3F"))
        let date = PropertySchema(name: "date", type: .date)
        #expect(try field(.date(Date(timeIntervalSince1970: 1_300_000_000)), date) == hex("F2 13 2C 73 C9"))
        let address = ObjectSchema(
            name: "Address",
            properties: [
                PropertySchema(id: 0, name: "street", type: .string),
                PropertySchema(id: 1, name: "city", type: .string),
            ],
            isEmbedded: true)
        let embedded = PropertySchema(name: "address", type: .embedded, isOptional: true, objectType: "Address")
        #expect(
            try field(.embedded(["street": .string(""), "city": .string("Brussels")]), embedded, types: [address])
                == hex("02 00 02 00 08") + Array("Brussels".utf8))
    }
}
