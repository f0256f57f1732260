import Foundation
import TestSupport
import Testing

@Suite("objdb-inspect info")
struct InspectInfoTests {
    let directory = TemporaryDirectory()

    func makeDemoStore() throws -> String {
        let store = directory.path + "/demo.objdb"
        let demo = try run("objdb-demo", [store])
        #expect(demo.status == 0, "\(demo.error)")
        return store
    }

    @Test func infoReportsTheFormatMapReadersAndEveryDatabase() throws {
        let store = try makeDemoStore()
        let result = try run("objdb-inspect", [store, "info"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("Format version:     4"))
        #expect(result.output.contains("Map size:"))
        #expect(result.output.contains("Readers:            0 open"))
        let rows = result.output.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        #expect(rows.contains { $0.first == "obj.Tweet" && $0.last == "200" })
        #expect(rows.contains { $0.first == "idx.TwitterUser.2" && $0.last == "8" })
        // The header, the schema, its version, and where the change log starts.
        #expect(rows.contains { $0.first == "objdb.meta" && $0.last == "4" })
        #expect(rows.contains { $0.first == "objdb.changes" })
    }

    @Test func withoutACommandTheShellReadsCommands() throws {
        let store = try makeDemoStore()
        let process = Process()
        process.executableURL = builtProductsDirectory().appendingPathComponent("objdb-inspect")
        process.arguments = [store]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data("info\n".utf8))
        try input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(text == (try run("objdb-inspect", [store, "info"])).output)
    }

    @Test func infoShowsReadersAndTheOldestPinnedVersion() throws {
        let store = try makeDemoStore()
        let reader = Process()
        reader.executableURL = builtProductsDirectory().appendingPathComponent("objdb-test-child")
        reader.arguments = ["hold-reader", store]
        let output = Pipe()
        reader.standardOutput = output
        try reader.run()
        defer {
            kill(reader.processIdentifier, SIGKILL)
            reader.waitUntilExit()
        }
        _ = output.fileHandleForReading.availableData  // "ready": the reader holds its snapshot
        let result = try run("objdb-inspect", [store, "info"])
        #expect(result.output.contains("Readers:            1 open"))
        #expect(result.output.contains("  pid \(reader.processIdentifier) reads transaction 7"))
        #expect(result.output.contains("Oldest pinned:      transaction 7, 0 commit(s) behind"))
        #expect(result.output.contains("Schema version:     0"))
    }

    @Test func infoDoesNotWriteToTheStore() throws {
        let store = try makeDemoStore()
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        _ = try run("objdb-inspect", [store, "info"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
    }

    @Test func aFileThatIsNotAStoreFailsWithExitCode1() throws {
        let path = directory.path + "/notes.txt"
        try Data(String(repeating: "not a store\n", count: 2_000).utf8).write(to: URL(fileURLWithPath: path))
        let result = try run("objdb-inspect", [path, "info"])
        #expect(result.status == 1)
        #expect(result.error.contains("is not an ObjDB store"))
    }

    @Test func aMissingStoreFailsWithExitCode1() throws {
        let result = try run("objdb-inspect", [directory.path + "/missing.objdb", "info"])
        #expect(result.status == 1)
        #expect(result.error.contains("no store at"))
    }

    @Test func usageErrorsExitWith2() throws {
        #expect(try run("objdb-inspect", []).status == 2)
        let unknown = try run("objdb-inspect", [directory.path + "/x.objdb", "frobnicate"])
        #expect(unknown.status == 2)
        #expect(unknown.error.contains("unknown command 'frobnicate'"))
        #expect(try run("objdb-inspect", ["--help"]).status == 0)
    }
}

@Suite("objdb-bench")
struct BenchCommandTests {
    @Test func aSmallRunReportsEveryEngineWorkloadAndRatio() throws {
        let result = try run("objdb-bench", ["--count", "1000", "--repetitions", "1", "--workloads", "W1,W4,W5,W6"])
        #expect(result.status == 0, "\(result.error)")
        for engine in ["objdb", "raw-lmdb", "sqlite"] {
            for workload in ["W1", "W4", "W5", "W6"] {
                #expect(result.output.contains("RESULT \(engine) \(workload) "), "\(engine) \(workload)")
            }
        }
        #expect(result.output.contains("objdb/lmdb"))
        #expect(result.output.contains("bytes/object after W1"))
        #expect(!result.output.contains("RESULT objdb W7"))
        #expect(result.output.contains("Checked after each workload"))
        #expect(result.output.contains("  W1  1000 tweets, 1000 index entries, retweetCount sum "))
        let layout = result.output.split(separator: "\n").filter { $0.hasPrefix("W1 ") }
        for database in [
            "raw-lmdb  tweets", "raw-lmdb  userId", "objdb     obj.BenchTweet", "objdb     idx.BenchTweet.1",
        ] {
            #expect(layout.contains { $0.contains(database) }, "layout of \(database)")
        }
    }

    @Test func aWrongAnswerFailsTheRun() throws {
        let arguments = ["--count", "1000", "--repetitions", "1", "--workloads", "W4,W7,W8"]
        let update = try run("objdb-bench", arguments, environment: ["OBJDB_BENCH_SABOTAGE": "raw-lmdb:W7"])
        #expect(update.status != 0)
        #expect(update.error.contains("raw-lmdb after W7 holds"), "\(update.error)")
        let delete = try run("objdb-bench", arguments, environment: ["OBJDB_BENCH_SABOTAGE": "objdb:W8"])
        #expect(delete.status != 0)
        #expect(delete.error.contains("objdb after W8 holds"), "\(delete.error)")
        let read = try run("objdb-bench", arguments, environment: ["OBJDB_BENCH_SABOTAGE": "sqlite:W4"])
        #expect(read.status != 0)
        #expect(read.error.contains("engines disagree on W4"), "\(read.error)")
    }

    @Test func growthModeReportsW1AndW4PerSize() throws {
        let result = try run("objdb-bench", ["--growth", "--growth-max", "10000"])
        #expect(result.status == 0, "\(result.error)")
        let rows = result.output.split(separator: "\n").filter { $0.hasPrefix("10000 ") }
        #expect(rows.contains { $0.contains("W1 bulk insert") })
        #expect(rows.contains { $0.contains("W4 point reads") })
        #expect(result.output.contains("bytes/object"))
        #expect(result.output.contains("RESULT raw-lmdb W4 objects=10000 ns_per_read="))
    }

    @Test func badArgumentsExitWith2() throws {
        #expect(try run("objdb-bench", ["--count", "many"]).status == 2)
        #expect(try run("objdb-bench", ["--frobnicate"]).status == 2)
        #expect(try run("objdb-bench", ["--workloads", "W99"]).status == 2)
        #expect(try run("objdb-bench", ["--raw-sorted-load"]).status == 2)
    }
}
