import Foundation
import ObjDBInspection
import ObjDBSync
import TestSupport
import Testing

@testable import ObjDB

/// The JSON importers fuzzed: generated Twitter API pages, damaged at random, imported into a
/// store. Each import either succeeds or throws a `SyncError`, and the store stays consistent.
/// The imports run in a child process, which must exit normally: a crash fails the test, not the run.
@Suite("Fuzzing: JSON importers")
struct ImporterFuzzTests {
    @Test func damagedPayloadsNeverCrashTheImporterOrDamageTheStore() async throws {
        let result = await #expect(
            processExitsWith: .success, observing: [\.standardOutputContent, \.standardErrorContent]
        ) {
            try Self.importDamagedPayloads()
        }
        let output = String(decoding: result?.standardOutputContent ?? [], as: UTF8.self)
        print(output, terminator: "")
        #expect(
            output.contains("fuzzed imports"), "\(String(decoding: result?.standardErrorContent ?? [], as: UTF8.self))")
    }

    /// Imports damaged pages; throws when none imported or when the store check finds a problem.
    static func importDamagedPayloads() throws {
        let directory = TemporaryDirectory()
        var configuration = Configuration(path: directory.store(), types: TwitterImporter.modelTypes)
        configuration.isDurable = false
        let database = try Database(configuration: configuration)
        let importer = TwitterImporter(database: database)
        var generator = TwitterPayloadGenerator(seed: 1_517)
        var seeds: [Data] = (0..<8).map { generator.timeline(count: 10, newestID: Int64(10_000 + $0 * 100)) }
        seeds.append(generator.search(query: "swift", count: 5, newestID: 20_000))
        seeds.append(generator.userShow(index: 1, statusID: 30_000))
        var random = SeededGenerator(seed: 1_517)
        var outcomes: [String: Int] = [:]
        let inputs = FuzzTests.inputs
        for number in 0..<inputs {
            let payload = JSONFuzzer.mutate(seeds.randomElement(using: &random)!, using: &random)
            do {
                _ = try importer.importPage(payload, timeline: number % 3 == 0 ? "home" : nil)
                outcomes["imported", default: 0] += 1
            } catch let error as SyncError {
                outcomes["\(error.code)", default: 0] += 1
            }
            if number % 2_000 == 1_999 {
                let problems = try StoreCheck(database: database).problems()
                guard problems.isEmpty else { throw TestFailure("after \(number + 1) imports: \(problems)") }
            }
        }
        let summary = "fuzzed imports: \(inputs), outcomes \(outcomes.sorted { $0.key < $1.key })"
        FileHandle.standardOutput.write(Data((summary + "\n").utf8))
        guard outcomes["imported", default: 0] > 0 else { throw TestFailure("nothing imported: \(summary)") }
        let problems = try StoreCheck(database: database).problems()
        guard problems.isEmpty else { throw TestFailure("the store check: \(problems)") }
    }
}

/// Random damage to JSON text: characters flipped, cut, structure inserted, values swapped, deep nesting.
enum JSONFuzzer {
    static let fragments = [
        "{", "}", "[", "]", ",", ":", "\"", "\\", "null", "true", "-0", "1e999", "-9223372036854775809",
        "18446744073709551616", "\"\\ud800\"", "\"\\u0000\"", "{\"id\":null}", "[]", "{}", "\"created_at\":\"x\"",
        "\"id_str\":\"nope\"", "\"user\":{}", "\"retweeted_status\":{\"id\":1}", "\u{FEFF}", "\u{0}",
    ]

    /// `data` damaged one to three times, inserting `fragments` among other changes.
    static func mutate(
        _ data: Data, using random: inout SeededGenerator, fragments: [String] = fragments
    ) -> Data {
        var bytes = [UInt8](data)
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            switch Int.random(in: 0..<6, using: &random) {
            case 0 where !bytes.isEmpty:
                bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            case 1:
                bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &random)))
            case 2:
                let fragment = Array(fragments.randomElement(using: &random)!.utf8)
                bytes.insert(contentsOf: fragment, at: Int.random(in: 0...bytes.count, using: &random))
            case 3 where bytes.count > 2:
                let start = Int.random(in: 0..<(bytes.count - 1), using: &random)
                let end = min(bytes.count, start + Int.random(in: 1...64, using: &random))
                bytes.removeSubrange(start..<end)
            case 4:
                let depth = Int.random(in: 100...20_000, using: &random)
                let open = Array(repeating: UInt8(ascii: Bool.random(using: &random) ? "[" : "{"), count: depth)
                bytes.insert(contentsOf: open, at: Int.random(in: 0...bytes.count, using: &random))
            default:
                if let range = findDigits(in: bytes, using: &random) {
                    bytes.replaceSubrange(range, with: Array("99999999999999999999999".utf8))
                }
            }
        }
        return Data(bytes)
    }

    private static func findDigits(in bytes: [UInt8], using random: inout SeededGenerator) -> Range<Int>? {
        guard !bytes.isEmpty else { return nil }
        var index = Int.random(in: 0..<bytes.count, using: &random)
        while index < bytes.count, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        guard index < bytes.count else { return nil }
        var end = index
        while end < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end]) { end += 1 }
        return index..<end
    }
}
