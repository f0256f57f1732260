import Foundation
import Synchronization
import TestSupport
import Testing

@testable import ObjDB

@Suite("objdb-inspect commands")
struct InspectCommandsTests {
    let directory = TemporaryDirectory()

    /// The demo's Twitter cache: 200 tweets by 8 users.
    func demoStore() throws -> String {
        let store = directory.path + "/demo.objdb"
        let demo = try run("objdb-demo", [store])
        #expect(demo.status == 0, "\(demo.error)")
        return store
    }

    func inspect(_ arguments: [String]) throws -> ToolRun {
        try run("objdb-inspect", arguments + ["--no-color"])
    }

    @Test func schemaListsTypesAndProperties() throws {
        let store = try demoStore()
        let result = try inspect([store, "schema"])
        #expect(result.status == 0)
        #expect(result.output.contains("Tweet (primary key id)"))
        #expect(result.output.contains("screenName  string                 indexed"))
        #expect(result.output.contains("LinkingObjects<Tweet>  inverse of Tweet.user"))
        let json = try inspect([store, "schema", "--json"])
        let schema = try JSONDecoder().decode(Schema.self, from: Data(json.output.utf8))
        #expect(schema.types.map(\.name) == ["Tweet", "TwitterUser"])
    }

    @Test func countCountsEveryTypeOrOne() throws {
        let store = try demoStore()
        #expect(try inspect([store, "count"]).output == "Type         Objects\nTweet        200\nTwitterUser  8\n")
        #expect(try inspect([store, "count", "TwitterUser"]).output == "8\n")
    }

    @Test func dumpFiltersSortsPagesAndFormats() throws {
        let store = try demoStore()
        let csv = try inspect([
            store, "dump", "TwitterUser", "--format", "csv", "--sort", "-screenName", "--limit", "2",
        ])
        #expect(csv.output == "id,name,screenName\n4,Swiftlang,swiftlang\n7,Linus,linus\n")
        let ndjson = try inspect([
            store, "dump", "Tweet", "--where", "id < 1002", "--props", "id,user", "--format", "ndjson",
        ])
        #expect(ndjson.output == "{\"id\":1000,\"user\":1}\n{\"id\":1001,\"user\":2}\n")
        let page = try inspect([
            store, "dump", "Tweet", "--sort", "id", "--offset", "198", "--props", "id", "--format", "json",
        ])
        let ids = try JSONSerialization.jsonObject(with: Data(page.output.utf8)) as? [[String: Int]]
        #expect(ids?.map { $0["id"] } == [1198, 1199])
        let table = try inspect([store, "dump", "TwitterUser", "--where", "screenName BEGINSWITH 'g'"])
        #expect(table.output == "id  name   screenName\n6   Grace  grace\n8   Guido  guido\n(2 of 8 TwitterUser)\n")
    }

    @Test func tablesFitTheTerminalWidth() throws {
        let store = try demoStore()
        let process = try run(
            "objdb-inspect", [store, "dump", "Tweet", "--limit", "3"], environment: ["COLUMNS": "40"])
        let lines = process.output.split(separator: "\n")
        #expect(lines.allSatisfy { $0.count <= 40 })
        #expect(process.output.contains("…"))
    }

    @Test func getShowsTheObjectItsLinksAndBacklinks() throws {
        let store = try demoStore()
        let result = try inspect([store, "get", "Tweet", "1000"])
        #expect(result.status == 0)
        #expect(result.output.contains("Tweet(1000)"))
        #expect(result.output.contains("user          TwitterUser(1)"))
        let user = try inspect([store, "get", "TwitterUser", "1"])
        // 25 tweets link to Jack: one per line, the first ten, then the count of the rest.
        #expect(user.output.contains("linked from\n  Tweet.user (25):\n    Tweet(1000)\n    Tweet(1008)\n"))
        #expect(user.output.contains("    Tweet(1072)\n    … 15 more\n"))
        #expect(user.output.split(separator: "\n").allSatisfy { $0.count <= 120 })
        let missing = try inspect([store, "get", "Tweet", "1"])
        #expect(missing.status == 1)
        #expect(missing.error.contains("no Tweet with key 1"))
    }

    @Test func errorsHaveClearMessagesAndExitCodes() throws {
        let store = try demoStore()
        let unknownType = try inspect([store, "dump", "Toot"])
        #expect(unknownType.status == 1)
        #expect(unknownType.error.contains("no object type named Toot"))
        let badPredicate = try inspect([store, "dump", "Tweet", "--where", "id >> 3"])
        #expect(badPredicate.status == 1)
        #expect(badPredicate.error.contains("syntax error at position 4"))
        let unknownProperty = try inspect([store, "dump", "Tweet", "--props", "body"])
        #expect(unknownProperty.error.contains("Tweet has no property named body"))
        #expect(try inspect([store, "dump"]).status == 2)
        #expect(try inspect([store, "dump", "Tweet", "--format", "xml"]).status == 2)
        // A key that is not one is a data error: exit 1, one line, no usage text.
        let badKey = try inspect([store, "get", "Tweet", "abc"])
        #expect(badKey.status == 1)
        #expect(badKey.error == "objdb-inspect: 'abc' is not an integer key\n")
    }

    @Test func everyCommandHasHelp() throws {
        let store = try demoStore()
        for command in ["info", "schema", "count", "dump", "get", "watch", "check", "export", "import", "compact"] {
            let help = try inspect([store, command, "--help"])
            #expect(help.status == 0)
            #expect(help.output.hasPrefix("usage: objdb-inspect PATH \(command)"), "\(command)")
        }
    }

    @Test func checkPassesASoundStore() throws {
        let store = try demoStore()
        let result = try inspect([store, "check"])
        #expect(result.status == 0)
        #expect(result.output.contains("ok"))
    }

