import Foundation
import TestSupport
import Testing

/// objdb-inspect's command line, as #12 item 6, #15 and #16 ask: each command declares its own
/// options and validates them; usage errors exit 2, data errors exit 1 with one line.
@Suite("objdb-inspect arguments")
struct InspectArgumentsTests {
    let directory = TemporaryDirectory()

    func demoStore() throws -> String {
        let store = directory.path + "/demo.objdb"
        if !FileManager.default.fileExists(atPath: store) {
            let demo = try run("objdb-demo", [store])
            #expect(demo.status == 0, "\(demo.error)")
        }
        return store
    }

    func inspect(_ arguments: [String]) throws -> ToolRun {
        try run("objdb-inspect", arguments + ["--no-color"])
    }

    @Test func helpFlagsPrintHelpAndOpenNoStore() throws {
        let working = FileManager.default.currentDirectoryPath
        for flag in ["-h", "--help", "help"] {
            let help = try run("objdb-inspect", [flag])
            #expect(help.status == 0, "\(flag)")
            #expect(help.output.hasPrefix("usage: objdb-inspect PATH"), "\(flag)")
            #expect(!FileManager.default.fileExists(atPath: working + "/" + flag + "-lock"))
        }
        let dumpHelp = try run("objdb-inspect", ["help", "dump"])
        #expect(dumpHelp.output.hasPrefix("usage: objdb-inspect PATH dump TYPE"))
        #expect(dumpHelp.output.contains("--offset N"))
    }

    @Test func aPathThatDoesNotExistIsAnErrorNotAShell() throws {
        let missing = directory.path + "/nowhere.objdb"
        let shell = try inspect([missing])
        #expect(shell.status == 1)
        #expect(shell.error == "objdb-inspect: no store at \(missing)\n")
        #expect(!FileManager.default.fileExists(atPath: missing))
    }

    @Test func extraOperandsAreUsageErrors() throws {
        let store = try demoStore()
        for words in [["count", "Tweet", "extra"], ["info", "extra"], ["check", "now"], ["get", "Tweet", "1", "2"]] {
            let result = try inspect([store] + words)
            #expect(result.status == 2, "\(words)")
            #expect(result.error.contains("not '"), "\(words): \(result.error)")
        }
    }

    @Test func malformedFlagsAreUsageErrors() throws {
        let store = try demoStore()
        let result = try inspect([store, "schema", "--json=1"])
        #expect(result.status == 2)
        #expect(result.error.hasPrefix("objdb-inspect: --json is a switch and takes no value\n"))
        #expect(try inspect([store, "dump", "Tweet", "--limit"]).status == 2)
        #expect(try inspect([store, "dump", "Tweet", "--limit", "1", "--limit", "2"]).status == 2)
    }

    /// The bug #12 found: `info --limit 5` was accepted because every command shared one option set.
    @Test func anOptionACommandDoesNotTakeIsAUsageError() throws {
        let store = try demoStore()
        let cases: [[String]] = [
            ["info", "--limit", "5"], ["count", "--where", "id > 1"], ["check", "--format", "json"],
            ["get", "Tweet", "1000", "--props", "id"], ["export", "--batch", "10"], ["schema", "--offset", "1"],
            ["watch", "Tweet", "--limit", "1"], ["compact", directory.path + "/c.objdb", "--json"],
        ]
        for words in cases {
            let result = try inspect([store] + words)
            #expect(result.status == 2, "\(words)")
            #expect(result.error.contains("takes no option"), "\(words): \(result.error)")
            #expect(result.error.contains("usage: objdb-inspect PATH \(words[0])"), "\(words)")
        }
    }

    /// #15: option values that crashed the tool are range-checked, with a clear error.
    @Test func numericOptionsAreRangeChecked() throws {
        let store = try demoStore()
        let cases: [([String], String)] = [
            (["dump", "Tweet", "--offset", "-1"], "--offset must be 0 or more, not -1"),
            (["dump", "Tweet", "--limit", "-5"], "--limit must be 0 or more, not -5"),
            (["dump", "Tweet", "--offset", "9223372036854775808"], "--offset 9223372036854775808 is too large"),
            (["dump", "Tweet", "--limit", "ten"], "--limit takes a whole number, not 'ten'"),
            (["watch", "Tweet", "--interval", "4294967296"], "--interval 4294967296 is too large: at most 3600000"),
            (["watch", "Tweet", "--interval", "0"], "--interval must be at least 1, not 0"),
            (["import", "x.ndjson", "--batch", "0"], "--batch must be at least 1, not 0"),
            (["dump", "Tweet", "--format", "xml"], "--format is table, json, ndjson or csv, not 'xml'"),
        ]
        for (words, message) in cases {
            let result = try inspect([store] + words)
            #expect(result.status == 2, "\(words)")
            #expect(result.error.contains(message), "\(words): \(result.error)")
        }
        // At the edge of Int64: accepted, and no crash.
        let far = try inspect([
            store, "dump", "Tweet", "--offset", "9223372036854775807", "--limit", "9223372036854775807", "--format",
            "ndjson", "--sort", "id",
        ])
        #expect(far.status == 0, "\(far.error)")
        #expect(far.output.isEmpty)
        let edge = try inspect([
            store, "dump", "Tweet", "--offset", "199", "--limit", "9223372036854775807", "--props", "id",
        ])
        #expect(edge.status == 0)
        #expect(edge.output.contains("1199"))
    }

    @Test func dataErrorsExitOneWithOneLine() throws {
        let store = try demoStore()
        let key = try inspect([store, "get", "Tweet", "abc"])
        #expect(key.status == 1)
        #expect(key.error == "objdb-inspect: 'abc' is not an integer key\n")
        let input = directory.path + "/bad.ndjson"
        try "{\"_type\":\"TwitterUser\",\"id\":50}\n{\"_type\":\"TwitterUser\",\"id\":51,}\n".write(
            toFile: input, atomically: true, encoding: .utf8)
        let imported = try inspect([store, "import", input])
        #expect(imported.status == 1)
        #expect(imported.error.split(separator: "\n").count == 1, "\(imported.error)")
        #expect(imported.error.contains("bad.ndjson:2:"), "\(imported.error)")
        #expect(imported.error.contains("nothing was imported"))
        #expect(try inspect([store, "count", "TwitterUser"]).output == "8\n")
    }
}
