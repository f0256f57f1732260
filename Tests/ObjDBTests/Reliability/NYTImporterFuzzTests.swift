import Foundation
import ObjDBInspection
import ObjDBSync
import TestSupport
import Testing

@testable import ObjDB

/// The NYT importer fuzzed: generated Article Search v2 pages of both doc shapes and every error
/// body, damaged at random, imported into a store. Each import either succeeds or throws a
/// `SyncError`, and one that throws commits nothing.
@Suite("Fuzzing: NYT importer")
struct NYTImporterFuzzTests {
    let directory = TemporaryDirectory()

    /// The NYT fields the mapping reads, given values of the wrong type or shape.
    static let fragments = [
        "\"_id\":null", "\"_id\":7", "\"response\":{}", "\"response\":[]", "\"docs\":{}", "\"docs\":[1]",
        "\"meta\":null", "\"hits\":\"x\"", "\"hits\":-1", "\"pub_date\":\"2025-13-45T99:00:00+0000\"",
        "\"pub_date\":7", "\"word_count\":\"many\"", "\"word_count\":1e999", "\"headline\":null",
        "\"headline\":{\"main\":[]}", "\"keywords\":[{}]", "\"keywords\":{}", "\"multimedia\":{}",
        "\"multimedia\":[{\"url\":null}]", "\"multimedia\":{\"default\":{\"width\":\"w\"}}", "\"byline\":[]",
        "\"rank\":9223372036854775808", "\"major\":\"maybe\"", "\"fault\":{}", "\"status\":\"ERROR\"",
        "\"errors\":[7]",
    ]

    @Test func randomAndDamagedPagesImportOrFailTypedAndAFailureCommitsNothing() throws {
        var configuration = Configuration(path: directory.store(), types: NYTImporter.modelTypes)
        configuration.isDurable = false
        let database = try Database(configuration: configuration)
        let importer = NYTImporter(database: database)
        var random = SeededGenerator(seed: 2_026)
        var generator = NYTPayloadGenerator(seed: 2_026)
        var outcomes: [String: Int] = [:]
        let inputs = FuzzTests.inputs / 5
        for number in 0..<inputs {
            let payload = Self.payload(number: number, generator: &generator, random: &random)
            let version = try database.view().version
            let search = number % 2 == 0 ? ArticleSearchQuery("q\(number % 7)") : nil
            do {
                _ = try importer.importPage(payload, search: search)
                outcomes["imported", default: 0] += 1
            } catch let error as SyncError {
                let cause = (error.underlyingError as? ObjDBError).map { " (\($0.code))" }
                outcomes["\(error.code)\(cause ?? "")", default: 0] += 1
                #expect(try database.view().version == version, "case \(number) failed with \(error) yet committed")
            }
            if number % 500 == 499 {
                #expect(try StoreCheck(database: database).problems() == [])
            }
        }
        print("fuzzed NYT imports: \(inputs), crashes 0, outcomes \(outcomes.sorted { $0.key < $1.key })")
        #expect(outcomes["imported", default: 0] > inputs / 20)
        #expect(outcomes.keys.contains { $0 != "imported" })
        #expect(try StoreCheck(database: database).problems() == [])
    }

    /// A fresh page (random size, offset, hits and shape) or error body, damaged three times in four.
    static func payload(
        number: Int, generator: inout NYTPayloadGenerator, random: inout SeededGenerator
    ) -> Data {
        let base: Data
        switch Int.random(in: 0..<10, using: &random) {
        case 0: base = NYTPayloadGenerator.faultBody("Invalid ApiKey", code: "oauth.v2.InvalidApiKey")
        case 1: base = NYTPayloadGenerator.statusErrorBody(["Invalid Date: 2014-11-24."])
        default:
            let count = Int.random(in: 0...12, using: &random)
            base = generator.page(
                count: count, offset: Int.random(in: 0...990, using: &random),
                hits: Int.random(in: 0...5_000, using: &random),
                shape: Bool.random(using: &random) ? .current : .classic)
        }
        guard Int.random(in: 0..<4, using: &random) > 0 else { return base }
        return JSONFuzzer.mutate(base, using: &random, fragments: JSONFuzzer.fragments + fragments)
    }
}
