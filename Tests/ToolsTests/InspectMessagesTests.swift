import Foundation
import Synchronization
import TestSupport
import Testing

@testable import ObjDB

/// What objdb-inspect says when things go wrong, and what it makes of odd input (#15, #16).
@Suite("objdb-inspect messages and input")
struct InspectMessagesTests {
    let directory = TemporaryDirectory()

    func demoStore(_ name: String = "demo.objdb") throws -> String {
        let store = directory.path + "/" + name
        let demo = try run("objdb-demo", [store])
        #expect(demo.status == 0, "\(demo.error)")
        return store
    }

    func inspect(_ arguments: [String], environment: [String: String] = [:]) throws -> ToolRun {
        try run("objdb-inspect", arguments + ["--no-color"], environment: environment)
    }

    @Test func exportIntoAMissingDirectorySaysSoInPlainWords() throws {
        let store = try demoStore()
        let result = try inspect([store, "export", "--output", directory.path + "/no/such/dir/out.ndjson"])
        #expect(result.status == 1)
        #expect(
            result.error == "objdb-inspect: cannot create \(directory.path)/no/such/dir/out.ndjson: "
                + "the directory \(directory.path)/no/such/dir does not exist\n")
        #expect(!result.error.contains("Error Domain"))
        #expect(!result.error.contains("NSCocoaErrorDomain"))
    }

    @Test func errorsAboutTheLockFileNameIt() throws {
        let store = try demoStore()
        try FileManager.default.removeItem(atPath: store + "-lock")
        try FileManager.default.createDirectory(atPath: store + "-lock", withIntermediateDirectories: false)
        let result = try inspect([store, "count"])
        #expect(result.status == 1)
        #expect(result.error.contains("the lock file \(store)-lock"), "\(result.error)")
    }

    @Test func compactErrorsNameTheTarget() throws {
        let store = try demoStore()
        let target = directory.path + "/missing/compact.objdb"
        let result = try inspect([store, "compact", target])
        #expect(result.status == 1)
        #expect(result.error.contains("the compacted copy \(target)"), "\(result.error)")
        #expect(result.error.contains("does not exist"))
        let existing = try inspect([store, "compact", store])
        #expect(existing.error.contains("\(store) exists; compact writes only to a new file"))
    }

    @Test func aDamagedRecordIsReportedAsDamaged() throws {
        let store = try demoStore()
        let environment = try Environment.open(path: store)
        try environment.write { transaction in
            let tweets = try transaction.openDatabase(named: "obj.Tweet")
            try ObjectKeyCodec.encode(.int(1005)).withUnsafeBytes { key in
                // A valid header whose slot table points past the end.
                try [UInt8]([1, 0, 2, 0, 0, 0, 0, 0, 200, 0, 0, 0]).withUnsafeBytes {
                    _ = try transaction.put($0, forKey: key, in: tweets)
                }
            }
        }
        let get = try inspect([store, "get", "Tweet", "1005"])
        #expect(get.status == 1)
        #expect(get.error.contains("damaged"), "\(get.error)")
        #expect(get.error.contains("Tweet(1005)"))
        #expect(!get.error.contains("deleted"))
        #expect(get.error.split(separator: "\n").count == 1)
        let dump = try inspect([store, "dump", "Tweet", "--format", "ndjson"])
        #expect(dump.status == 1)
        #expect(dump.error.contains("Tweet(1005)") && dump.error.contains("damaged"), "\(dump.error)")
        #expect(try inspect([store, "get", "Tweet", "1004"]).status == 0)
    }

    @Test func importAcceptsCRLFLineEnds() throws {
        let store = try demoStore()
        let input = directory.path + "/windows.ndjson"
        let lines = [
            "{\"_type\":\"TwitterUser\",\"_key\":70,\"id\":70,\"name\":\"Seventy\",\"screenName\":\"seventy\"}",
            "{\"_type\":\"TwitterUser\",\"_key\":71,\"id\":71,\"name\":\"Line\\r\\nBreak\",\"screenName\":\"crlf\"}",
        ]
        try (lines.joined(separator: "\r\n") + "\r\n").write(toFile: input, atomically: true, encoding: .utf8)
        let result = try inspect([store, "import", input])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == "imported 2 object(s) into \(store)\n")
        let dumped = try inspect([store, "dump", "TwitterUser", "--where", "id >= 70", "--format", "ndjson"])
        #expect(
            dumped.output == """
                {"id":70,"name":"Seventy","screenName":"seventy"}
                {"id":71,"name":"Line\\r\\nBreak","screenName":"crlf"}

                """)
    }

    @Test func controlCharactersInStoredStringsAreEscapedInTablesAndGet() throws {
        let store = try demoStore()
        do {
            let database = try Database(path: store)
            try database.write { transaction in
                try transaction.dynamicCreate(
                    "TwitterUser",
                    value: ["id": 90, "name": "evil\u{1B}]0;pwned\u{7}\u{1B}[2J", "screenName": "a\nb\u{9B}c\td"])
            }
        }
        let table = try inspect([store, "dump", "TwitterUser", "--where", "id == 90"])
        #expect(table.status == 0)
        #expect(!table.output.utf8.contains(0x1B) && !table.output.utf8.contains(0x07))
        #expect(table.output.contains("evil\\x1B]0;pwned\\x07\\x1B[2J"), "\(table.output)")
        #expect(table.output.contains("a\\nb\\u{9B}c\\td"))
        let get = try inspect([store, "get", "TwitterUser", "90"])
        #expect(!get.output.utf8.contains(0x1B) && !get.output.utf8.contains(0x07) && !get.output.contains("\u{9B}"))
        #expect(get.output.contains("name        evil\\x1B]0;pwned\\x07\\x1B[2J"), "\(get.output)")
        // Machine formats keep the text exact.
        let json = try inspect([store, "dump", "TwitterUser", "--where", "id == 90", "--format", "ndjson"])
        #expect(json.output.contains("\"name\":\"evil\\u001b]0;pwned\\u0007\\u001b[2J\""), "\(json.output)")
    }

    @Test func getSummarizesALongBacklinkList() throws {
        let store = try demoStore()
        do {
            let database = try Database(path: store)
            try database.write { transaction in
                for id in 5_000..<5_600 {
                    try transaction.dynamicCreate(
                        "Tweet",
                        value: ["id": id, "text": "more", "user": StoredValue.link(type: "TwitterUser", key: .int(2))])
                }
            }
        }
        let result = try inspect([store, "get", "TwitterUser", "2"], environment: ["COLUMNS": "80"])
        #expect(result.status == 0)
        let lines = result.output.split(separator: "\n")
        #expect(lines.allSatisfy { $0.count <= 80 }, "\(result.output)")
        #expect(result.output.contains("  Tweet.user (625):\n    Tweet(1001)\n"))
        #expect(result.output.hasSuffix("    … 615 more\n"))
    }

    @Test func watchNoticesAReplacedStoreFile() throws {
        let store = try demoStore()
        let replacement = try demoStore("replacement.objdb")
        do {
            let database = try Database(path: replacement)
            try database.write { transaction in
                try transaction.dynamicCreate("TwitterUser", value: ["id": 77, "screenName": "new"])
            }
        }
        let watcher = Process()
        watcher.executableURL = builtProductsDirectory().appendingPathComponent("objdb-inspect")
        watcher.arguments = [store, "watch", "TwitterUser", "--interval", "20"]
        let output = Pipe()
        watcher.standardOutput = output
        let seen = Mutex("")
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            seen.withLock { $0 += String(decoding: data, as: UTF8.self) }
        }
        try watcher.run()
        defer {
            kill(watcher.processIdentifier, SIGINT)
            watcher.waitUntilExit()
            output.fileHandleForReading.readabilityHandler = nil
        }
        func waitFor(_ text: String) -> Bool {
            let deadline = Date().addingTimeInterval(20)
            while Date() < deadline {
                if seen.withLock({ $0.contains(text) }) { return true }
                usleep(20_000)
            }
            return false
        }
        #expect(waitFor("8 TwitterUser\n"))
        // Replace the file the way a restore or a compact-and-swap does: a rename over it.
        #expect(rename(replacement, store) == 0)
        #expect(waitFor("the store file was replaced"), "\(seen.withLock { $0 })")
        #expect(waitFor("+ TwitterUser(77)"), "\(seen.withLock { $0 })")
    }

    @Test func commandsFedThroughAPipeMakeTheShellExit1WhenOneFailed() throws {
        let store = try demoStore()
        func shell(_ input: String) throws -> (Int32, String) {
            let process = Process()
            process.executableURL = builtProductsDirectory().appendingPathComponent("objdb-inspect")
            process.arguments = [store, "--no-color"]
            let stdin = Pipe()
            let stdout = Pipe()
            process.standardInput = stdin
            process.standardOutput = stdout
            process.standardError = FileHandle.nullDevice
            try process.run()
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try stdin.fileHandleForWriting.close()
            let text = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, text)
        }
        let failing = try shell("count Toot\ncount TwitterUser\n")
        #expect(failing.0 == 1)
        #expect(failing.1 == "8\n")
        #expect(try shell("count TwitterUser\ninfo --limit 5\n").0 == 1)
        #expect(try shell("count TwitterUser\ncount Tweet\n").0 == 0)
    }
}
