import AllocationCounter
import Foundation
import TestSupport
import Testing

@testable import ObjDB

final class MeterReading: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var value = 0
    @Persisted var bucket = 0
}

/// Reads hold no memory per object (issue #26): reading every object of a type, and the first
/// of a sort, keep the heap where it was whether the store holds 20,000 objects or 200,000.
/// The test process counts the heap bytes each thread holds (`Tests/AllocationCounter`), so
/// tests running beside these do not count.
@Suite("Reads hold no memory per object", .enabled(if: objdb_allocations_are_counted()))
struct ReadMemoryTests {
    static let small = 20_000
    static let large = 200_000
    /// What ten times the objects may add to the peak: far less than one key per object
    /// (180,000 more objects at even 8 bytes each would be 1.4 MB).
    static let allowedGrowth: Int64 = 1 << 20

    let directory = TemporaryDirectory()

    private func store(_ count: Int) throws -> Database {
        let db = try Database(path: directory.store("\(count).objdb"), types: [MeterReading.self])
        try db.write { transaction in
            for id in 0..<count {
                let reading = MeterReading()
                reading.id = id
                reading.value = (id &* 7_919) % 100_003
                reading.bucket = reading.value % 10
                try transaction.add(reading)
            }
        }
        return db
    }

    /// The most heap `body` held on this thread above what it held before, after a first run
    /// to warm up.
    private func peakHeld(_ body: () throws -> Void) rethrows -> Int64 {
        try body()
        let start = objdb_thread_heap_bytes()
        objdb_thread_heap_peak_reset()
        try body()
        return objdb_thread_heap_peak() - start
    }

    /// Both reads in one test, so the stores are made once.
    @Test func readingEveryObjectAndTheFirstOfASortHoldNoMemoryPerObject() throws {
        var loopPeaks: [Int64] = []
        var sortPeaks: [Int64] = []
        for count in [Self.small, Self.large] {
            let db = try store(count)
            let values = (0..<count).map { ($0 &* 7_919) % 100_003 }
            var sum = 0
            var seen = 0
            loopPeaks.append(
                try peakHeld {
                    sum = 0
                    seen = 0
                    try db.read { view in
                        for reading in view.objects(MeterReading.self) {
                            sum &+= reading.value
                            seen += 1
                        }
                    }
                })
            #expect(seen == count)
            #expect(sum == values.reduce(0, &+))

            var least: Int?
            var greatest: Int?
            sortPeaks.append(
                try peakHeld {
                    try db.read { view in
                        let readings = view.objects(MeterReading.self)
                        least = try readings.sorted(byKeyPath: "value").first?.id
                        greatest = try readings.sorted(byKeyPath: "value", ascending: false).first?.value
                    }
                })
            #expect(least == values.indices.min { values[$0] < values[$1] })
            #expect(greatest == values.max())
        }
        #expect(loopPeaks[1] - loopPeaks[0] < Self.allowedGrowth, "loop peaks \(loopPeaks)")
        #expect(sortPeaks[1] - sortPeaks[0] < Self.allowedGrowth, "sort peaks \(sortPeaks)")
    }

    @Test func theFirstOfASortBreaksTiesByTableKeyAsTheFullSortDoes() throws {
        let db = try store(2_000)
        try db.read { view in
            let readings = view.objects(MeterReading.self).where { $0.value < 3_000 }
            for ascending in [true, false] {
                let byBucket = try readings.sorted(byKeyPath: "bucket", ascending: ascending)
                #expect(byBucket.first?.id == Array(byBucket).first?.id)
                let byBucketThenValue = try readings.sorted(by: [
                    SortKey("bucket", ascending: ascending), SortKey("value", ascending: !ascending),
                ])
                #expect(byBucketThenValue.first?.id == Array(byBucketThenValue).first?.id)
            }
        }
    }

    @Test func theCounterSeesTheBytesAThreadHolds() {
        let start = objdb_thread_heap_bytes()
        objdb_thread_heap_peak_reset()
        let kept = [UInt8](repeating: 1, count: 1 << 20)
        #expect(objdb_thread_heap_peak() - start >= 1 << 20)
        #expect(kept.count == 1 << 20)
    }

    @Test func aStreamingLoopThatWritesMeetsTheObjectsItBeganWithThatStillExist() throws {
        let db = try store(100)
        let view = try db.view()
        var seen: [Int] = []
        for reading in view.objects(MeterReading.self) {
            seen.append(reading.id)
            guard reading.id == 10 else { continue }
            try view.write { transaction in
                let added = MeterReading()
                added.id = 1_000
                try transaction.add(added)
                if let gone = transaction.object(ofType: MeterReading.self, forPrimaryKey: 50) {
                    try transaction.delete(gone)
                }
            }
        }
        #expect(seen == (0..<100).filter { $0 != 50 })
    }
}
