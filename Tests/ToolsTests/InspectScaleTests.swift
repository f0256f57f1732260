import Foundation
import TestSupport
import Testing

@testable import ObjDB
@testable import ObjDBInspection

final class ScaleUser: Object {
    @Persisted(primaryKey: true) var id: Int64
    @Persisted var name = ""
    @Persisted(indexed: true) var screenName = ""
}

final class ScaleTweet: Object {
    @Persisted(primaryKey: true) var id: Int64
    @Persisted var text = ""
    @Persisted(indexed: true) var createdAt = Date()
    @Persisted var retweetCount = 0
    @Persisted var user: ScaleUser?
    @Persisted var retweetedBy: List<ScaleUser>
}

/// #18 in CI: dump, export, check and a batched import of a 200,000-object store, each in bounded
/// memory (the child's own peak RSS, from wait4), and every output round-trips exactly.
@Suite("objdb-inspect at scale")
struct InspectScaleTests {
    let directory = TemporaryDirectory()
    /// Peak resident memory allowed to each tool run: #18's 64 MB. The store is about 75 MB and the
    /// export about 45 MB, so a tool that held either (or the map pages it read) would pass it.
    static let memoryBound = 64 << 20
    /// A batched import also holds LMDB's dirty pages of a batch's write transaction (and, in this
    /// debug build, more heap): 96 MB, still far below the 560 MB the old whole-file import took.
    static let importBound = 96 << 20
    static let users = 2_000
    static let tweets = 198_000

    /// Runs objdb-inspect through objdb-child-rusage: its status and its own peak memory in bytes.
    func measured(_ arguments: [String], output: String = "/dev/null") throws -> (status: Int32, peak: Int) {
        let result = directory.path + "/rusage.txt"
        let process = Process()
        process.executableURL = builtProductsDirectory().appendingPathComponent("objdb-child-rusage")
        process.arguments = [result, builtProductsDirectory().appendingPathComponent("objdb-inspect").path] + arguments
        process.standardOutput = FileHandle(forWritingAtPath: output) ?? FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let fields = try String(contentsOfFile: result, encoding: .utf8).split(separator: " ")
        return (Int32(fields[0])!, Int(fields[2].trimmingCharacters(in: .whitespacesAndNewlines))! * 1024)
    }

    /// The objects as NDJSON, written in the order an export writes them.
    func writeInput(_ path: String) throws {
        let output = try ByteOutput.file(atPath: path)
        for id in 1...Self.users {
            output.write(
                "{\"_type\":\"ScaleUser\",\"_key\":\(id),\"id\":\(id),\"name\":\"User \(id)\",\"screenName\":\"u\(id)\"}\n"
            )
        }
        var random = TestRandom(seed: 18)
        for id in 1...Self.tweets {
            let user = Int(random.next() % UInt64(Self.users)) + 1
            let retweeters = random.next() % 4 == 0 ? "\(Int(random.next() % UInt64(Self.users)) + 1)" : ""
            let seconds = 1_300_000_000 + Double(id) * 0.37
            output.write(
                "{\"_type\":\"ScaleTweet\",\"_key\":\(id),\"id\":\(id),\"text\":\"tweet \(id) with \\\"quotes\\\", commas and é\","
                    + "\"createdAt\":\"\(ExactDateText.text(seconds - Double(ExactDateText.referenceOffset)))\","
                    + "\"retweetCount\":\(random.next() % 101),\"user\":\(user),\"retweetedBy\":[\(retweeters)]}\n")
        }
        try output.flush()
    }

    @Test func dumpExportCheckAndBatchedImportStayInBoundedMemoryAndRoundTrip() throws {
        let store = directory.store("scale.objdb")
        let copy = directory.store("copy.objdb")
        for path in [store, copy] { _ = try Database(path: path, types: [ScaleUser.self, ScaleTweet.self]) }
        let input = directory.path + "/input.ndjson"
        try writeInput(input)

        let loaded = try measured([store, "import", input, "--batch", "20000"])
        #expect(loaded.status == 0)
        #expect(loaded.peak < Self.importBound, "import --batch: \(loaded.peak >> 20) MiB")

        let export = directory.path + "/export.ndjson"
        let exported = try measured([store, "export", "--output", export])
        #expect(exported.status == 0)
        #expect(exported.peak < Self.memoryBound, "export: \(exported.peak >> 20) MiB")
        func lines(_ path: String) throws -> [Substring] {
            try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").sorted()
        }
        #expect(try lines(export) == lines(input))

        let dump = directory.path + "/dump.ndjson"
        let dumped = try measured([store, "dump", "ScaleTweet", "--format", "ndjson"], output: dump)
        #expect(dumped.status == 0)
        #expect(dumped.peak < Self.memoryBound, "dump: \(dumped.peak >> 20) MiB")
        let csv = try measured([store, "dump", "ScaleTweet", "--format", "csv"])
        #expect(csv.status == 0)
        #expect(csv.peak < Self.memoryBound, "dump --format csv: \(csv.peak >> 20) MiB")

        let checked = try measured([store, "check"])
        #expect(checked.status == 0)
        #expect(checked.peak < Self.memoryBound, "check: \(checked.peak >> 20) MiB")

        let imported = try measured([copy, "import", export, "--batch", "20000"])
        #expect(imported.status == 0)
        #expect(imported.peak < Self.importBound, "import --batch: \(imported.peak >> 20) MiB")
        let again = directory.path + "/again.ndjson"
        #expect(try measured([copy, "export", "--output", again]).status == 0)
        #expect(FileManager.default.contents(atPath: again) == FileManager.default.contents(atPath: export))
        let dumpAgain = directory.path + "/dump-again.ndjson"
        #expect(try measured([copy, "dump", "ScaleTweet", "--format", "ndjson"], output: dumpAgain).status == 0)
        #expect(FileManager.default.contents(atPath: dumpAgain) == FileManager.default.contents(atPath: dump))
        #expect(try measured([copy, "check"]).status == 0)
    }

    @Test func aFailedBatchSaysWhichAndKeepsTheEarlierOnes() throws {
        let store = directory.store("batches.objdb")
        _ = try Database(path: store, types: [ScaleUser.self, ScaleTweet.self])
        let input = directory.path + "/batches.ndjson"
        var lines = (1...25).map { "{\"_type\":\"ScaleUser\",\"id\":\($0),\"screenName\":\"u\($0)\"}" }
        lines[22] = "{\"_type\":\"ScaleUser\",\"id\":23,\"screenName\":7}"
        try (lines.joined(separator: "\n") + "\n").write(toFile: input, atomically: true, encoding: .utf8)
        let result = try run("objdb-inspect", [store, "import", input, "--batch", "10"])
        #expect(result.status == 1)
        #expect(
            result.error
                == "objdb-inspect: \(input):23: ScaleUser.screenName holds string, not the number 7; batch 3 was rolled "
                + "back, 2 earlier batch(es) of 20 object(s) are committed\n")
        #expect(try run("objdb-inspect", [store, "count", "ScaleUser"]).output == "20\n")
        let atomic = try run("objdb-inspect", [store, "import", input])
        #expect(atomic.error.hasSuffix("; nothing was imported\n"))
        #expect(try run("objdb-inspect", [store, "count", "ScaleUser"]).output == "20\n")
    }
}
