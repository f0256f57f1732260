import TestSupport
import Testing

@testable import ObjDB

/// Inserts into a table that was empty are held back and put in key order (``BulkLoad``): the
/// transaction must read and write as if each had been put at once.
@Suite("Bulk loads into an empty table")
struct BulkLoadTests {
    let directory = TemporaryDirectory()

    @Test func insertsInRandomOrderAreStoredInKeyOrderWithEveryValue() throws {
        let (environment, records) = try makeStore(in: directory)
        var generator = SeededGenerator(seed: 11)
        let keys = Self.randomKeys(count: 3_000, using: &generator)
        try environment.write { transaction in
            for key in keys {
                let inserted = try transaction.put(Self.value(of: key), forKey: key, in: records, options: .noOverwrite)
                #expect(inserted)
            }
        }
        let stored = try environment.read { try $0.entries(in: records) }
        #expect(stored == keys.sorted(by: Self.lmdbPrecedes).map { "\($0)=\(Self.value(of: $0))" })
    }

    @Test func aBulkLoadFillsItsLeavesWhereRandomOrderHalvesThem() throws {
        let (environment, loaded) = try makeStore(in: directory)
        let unordered = try environment.write { try $0.openDatabase(named: "unordered", options: .create) }
        var generator = SeededGenerator(seed: 12)
        let keys = Self.randomKeys(count: 5_000, using: &generator)
        try environment.write { transaction in
            for key in keys { try transaction.put(Self.value(of: key), forKey: key, in: loaded, options: .noOverwrite) }
        }
        // A table that is not empty is never held: LMDB places each insert where it falls.
        try environment.write { try $0.put("", forKey: "0", in: unordered) }
        try environment.write { transaction in
            for key in keys {
                try transaction.put(Self.value(of: key), forKey: key, in: unordered, options: .noOverwrite)
            }
        }
        let (full, split) = try environment.read { (try $0.statistics(of: loaded), try $0.statistics(of: unordered)) }
        #expect(full.entries + 1 == split.entries)
        #expect(Double(full.leafPages) < 0.8 * Double(split.leafPages), "\(full.leafPages) vs \(split.leafPages)")
    }

    @Test func aHeldInsertIsReadBackInItsOwnTransaction() throws {
        let (environment, records) = try makeStore(in: directory)
        try environment.write { transaction in
            try transaction.put("Ada", forKey: "user:2", in: records, options: .noOverwrite)
            try transaction.put("Bob", forKey: "user:1", in: records, options: .noOverwrite)
            #expect(try transaction.string(forKey: "user:2", in: records) == "Ada")
            #expect(try transaction.string(forKey: "user:3", in: records) == nil)
        }
        #expect(try environment.read { try $0.string(forKey: "user:2", in: records) } == "Ada")
    }

    @Test func aKeyInsertedTwiceInOneLoadKeepsItsFirstValue() throws {
        let (environment, records) = try makeStore(in: directory)
        let (first, second) = try environment.write { transaction in
            (
                try transaction.put("first", forKey: "k", in: records, options: .noOverwrite),
                try transaction.put("second", forKey: "k", in: records, options: .noOverwrite)
            )
        }
        #expect(first && !second)
        #expect(try environment.read { try $0.entries(in: records) } == ["k=first"])
    }

    @Test func aRefusedDuplicateLeavesTheHeldValuesAndTheNextInsertIntact() throws {
        let (environment, records) = try makeStore(in: directory)
        let refused = try environment.write { transaction in
            _ = try transaction.put("first value", forKey: "a", in: records, options: .noOverwrite)
            // Filled before the key is looked up (see BulkLoad.insert), then given back.
            let refused = try transaction.put("a longer refused value", forKey: "a", in: records, options: .noOverwrite)
            _ = try transaction.put("next", forKey: "b", in: records, options: .noOverwrite)
            #expect(try transaction.string(forKey: "a", in: records) == "first value")
            return refused
        }
        #expect(!refused)
        #expect(try environment.read { try $0.entries(in: records) } == ["a=first value", "b=next"])
    }

    @Test func aCursorOpenedDuringALoadSeesEveryInsertAndTheLaterOnes() throws {
        let (environment, records) = try makeStore(in: directory)
        try environment.write { transaction in
            for number in [5, 3, 9, 1] {
                try transaction.put("v", forKey: "k\(number)", in: records, options: .noOverwrite)
            }
            #expect(try transaction.entries(in: records) == ["k1=v", "k3=v", "k5=v", "k9=v"])
            try transaction.put("v", forKey: "k4", in: records, options: .noOverwrite)
            #expect(try transaction.put("again", forKey: "k3", in: records, options: .noOverwrite) == false)
            #expect(try transaction.entries(in: records) == ["k1=v", "k3=v", "k4=v", "k5=v", "k9=v"])
        }
    }

