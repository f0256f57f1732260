import Foundation

/// What a run of a built program printed, and how it ended.
public struct ToolRun {
    /// The exit code.
    public let status: Int32
    /// Standard output.
    public let output: String
    /// Standard error.
    public let error: String
}

/// The directory holding the test binary and the package's other built products.
public func builtProductsDirectory() -> URL {
    let executable =
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    return URL(fileURLWithPath: executable).deletingLastPathComponent()
}

/// Runs a built product of this package to completion and captures what it printed.
public func run(_ product: String, _ arguments: [String], environment: [String: String] = [:]) throws -> ToolRun {
    let process = Process()
    process.executableURL = builtProductsDirectory().appendingPathComponent(product)
    process.arguments = arguments
    if !environment.isEmpty {
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
    }
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
