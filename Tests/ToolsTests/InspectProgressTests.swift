import Foundation
import ObjDBInspection
import TestSupport
import Testing

@testable import ObjDB

/// Progress on a terminal, on standard error only; and `make install`.
@Suite("objdb-inspect progress and install")
struct InspectProgressTests {
    let directory = TemporaryDirectory()

    /// Runs objdb-inspect with standard error on a pseudo-terminal and standard output on a pipe.
    func runWithTerminal(_ arguments: [String]) throws -> (status: Int32, output: String, terminal: String) {
        let terminal = try PseudoTerminal()
        let process = Process()
        process.executableURL = builtProductsDirectory().appendingPathComponent("objdb-inspect")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = terminal.follower
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text, terminal.drain())
    }

    @Test func longCommandsShowProgressOnATerminalAndNeverInTheirOutput() throws {
        let store = directory.store()
        _ = try Database(path: store, types: [ScaleUser.self, ScaleTweet.self])
        let input = directory.path + "/users.ndjson"
        let output = try ByteOutput.file(atPath: input)
        for id in 1...40_000 { output.write("{\"_type\":\"ScaleUser\",\"id\":\(id),\"screenName\":\"u\(id)\"}\n") }
        try output.flush()

        let imported = try runWithTerminal([store, "import", input])
        #expect(imported.status == 0)
        #expect(imported.terminal.contains("import: 10000 objects"), "\(imported.terminal)")
        #expect(imported.output == "imported 40000 object(s) into \(store)\n")

        let export = directory.path + "/export.ndjson"
        let exported = try runWithTerminal([store, "export", "--output", export])
        #expect(exported.terminal.contains("export: ScaleUser 16,384 of 40,000"), "\(exported.terminal)")
        #expect(exported.output == "exported 40000 object(s) to \(export)\n")

        let checked = try runWithTerminal([store, "check"])
        #expect(checked.terminal.contains("check: obj.ScaleUser 16,384 of 40,000"), "\(checked.terminal)")
        #expect(!checked.output.contains("check:"))

        // Without a terminal, nothing but the output.
        let piped = try run("objdb-inspect", [store, "check"])
        #expect(piped.error.isEmpty)
    }

    @Test func installCopiesTheToolsUnderThePrefix() throws {
        // The package root: the built products live in <root>/.build/<triple>/debug.
        var root = builtProductsDirectory()
        while !FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path),
            root.path != "/"
        {
            root.deleteLastPathComponent()
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/make")
        process.arguments = ["-n", "-C", root.path, "install", "PREFIX=\(directory.path)/prefix"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(text.contains("swift build -c release --product objdb-inspect"))
        #expect(
            text.contains(
                "install -m 755 .build/release/objdb-inspect .build/release/objdb-sync \"\(directory.path)/prefix/bin/\""
            ),
            "\(text)")
    }
}