    @Test func checkFindsDanglingLinksMissingIndexEntriesAndUndecodableRecords() throws {
        let store = try demoStore()
        try damage(store) { transaction in
            // the user Tweets link to disappears, a screenName index entry goes, a record is garbage
            let users = try transaction.openDatabase(named: "obj.TwitterUser")
            try ObjectKeyCodec.encode(.int(2)).withUnsafeBytes { _ = try transaction.delete($0, in: users) }
            let index = try transaction.openDatabase(named: "idx.TwitterUser.2")
            let key = [KeyEncoding.valueTag] + Array("jack".utf8)
            try key.withUnsafeBytes { _ = try transaction.delete($0, in: index) }
            let tweets = try transaction.openDatabase(named: "obj.Tweet")
            try ObjectKeyCodec.encode(.int(1005)).withUnsafeBytes { tweetKey in
                try [UInt8]([9, 9, 9]).withUnsafeBytes { _ = try transaction.put($0, forKey: tweetKey, in: tweets) }
            }
        }
        let result = try inspect([store, "check"])
        #expect(result.status == 1)
        #expect(result.error.isEmpty, "\(result.error)")
        #expect(result.output.contains("Tweet(1001): a link to a missing TwitterUser"))
        #expect(result.output.contains("TwitterUser(1): screenName is missing from its index"))
        #expect(result.output.contains("Tweet(1005): the record does not decode"))
        #expect(result.output.contains("index TwitterUser.screenName: an entry points at a missing object"))
    }

    @Test func checkListsThePageProblemsOfAFileTooDamagedToOpen() throws {
        let store = try demoStore()
        // Cut to four pages: the meta pages now name tree pages past the end, and LMDB refuses the file.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: store))
        try bytes.prefix(4 * 4096).write(to: URL(fileURLWithPath: store))
        let result = try inspect([store, "check"])
        #expect(result.status == 1)
        #expect(result.error.isEmpty, "\(result.error)")
        let lines = result.output.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("problem: ") && $0.contains("past the end of the file") })
        #expect(result.output.contains("the store does not open"))
    }

    @Test func exportThenImportRoundTrips() throws {
        let store = try demoStore()
        let export = directory.path + "/export.ndjson"
        #expect(try inspect([store, "export", "--output", export]).status == 0)
        let copy = directory.path + "/copy.objdb"
        let seed = try run("objdb-demo", [copy])
        #expect(seed.status == 0)
        // empty the copy, keeping its schema, then import
        try damage(copy) { transaction in
            for name in ["obj.Tweet", "obj.TwitterUser", "idx.Tweet.2", "idx.TwitterUser.2", "objdb.backlinks"] {
                try transaction.removeAll(in: try transaction.openDatabase(named: name))
            }
        }
        let imported = try inspect([copy, "import", export])
        #expect(imported.status == 0, "\(imported.error)")
        #expect(imported.output.contains("imported 208 object(s)"))
        #expect(try inspect([copy, "check"]).status == 0)
        let again = directory.path + "/again.ndjson"
        #expect(try inspect([copy, "export", "--output", again]).status == 0)
        #expect(try String(contentsOfFile: again, encoding: .utf8) == String(contentsOfFile: export, encoding: .utf8))
        let json = try inspect([store, "export", "Tweet", "--format", "json"])
        let grouped = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: [Any]]
        #expect(grouped?["Tweet"]?.count == 200)
    }

    @Test func compactWritesASmallerCopyOnlyToANewFile() throws {
        let store = try demoStore()
        let out = directory.path + "/compact.objdb"
        let result = try inspect([store, "compact", out])
        #expect(result.status == 0)
        #expect(try inspect([out, "count", "Tweet"]).output == "200\n")
        #expect(try inspect([store, "compact", out]).status == 1)
    }

    @Test func watchPrintsChangesCommittedByAnotherProcess() throws {
        let store = try demoStore()
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
        // a change through the object layer, from this process: another one than the watcher's
        let db = try Database(path: store)
        try db.write { transaction in
            try transaction.dynamicCreate("TwitterUser", value: ["id": 99, "screenName": "newcomer"])
            try transaction.dynamicObject("TwitterUser", key: .int(1))?.setValue("jack2", forKey: "screenName")
        }
        #expect(waitFor("~ TwitterUser(1) screenName"), "\(seen.withLock { $0 })")
        #expect(seen.withLock { $0.contains("+ TwitterUser(99)") })
    }

    @Test func theShellRunsCommandsFromItsInput() throws {
        let store = try demoStore()
        let shell = Process()
        shell.executableURL = builtProductsDirectory().appendingPathComponent("objdb-inspect")
        shell.arguments = [store, "--no-color"]
        let input = Pipe()
        let output = Pipe()
        shell.standardInput = input
        shell.standardOutput = output
        try shell.run()
        input.fileHandleForWriting.write(
            Data(
                "count TwitterUser\ndump TwitterUser --where \"screenName == 'ada'\" --format csv\nhistory\nquit\n".utf8
            ))
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        shell.waitUntilExit()
        #expect(shell.terminationStatus == 0)
        #expect(text.contains("8\n"))
        #expect(text.contains("id,name,screenName\n5,Ada,ada\n"))
        #expect(text.contains("1  count TwitterUser"))
    }

    /// Changes a store's databases directly, as damage would.
    func damage(_ store: String, _ body: (Transaction) throws -> Void) throws {
        let environment = try Environment.open(path: store)
        try environment.write(body)
    }
}

extension WriteTransaction {
    func dynamicObject(_ type: String, key: ObjectKey) throws -> DynamicObject? {
        try dynamicObjects(type).first { $0.objectKey == key }
    }
}
