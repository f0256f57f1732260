import Foundation

/// Runs a built tool of this package and captures what it printed.
struct ToolRun {
    let status: Int32
    let output: String
    let error: String
}

func builtProductsDirectory() -> URL {
    let executable =
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    return URL(fileURLWithPath: executable).deletingLastPathComponent()
}

func run(_ tool: String, _ arguments: [String]) throws -> ToolRun {
    let process = Process()
    process.executableURL = builtProductsDirectory().appendingPathComponent(tool)
    process.arguments = arguments
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return ToolRun(
        status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
        error: String(decoding: errorData, as: UTF8.self))
}

/// A directory of its own for one test, removed afterwards.
final class TemporaryDirectory {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("objdb-tools-\(UUID().uuidString)").path
    init() { try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}
