import Foundation
import TestSupport
import Testing

@testable import ObjDB

/// Reads that cannot throw (a `Results`' count, elements and `first`, a frozen result, a property,
/// `isInvalidated`, a view's version, a dynamic subscript) never stop the program on a fault: they
/// report it once to the fault handler and read as empty or zero, and the throwing forms throw it.
/// Each reader runs in a child process, which must exit normally; it prints what it read.
@Suite("Faults on reads that cannot throw")
struct FaultReadTests {
    @Test func aResultsMadeBeforeAWriteReadsAsEmptyWhileTheReaderTableIsFull() async throws {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            let store = FaultStore(maxReaders: 3)
            let view = try store.database.view()
            let all = view.objects(Tweet.self)
            let some = try all.filter("id > 2")
            guard let tweet = all.first, let dynamic = try view.dynamicObjects("Tweet").first else { exit(2) }
            report("before", all.count, some.count, tweet.text)
            // The write lets go of the view's read transaction; other views then take every slot.
            try view.write { _ in }
            var others = try (0..<3).map { _ in try store.database.view() }
            for other in others { _ = other.version }
            report("count", all.count, some.count, all.isEmpty, all.first == nil, Array(some).count)
            report("element", all[0].text.isEmpty, all[0].retweetCount)
            report("object", tweet.text.isEmpty, tweet.isInvalidated, view.version, dynamic["text"] == .null)
            report("throws", readersFull { try all.fetchCount() }, readersFull { try some.fetchFirst() })
            report("throws", readersFull { try all.fetchCursor() }, readersFull { try all.freeze() })
            report("reported", store.faults().allSatisfy { $0.resultCode == .readersFull }, !store.faults().isEmpty)
            // Once a reader ends, the same objects read the store again: nothing empty was kept.
            others.removeAll()
            report("after", all.count, some.count, tweet.text, try all.fetchCount())
        }
        #expect(
            lines(result) == [
                "before 5 3 tweet 1", "count 0 0 true true 0", "element true 0", "object true false 0 true",
                "throws true true", "throws true true", "reported true true", "after 5 3 tweet 1 5",
            ])
    }

    @Test func aLoopThatWritesReadsAsZeroValuesWhileTheReaderTableIsFull() async throws {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            let store = FaultStore(maxReaders: 3)
            let view = try store.database.view()
            var texts: [String] = []
            var others: [ReadView] = []
            for tweet in view.objects(Tweet.self) {
                if texts.isEmpty {
                    try view.write { _ in }
                    others = try (0..<3).map { _ in try store.database.view() }
                    for other in others { _ = other.version }
                }
                texts.append(tweet.text)
            }
            report("walked", texts.count, texts.allSatisfy(\.isEmpty))
            report("reported", store.faults().allSatisfy { $0.resultCode == .readersFull }, !store.faults().isEmpty)
        }
        #expect(lines(result) == ["walked 5 true", "reported true true"])
    }

    @Test func aDamagedKeyIsReportedAndItsObjectReadsThroughItsRecord() async throws {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            let store = FaultStore()
            // A copy of tweet 3 under a key that does not decode (an integer key with a byte too many).
            try store.database.environment.write { transaction in
                let table = try transaction.openDatabase(named: DatabaseNames.table("Tweet"))
                let key = ObjectKeyCodec.encode(.int(3))
                let record = try key.withUnsafeBytes { try transaction.get($0, in: table).map(Array.init) }
                try (key + [0]).withUnsafeBytes { damaged in
                    try (record ?? []).withUnsafeBytes { _ = try transaction.put($0, forKey: damaged, in: table) }
                }
            }
            let all = try store.database.view().objects(Tweet.self)
            report("count", all.count, try all.fetchCount())
            report("walk", Array(all).count, all.map(\.text).filter { $0 == "tweet 3" }.count)
            report("subscript", (0..<all.count).map { all[$0].text }.filter { $0 == "tweet 3" }.count)
            let frozen = try all.freeze()
            report("frozen", frozen.count, frozen.map(\.text).filter { $0 == "tweet 3" }.count)
            report("throws", corrupt { try all.fetchAll() })
            report("reported", store.faults().allSatisfy { $0.code == .corruptRecord && $0.typeName == "Tweet" })
        }
        #expect(
            lines(result) == [
                "count 6 6", "walk 6 2", "subscript 2", "frozen 6 2", "throws true", "reported true",
            ])
    }

    @Test func aDamagedRecordCountsAsEmptyAndTheThrowingFormsThrowIt() async throws {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            let store = FaultStore()
            try store.database.environment.write { transaction in
                let table = try transaction.openDatabase(named: DatabaseNames.table("Tweet"))
                try ObjectKeyCodec.encode(.int(4)).withUnsafeBytes { key in
                    try [UInt8](repeating: 0xFF, count: 5).withUnsafeBytes {
                        _ = try transaction.put($0, forKey: key, in: table)
                    }
                }
            }
            let some = try store.database.view().objects(Tweet.self).filter("retweetCount >= 0 AND text != ''")
            // The count came first: the throwing forms still know what it read past.
            report("count", some.count, corrupt { try some.fetchCount() }, corrupt { try some.fetchAll() })
            let all = try store.database.view().objects(Tweet.self)
            var cursor = try all.fetchCursor()
            var read = 0
            let threw = corrupt {
                while try cursor.next() != nil { read += 1 }
            }
            report("cursor", read, threw, Array(all).map(\.text).filter(\.isEmpty).count)
            report("reported", store.faults().allSatisfy { $0.code == .corruptRecord }, !store.faults().isEmpty)
        }
        #expect(lines(result) == ["count 4 true true", "cursor 3 true 1", "reported true true"])
    }

    @Test func aDynamicSubscriptOfAnUnknownPropertyStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            let store = FaultStore()
            _ = try store.database.view().dynamicObjects("Tweet").first?["txet"]
        }
    }

    @Test func aDynamicSubscriptOfADeletedObjectStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            let store = FaultStore()
            let view = try store.database.view()
            guard let tweet = try view.dynamicObjects("Tweet").first else { exit(0) }
            try view.write { try $0.delete(tweet) }
            _ = tweet["text"]
        }
    }
}

