import Foundation
import ObjDBSync
import TestSupport
import Testing

@testable import ObjDB

/// The X API v2 importer fuzzed: generated v2 pages (full and compact, with includes, partial
/// errors, empty pages, user lookups) and problem documents, damaged at random, imported into a
/// store. Each import either succeeds or throws a `SyncError`; one that throws commits nothing, and
/// a value of the wrong kind is named by its JSON path.
@Suite("Fuzzing: X API v2 importer")
struct XImporterFuzzTests {
    let directory = TemporaryDirectory()

    /// The v2 fields the importer reads, given values of the wrong type or shape.
    static let fragments = [
        "\"data\":null", "\"data\":7", "\"data\":[1]", "\"includes\":[]", "\"includes\":{\"users\":{}}",
        "\"includes\":{\"tweets\":[7]}", "\"includes\":{\"media\":[{\"media_key\":\"x\"}]}", "\"meta\":[]",
        "\"next_token\":7", "\"id\":\"12x\"", "\"id\":1.5", "\"author_id\":{}",
        "\"created_at\":\"2021-13-45T99:00:00Z\"",
        "\"edit_history_tweet_ids\":\"1\"", "\"edit_history_tweet_ids\":[\"a\"]", "\"referenced_tweets\":{}",
        "\"referenced_tweets\":[{\"type\":\"quoted\"}]", "\"referenced_tweets\":[{\"type\":7,\"id\":\"1\"}]",
        "\"attachments\":{\"media_keys\":[7]}", "\"note_tweet\":\"long\"", "\"note_tweet\":{\"text\":7}",
        "\"public_metrics\":{\"like_count\":\"many\"}", "\"entities\":{\"mentions\":[{\"id\":null}]}",
        "\"errors\":{}", "\"errors\":[\"x\"]", "\"title\":\"Too Many Requests\"", "\"status\":429",
        "\"username\":\"x\"", "\"text\":null",
    ]

    @Test func damagedPagesImportOrFailTypedNamingThePathAndAFailureCommitsNothing() throws {
        var configuration = Configuration(path: directory.store(), types: XImporter.modelTypes)
        configuration.isDurable = false
        let database = try Database(configuration: configuration)
        let importer = XImporter(database: database)
        var random = SeededGenerator(seed: 3_131)
        var generator = XPayloadGenerator(seed: 3_131)
        var outcomes: [String: Int] = [:]
        let inputs = FuzzTests.inputs / 5
        for number in 0..<inputs {
            let payload = Self.payload(generator: &generator, random: &random)
            let version = try database.view().version
            do {
                _ = try importer.importPage(payload, timeline: number % 3 == 0 ? "home" : nil)
                outcomes["imported", default: 0] += 1
            } catch let error as SyncError {
                let cause = (error.underlyingError as? ObjDBError).map { " (\($0.code))" }
                outcomes["\(error.code)\(cause ?? "")", default: 0] += 1
                #expect(try database.view().version == version, "case \(number) failed with \(error) yet committed")
                if [.unexpectedValue, .missingValue, .limitExceeded].contains(error.code) {
                    #expect(error.path != nil, "case \(number): \(error) names no JSON path")
                }
            }
            if number % 500 == 499 {
                #expect(try StoreCheck(database: database).problems() == [])
            }
        }
        print("fuzzed X imports: \(inputs), crashes 0, outcomes \(outcomes.sorted { $0.key < $1.key })")
        #expect(outcomes["imported", default: 0] > inputs / 20)
        #expect(outcomes["unexpectedValue", default: 0] > 0)
        #expect(try StoreCheck(database: database).problems() == [])
    }

    /// A fresh body of one of v2's shapes, damaged three times in four.
    static func payload(generator: inout XPayloadGenerator, random: inout SeededGenerator) -> Data {
        let base: Data
        let newest = Int64.random(in: 1_000_100_000...1_900_000_000_000_000_000, using: &random)
        switch Int.random(in: 0..<12, using: &random) {
        case 0: base = XPayloadGenerator.rateLimitBody
        case 1: base = XPayloadGenerator.problem(title: "Unauthorized", status: 401)
        case 2: base = XPayloadGenerator.userBody(generator.users[0])
        case 3: base = Data(#"{"meta":{"result_count":0}}"#.utf8)
        case 4:
            let page = String(decoding: generator.page(count: 3, newestID: newest), as: UTF8.self)
            base = Data((page.dropLast() + ",\"errors\":[\(XPayloadGenerator.notFoundError(postID: 7))]}").utf8)
        case 5:
            let ids = (0..<Int.random(in: 1...20, using: &random)).map { newest - Int64($0) * 37 }
            base = generator.timeline(ids: ids, compact: true)
        default:
            base = generator.page(count: Int.random(in: 0...25, using: &random), newestID: newest)
        }
        guard Int.random(in: 0..<4, using: &random) > 0 else { return base }
        return JSONFuzzer.mutate(base, using: &random, fragments: JSONFuzzer.fragments + fragments)
    }
}
