import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// objdb-inspect on a path that names no regular file: a named pipe (whose opening waited for a
/// writer forever), a device, a directory. Every command answers at once, saying what the path is (#30).
/// Each run is killed and fails the test after 20 seconds: that is the hang's time limit (a
/// `.timeLimit` trait would also count the time a test waits behind others on a loaded machine).
@Suite("objdb-inspect on pipes, devices and directories")
struct InspectSpecialFileTests {
    let directory = TemporaryDirectory()

    static let commands: [[String]] = [
        ["check"], ["info"], ["schema"], ["count"], ["dump", "Tweet"], ["get", "Tweet", "1"], ["export"],
        ["watch", "Tweet"], ["compact", "copy.objdb"],
    ]

    @Test(arguments: commands)
    func aNamedPipeIsRefusedAtOnce(command: [String]) throws {
        let fifo = directory.path + "/pipe.objdb"
        if !FileManager.default.fileExists(atPath: fifo) { #expect(mkfifo(fifo, 0o600) == 0) }
        let result = try runWithin(seconds: 20, "objdb-inspect", [fifo] + command.map { adjust($0) } + ["--no-color"])
        #expect(result.status == 1, "\(command): \(result.error)")
        #expect(result.error.contains("named pipe"), "\(command): \(result.error)")
    }

    @Test(arguments: ["/dev/null", "/dev/zero"])
    func aDeviceIsRefusedAtOnce(device: String) throws {
        for command in [["check"], ["info"], ["count"]] {
            let result = try runWithin(seconds: 20, "objdb-inspect", [device] + command + ["--no-color"])
            #expect(result.status == 1, "\(command): \(result.error)")
            #expect(result.error.contains("character device"), "\(command): \(result.error)")
        }
    }

    @Test func aDirectoryIsRefusedAtOnce() throws {
        for command in [["check"], ["info"], ["count"], ["schema"]] {
            let result = try runWithin(seconds: 20, "objdb-inspect", [directory.path] + command + ["--no-color"])
            #expect(result.status == 1, "\(command): \(result.error)")
            #expect(result.error.contains("directory"), "\(command): \(result.error)")
        }
    }

    private func adjust(_ operand: String) -> String {
        operand == "copy.objdb" ? directory.path + "/copy.objdb" : operand
    }

    /// Runs a built product, killing it if it is still running after `seconds`: a hang fails the test
    /// instead of stalling the suite.
    private func runWithin(seconds: Double, _ product: String, _ arguments: [String]) throws -> (
        status: Int32, error: String
    ) {
        let process = Process()
        process.executableURL = builtProductsDirectory().appendingPathComponent(product)
        process.arguments = arguments
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        try process.run()
        if ended.wait(timeout: .now() + seconds) == .timedOut {
            Issue.record("\(product) \(arguments.joined(separator: " ")) still ran after \(seconds) seconds")
            process.terminate()
            if ended.wait(timeout: .now() + 5) == .timedOut {
                kill(process.processIdentifier, SIGKILL)
                ended.wait()
            }
        }
        _ = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        return (process.terminationStatus, String(decoding: errorData, as: UTF8.self))
    }
}