/// A store of five tweets whose fault handler keeps what it hears.
private final class FaultStore {
    let directory = TemporaryDirectory()
    let database: Database
    private let reported = Guarded<[ObjDBError]>([])

    init(maxReaders: UInt32 = 126) {
        var configuration = Configuration(path: directory.store(), types: seedTypes)
        configuration.maxReaders = maxReaders
        configuration.faultHandler = { [reported] error in reported.withLock { $0.append(error) } }
        do {
            database = try Database(configuration: configuration)
            try database.write { transaction in
                for id in 1...5 { try transaction.add(makeTweet(Int64(id), "tweet \(id)")) }
            }
        } catch {
            FileHandle.standardError.write(Data("cannot make the store: \(error)\n".utf8))
            exit(3)
        }
    }

    func faults() -> [ObjDBError] { reported.withLock { $0 } }
}

/// Prints one line of what the child read, for the parent to compare.
private func report(_ values: Any...) {
    FileHandle.standardOutput.write(Data((values.map { "\($0)" }.joined(separator: " ") + "\n").utf8))
}

/// Whether `body` throws the reader table's being full.
private func readersFull<Answer>(_ body: () throws -> Answer) -> Bool {
    do {
        _ = try body()
        return false
    } catch {
        return (error as? ObjDBError)?.resultCode == .readersFull
    }
}

/// Whether `body` throws a damaged record.
private func corrupt<Answer>(_ body: () throws -> Answer) -> Bool {
    do {
        _ = try body()
        return false
    } catch {
        return (error as? ObjDBError)?.code == .corruptRecord
    }
}

/// The lines a child printed.
private func lines(_ result: ExitTest.Result?) -> [String] {
    String(decoding: result?.standardOutputContent ?? [], as: UTF8.self).split(separator: "\n").map(String.init)
}