    @Test func countingDuringALoadCountsTheHeldInserts() throws {
        let (environment, records) = try makeStore(in: directory)
        try environment.write { transaction in
            for number in 0..<25 { try transaction.put("v", forKey: "k\(number)", in: records, options: .noOverwrite) }
            #expect(try transaction.statistics(of: records).entries == 25)
        }
    }

    @Test func replacingAndDeletingHeldKeysActOnThem() throws {
        let (environment, records) = try makeStore(in: directory)
        try environment.write { transaction in
            for key in ["c", "a", "b"] { try transaction.put("held", forKey: key, in: records, options: .noOverwrite) }
            try transaction.put("replaced", forKey: "b", in: records)
            #expect(try transaction.delete("c", in: records))
        }
        #expect(try environment.read { try $0.entries(in: records) } == ["a=held", "b=replaced"])
    }

    @Test func aReplacingPutIntoAnEmptyTableIsHeldAndReplacesTheHeldValue() throws {
        let (environment, records) = try makeStore(in: directory)
        try environment.write { transaction in
            try transaction.put("first", forKey: "b", in: records)
            try transaction.put("other", forKey: "a", in: records)
            try transaction.put("second", forKey: "b", in: records)
            #expect(try transaction.string(forKey: "b", in: records) == "second")
        }
        #expect(try environment.read { try $0.entries(in: records) } == ["a=other", "b=second"])
    }

    @Test func anIntegerKeyedTableKeepsItsOwnOrder() throws {
        let (environment, numbers) = try makeStore(in: directory, databaseOptions: .integerKey)
        // Native integers: 256 sorts after 1 numerically, before it bytewise (little-endian).
        try environment.write { transaction in
            for number in [UInt64(256), 1, 65_536, 2] {
                try withUnsafeBytes(of: number) { key in
                    try Array("v".utf8).withUnsafeBytes {
                        _ = try transaction.put($0, forKey: key, in: numbers, options: .noOverwrite)
                    }
                }
            }
        }
        let keys = try environment.read { transaction in
            var keys: [UInt64] = []
            try transaction.cursor(numbers).forEach(from: nil, to: nil, reverse: false) { entry in
                keys.append(entry.key.loadUnaligned(as: UInt64.self))
                return true
            }
            return keys
        }
        #expect(keys == [1, 2, 256, 65_536])
    }

