import Foundation

/// A directory of its own for one test, removed when the test lets go of it.
final class TemporaryDirectory {
    let path: String

    init() {
        path =
            FileManager.default.temporaryDirectory
            .appendingPathComponent("objdb-tests-\(UUID().uuidString)").path
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// A path for a store file inside the directory.
    func store(_ name: String = "store.objdb") -> String {
        path + "/" + name
    }
}

/// The directory holding the test binary and the package's other built products.
func builtProductsDirectory() -> URL {
    let executable =
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        ?? CommandLine.arguments[0]
    return URL(fileURLWithPath: executable).deletingLastPathComponent()
}

/// Runs a built product of this package to completion and returns its exit code and output.
@discardableResult
func runProduct(_ name: String, _ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
    let process = Process()
    process.executableURL = builtProductsDirectory().appendingPathComponent(name)
    process.arguments = arguments
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (
        process.terminationStatus, String(decoding: outputData, as: UTF8.self),
        String(decoding: errorData, as: UTF8.self)
    )
}
