import Foundation
import TestSupport
import Testing

@testable import ObjDB

@Suite("Map growth")
struct MapGrowthTests {
    let directory = TemporaryDirectory()

    func tinyMap(_ size: Int, max: Int = 1 << 30) -> EnvironmentOptions {
        var options = EnvironmentOptions()
        options.initialMapSize = size
        options.maxMapSize = max
        return options
    }

    /// Writes `count` values of `size` bytes under keys `prefix0`, `prefix1`, … in one transaction.
    func writeBlock(
        _ environment: Environment, _ database: DatabaseHandle, prefix: String, count: Int, size: Int
    ) throws {
        let value = String(repeating: "x", count: size)
        try environment.write { transaction in
            for number in 0..<count { try transaction.put(value, forKey: "\(prefix)\(number)", in: database) }
        }
    }

    @Test func manySmallWritesGrowTheMapBeforeItFills() throws {
        let (environment, records) = try makeStore(in: directory, options: tinyMap(256 << 10))
        for block in 0..<100 {
            try writeBlock(environment, records, prefix: "b\(block)-", count: 50, size: 200)
        }
        #expect(environment.mapSize > 256 << 10)
        #expect(try environment.read { try $0.statistics(of: records).entries } == 5_000)
        #expect(Double(try environment.usedBytes()) <= Double(environment.mapSize))
    }

    @Test func aWriteThatOverflowsTheMapIsRolledBackAndTheNextSucceeds() throws {
        let (environment, records) = try makeStore(in: directory, options: tinyMap(1 << 20))
        try writeBlock(environment, records, prefix: "small", count: 10, size: 10)
        let before = environment.mapSize

        do {
            try writeBlock(environment, records, prefix: "big", count: 800, size: 1_000)
            Issue.record("a write larger than the map succeeded")
        } catch let error as ObjDBError where error.code == .mapFull {
            #expect(error.path == directory.store())
            #expect(error.figures[.mapSize] == before)
            #expect(error.figures[.openReaders] == 0)
        }
        #expect(try environment.read { try $0.statistics(of: records).entries } == 10)
        #expect(environment.mapSize >= 2 * before)

        try writeBlock(environment, records, prefix: "big", count: 800, size: 1_000)
        #expect(try environment.read { try $0.statistics(of: records).entries } == 810)
    }

    @Test func theDefaultMapHoldsAMultiGigabyteWriteWithoutTakingDisk() throws {
        let (environment, _) = try makeStore(in: directory)
        #expect(environment.mapSize == EnvironmentOptions.defaultInitialMapSize)
        // Ten million small objects in one write take about 4 GB; the default holds several times that.
        #expect(environment.mapSize >= 16 << 30)
        #expect(Configuration(path: directory.store()).initialMapSize == environment.mapSize)
        // The map reserves address space only: the file holds just the pages written.
        let size = try FileManager.default.attributesOfItem(atPath: directory.store())[.size] as? Int
        #expect((size ?? .max) < 1 << 20)
    }

    @Test func aSingleWriteLargerThanTheGrownMapSaysWhatToSet() throws {
        let (environment, records) = try makeStore(in: directory, options: tinyMap(256 << 10))
        // About 3 MB in one write: larger than the map even after it doubles.
        for _ in 0..<2 {
            do {
                try writeBlock(environment, records, prefix: "big", count: 3_000, size: 1_000)
                Issue.record("a write larger than the map succeeded")
            } catch let error as ObjDBError where error.code == .mapFull {
                #expect(error.message.contains("Configuration.initialMapSize"), "\(error.message)")
                #expect(error.message.contains("Configuration.maxMapSize"), "\(error.message)")
                #expect(error.message.contains("grown to \(2 * error.figures[.mapSize]!) bytes"), "\(error.message)")
            }
        }
        #expect(try environment.read { try $0.statistics(of: records).entries } == 0)

        let (larger, largerRecords) = try makeStore(in: directory, name: "larger.objdb", options: tinyMap(16 << 20))
        try writeBlock(larger, largerRecords, prefix: "big", count: 3_000, size: 1_000)
        #expect(try larger.read { try $0.statistics(of: largerRecords).entries } == 3_000)
    }

    @Test func theMapNeverGrowsPastItsMaximum() throws {
        let (environment, records) = try makeStore(in: directory, options: tinyMap(512 << 10, max: 512 << 10))
        for _ in 0..<2 {
            #expect(
                throws: ObjDBError.mapFull(
                    path: directory.store(), mapSize: 512 << 10, maxMapSize: 512 << 10, openReaders: 0)
            ) {
                try writeBlock(environment, records, prefix: "big", count: 800, size: 1_000)
            }
        }
        #expect(environment.mapSize == 512 << 10)
        try writeBlock(environment, records, prefix: "small", count: 10, size: 10)
        #expect(try environment.read { try $0.statistics(of: records).entries } == 10)
    }

    @Test func growthWaitsForOpenReadersOfThisProcess() throws {
        let (environment, records) = try makeStore(in: directory, options: tinyMap(1 << 20))
        let reader = try environment.beginRead()
        #expect(
            throws: ObjDBError.mapFull(path: directory.store(), mapSize: 1 << 20, maxMapSize: 1 << 30, openReaders: 1)
        ) {
            // 1.1 MB: more than the map holds even with every page full.
            try writeBlock(environment, records, prefix: "big", count: 1_100, size: 1_000)
        }
        #expect(environment.mapSize == 1 << 20)
        reader.abort()
        #expect(environment.mapSize == 2 << 20)
        try writeBlock(environment, records, prefix: "big", count: 1_100, size: 1_000)
    }

    @Test func aStoreReopensWithTheMapItGrewTo() throws {
        do {
            let (environment, records) = try makeStore(in: directory, options: tinyMap(256 << 10))
            for block in 0..<40 {
                try writeBlock(environment, records, prefix: "b\(block)-", count: 50, size: 200)
            }
        }
        let (environment, _) = try StoreFormat.open(path: directory.store(), options: tinyMap(256 << 10))
        #expect(environment.mapSize > 256 << 10)
        let entries = try environment.read { try $0.statistics(of: try $0.openDatabase(named: "records")).entries }
        #expect(entries == 2_000)
    }

    @Test func aMapGrownByAnotherProcessIsAdopted() throws {
        let (environment, records) = try makeStore(in: directory, options: tinyMap(256 << 10))
        try writeBlock(environment, records, prefix: "mine", count: 10, size: 10)
        // The child opens with the default map (64 GiB) and writes far more than 256 KiB.
        let child = try run("objdb-test-child", ["write", directory.store(), "child", "40000"])
        #expect(child.status == 0, "\(child.error)")
        let entries = try environment.read { transaction in
            try transaction.statistics(of: try transaction.openDatabase(named: "child")).entries
        }
        #expect(entries == 40_000)
        #expect(environment.mapSize >= 16 << 20)
        try writeBlock(environment, records, prefix: "after", count: 10, size: 10)
    }
}