    @Test func anAbortedLoadLeavesTheTableEmpty() throws {
        let (environment, records) = try makeStore(in: directory)
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try environment.write { transaction in
                for number in 0..<100 {
                    try transaction.put("v", forKey: "k\(number)", in: records, options: .noOverwrite)
                }
                throw Stop()
            }
        }
        #expect(try environment.read { try $0.statistics(of: records).entries } == 0)
    }

    @Test func aNestedTransactionSeesItsParentsHeldInserts() throws {
        let (environment, records) = try makeStore(in: directory)
        try environment.write { transaction in
            try transaction.put("parent", forKey: "b", in: records, options: .noOverwrite)
            try transaction.nested { child in
                #expect(try child.string(forKey: "b", in: records) == "parent")
                try child.put("child", forKey: "a", in: records, options: .noOverwrite)
            }
        }
        #expect(try environment.read { try $0.entries(in: records) } == ["a=child", "b=parent"])
    }

    @Test func aFillThatThrowsHoldsNothing() throws {
        let (environment, records) = try makeStore(in: directory)
        struct Refused: Error {}
        try environment.write { transaction in
            try Array("k".utf8).withUnsafeBytes { (key: UnsafeRawBufferPointer) throws -> Void in
                #expect(throws: Refused.self) {
                    try transaction.put(reserving: 4, forKey: key, in: records, options: .noOverwrite) { _ in
                        throw Refused()
                    }
                }
                #expect(try transaction.get(key, in: records) == nil)
            }
            #expect(try transaction.put("later", forKey: "k", in: records, options: .noOverwrite))
        }
        #expect(try environment.read { try $0.entries(in: records) } == ["k=later"])
    }

    @Test func aLoadLargerThanTheMapFailsTheWriteAndLeavesTheStoreAsItWas() throws {
        let (environment, records) = try makeStore(in: directory, options: Self.fixedMap(512 << 10))
        let value = String(repeating: "x", count: 1_000)
        #expect(
            throws: ObjDBError.mapFull(
                path: directory.store(), mapSize: 512 << 10, maxMapSize: 512 << 10, openReaders: 0)
        ) {
            try environment.write { transaction in
                for number in 0..<800 {
                    try transaction.put(value, forKey: "k\(number)", in: records, options: .noOverwrite)
                }
            }
        }
        #expect(try environment.read { try $0.statistics(of: records).entries } == 0)
        try environment.write { try $0.put("small", forKey: "k", in: records, options: .noOverwrite) }
        #expect(try environment.read { try $0.entries(in: records) } == ["k=small"])
    }

    @Test func aTableThatHoldsEntriesIsWrittenAtOnce() throws {
        let (environment, records) = try makeStore(in: directory)
        try environment.write { try $0.put("old", forKey: "m", in: records) }
        try environment.write { transaction in
            try transaction.put("new", forKey: "a", in: records, options: .noOverwrite)
            #expect(try transaction.put("again", forKey: "m", in: records, options: .noOverwrite) == false)
        }
        #expect(try environment.read { try $0.entries(in: records) } == ["a=new", "m=old"])
    }

    @Test func aLoadThatReachesItsBoundIsPutAndLaterInsertsGoStraightIn() throws {
        var options = EnvironmentOptions()
        options.maxBulkLoadBytes = 4_096
        let (environment, records) = try makeStore(in: directory, options: options)
        var generator = SeededGenerator(seed: 13)
        let keys = Self.randomKeys(count: 300, using: &generator)
        let refused = try environment.write { transaction in
            for key in keys {
                try transaction.put(Self.value(of: key), forKey: key, in: records, options: .noOverwrite)
            }
            return try keys.filter { try !transaction.put("again", forKey: $0, in: records, options: .noOverwrite) }
        }
        #expect(refused.count == keys.count)
        let stored = try environment.read { try $0.entries(in: records) }
        #expect(stored == keys.sorted(by: Self.lmdbPrecedes).map { "\($0)=\(Self.value(of: $0))" })
    }

    @Test func aCursorOpenOnTheEmptyTableSeesTheInsertsMadeAfterIt() throws {
        let (environment, records) = try makeStore(in: directory)
        try environment.write { transaction in
            let cursor = try transaction.cursor(records)
            for key in ["b", "a", "c"] { try transaction.put("v", forKey: key, in: records, options: .noOverwrite) }
            let first = try cursor.first().map { String(decoding: $0.key, as: UTF8.self) }
            #expect(first == "a")
        }
    }

    @Test func aLoadThatCannotFitTheMapFailsAnInsertNotALaterRead() throws {
        let (environment, records) = try makeStore(in: directory, options: Self.fixedMap(512 << 10))
        let value = String(repeating: "x", count: 1_000)
        var failedInsert: (any Error)?
        _ = try? environment.write { transaction in
            do {
                for number in 0..<800 {
                    try transaction.put(value, forKey: "k\(number)", in: records, options: .noOverwrite)
                }
            } catch {
                failedInsert = error
            }
            _ = try transaction.statistics(of: records)
        }
        #expect((failedInsert as? ObjDBError)?.code == .mapFull)
        #expect(try environment.read { try $0.statistics(of: records).entries } == 0)
    }

    // MARK: - Helpers

    /// Distinct keys of 1–12 printable bytes, some prefixes of others, in random order.
    static func randomKeys(count: Int, using generator: inout SeededGenerator) -> [String] {
        // Zero bytes, and U+00FF's two UTF-8 bytes (0xC3 0xBF), so byte order differs from the scalars'.
        let alphabet: [UInt8] = [0, 1, 0x61, 0x62, 0xFF]
        var keys = Set<String>()
        while keys.count < count {
            let length = Int.random(in: 1...12, using: &generator)
            let key = String(
                (0..<length).map { _ in Character(Unicode.Scalar(alphabet.randomElement(using: &generator)!)) })
            keys.insert(key)
        }
        return Array(keys).shuffled(using: &generator)
    }

    static func value(of key: String) -> String { "value of \(key)" }

    /// A map of `size` bytes that may not grow.
    static func fixedMap(_ size: Int) -> EnvironmentOptions {
        var options = EnvironmentOptions()
        options.initialMapSize = size
        options.maxMapSize = size
        return options
    }

    /// LMDB's default key order: bytewise, a prefix before the longer key.
    static func lmdbPrecedes(_ left: String, _ right: String) -> Bool {
        Array(left.utf8).lexicographicallyPrecedes(Array(right.utf8))
    }
}
