import Foundation

/// The exit codes every ObjDB tool documents: 0 ok, 1 failure or problems found, 2 usage.
public enum ToolExitCode: Int32, Sendable {
    /// The command did what was asked.
    case success = 0
    /// The command failed, or found problems it reports.
    case failure = 1
    /// The command line was wrong; nothing was done.
    case usage = 2
}

/// Writes `message` and a newline to standard error.
public func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// Runs a tool's `main`, mapping what it throws to a message on stderr and an exit code.
///
/// - Parameters:
///   - tool: the program name, prefixed to messages.
///   - usage: printed after a ``UsageError``.
public func runTool(_ tool: String, usage: String, _ main: () throws -> ToolExitCode) -> Never {
    do {
        exit(try main().rawValue)
    } catch let error as UsageError {
        printError("\(tool): \(error.message)")
        printError(usage)
        exit(ToolExitCode.usage.rawValue)
    } catch {
        printError("\(tool): \(error)")
        exit(ToolExitCode.failure.rawValue)
    }
}
