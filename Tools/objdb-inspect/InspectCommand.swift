import Foundation
import ObjDB
import ToolSupport

/// `objdb-inspect [--no-color] PATH [COMMAND [OPERANDS] [OPTIONS]]`, `objdb-inspect -h | --help | help [COMMAND]`.
enum InspectCommand {
    /// Every subcommand, in the order help lists them.
    static var subcommands: [any Subcommand.Type] {
        [
            InfoCommand.self, SchemaCommand.self, CountCommand.self, DumpCommand.self, GetCommand.self,
            WatchCommand.self, CheckCommand.self, ExportCommand.self, ImportCommand.self, CompactCommand.self,
            ServeCommand.self,
        ]
    }

    static var usage: String {
        let width = subcommands.map { $0.spec.name.count }.max() ?? 0
        let commands = subcommands.map { command in
            "  " + command.spec.name + String(repeating: " ", count: width + 2 - command.spec.name.count)
                + command.spec.abstract
        }
        return """
            usage: objdb-inspect PATH [COMMAND] [OPERANDS] [OPTIONS]
                   objdb-inspect PATH COMMAND --help
                   objdb-inspect --help

            Browse, query, watch, check and dump an ObjDB store without its Swift classes.
            Opens read-only (safe on a live store) except for import.

            commands:
            \(commands.joined(separator: "\n"))
              (none)\(String(repeating: " ", count: max(0, width - 4)))an interactive shell of these commands

            options: --no-color (also NO_COLOR), -h/--help
            exit codes: 0 ok, 1 failure or problems found, 2 usage
            """
    }

    static func subcommand(named name: String) -> (any Subcommand.Type)? {
        subcommands.first { $0.spec.name == name }
    }

    /// Runs the command line `words` (without the program name); returns the exit code.
    static func main(_ words: [String]) -> Int32 {
        let noColor = words.contains("--no-color")
        let words = words.filter { $0 != "--no-color" }
        let terminal = Terminal(noColor: noColor)
        let output = ByteOutput.standardOutput()
        defer { try? output.flush() }
        do {
            return try run(words, terminal: terminal, output: output).rawValue
        } catch {
            try? output.flush()
            return report(error, command: nil).rawValue
        }
    }

    private static func run(_ words: [String], terminal: Terminal, output: ByteOutput) throws -> ToolExitCode {
        guard let first = words.first else {
            printError(usage)
            return .usage
        }
        if ["-h", "--help", "help"].contains(first) {
            if words.count > 1 {
                guard let command = subcommand(named: words[1]) else {
                    throw UsageError("unknown command '\(words[1])'")
                }
                output.write(command.spec.help(prefix: "objdb-inspect PATH") + "\n")
            } else {
                output.write(usage + "\n")
            }
            return .success
        }
        if CommandSpec.looksLikeOption(first) { throw UsageError("unknown option \(first)") }
        let path = first
        let rest = Array(words.dropFirst())
        if rest.contains("-h") || rest.contains("--help") {
            guard let name = rest.first(where: { !$0.hasPrefix("-") }) else {
                output.write(usage + "\n")
                return .success
            }
            guard let command = subcommand(named: name) else { throw UsageError("unknown command '\(name)'") }
            output.write(command.spec.help(prefix: "objdb-inspect PATH") + "\n")
            return .success
        }
        let context = InspectContext(path: path, terminal: terminal, output: output)
        guard let name = rest.first else {
            try context.requireStore()
            return try Shell(context: context).run()
        }
        return try runCommand(name, Array(rest.dropFirst()), in: context)
    }

    /// Parses, validates and runs one command (the shell's lines come here too).
    static func runCommand(_ name: String, _ arguments: [String], in context: InspectContext) throws -> ToolExitCode {
        guard let type = subcommand(named: name) else {
            if CommandSpec.looksLikeOption(name) { throw UsageError("unknown option \(name)") }
            throw UsageError("unknown command '\(name)'")
        }
        let command: any Subcommand
        do {
            command = try type.init(parsing: try type.spec.parse(arguments))
            try command.validate()
        } catch {
            throw CommandUsageError(error: error, spec: type.spec)
        }
        try context.requireStore()
        let status = try command.run(in: context)
        try context.output.flush()
        return status
    }

    /// Prints what `error` says and returns its exit code: 2 for usage, 1 for anything else.
    @discardableResult
    static func report(_ error: any Error, command: String?) -> ToolExitCode {
        switch error {
        case let usage as CommandUsageError:
            printError("objdb-inspect: \(usage.error.message)")
            printError("usage: objdb-inspect PATH \(usage.spec.synopsis)")
            return .usage
        case let usage as UsageError:
            printError("objdb-inspect: \(usage.message)")
            printError("run 'objdb-inspect --help' for the commands")
            return .usage
        default:
            printError("objdb-inspect: \(describe(error))")
            return .failure
        }
    }

    /// An error in plain words: its own description, never raw `NSError` text.
    static func describe(_ error: any Error) -> String {
        if !(type(of: error) is NSError.Type), !(error is CocoaError) { return String(describing: error) }
        let nsError = error as NSError
        if nsError.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(nsError.code)))
        }
        if let path = nsError.userInfo[NSFilePathErrorKey] as? String,
            let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
            underlying.domain == NSPOSIXErrorDomain
        {
            return "\(path): \(String(cString: strerror(Int32(underlying.code))))"
        }
        return nsError.localizedDescription
    }
}

/// A usage error in one command's line, reported with that command's usage.
struct CommandUsageError: Error {
    let error: UsageError
    let spec: CommandSpec
}

/// A failure the inspector explains itself in one line: exit code 1.
struct InspectError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// One subcommand, as swift-argument-parser shapes one: it declares its operands and options
/// (``spec``), takes its values from a checked command line, validates them, and runs.
protocol Subcommand {
    /// The operands and options the command takes, and its help.
    static var spec: CommandSpec { get }
    /// The command with the values of a command line ``spec`` accepted.
    init(parsing arguments: ParsedCommand) throws(UsageError)
    /// Checks the values together (ranges, choices); a ``UsageError`` exits with code 2.
    func validate() throws(UsageError)
    /// Does the work.
    func run(in context: InspectContext) throws -> ToolExitCode
}

extension Subcommand {
    func validate() throws(UsageError) {}
}

/// What a command runs against: the store's path, the terminal, and standard output.
final class InspectContext {
    let path: String
    let terminal: Terminal
    let output: ByteOutput
    /// Whether commands run inside the interactive shell (Ctrl-C stops a watch there).
    var inShell = false

    init(path: String, terminal: Terminal, output: ByteOutput) {
        self.path = path
        self.terminal = terminal
        self.output = output
    }

    /// Writes `text` and a line break to standard output.
    func print(_ text: String) {
        output.write(text)
        output.write(UInt8(ascii: "\n"))
    }

    /// Fails unless a file is at the path: a missing store is an error, not a shell that fails every command.
    func requireStore() throws {
        var status = stat()
        guard stat(path, &status) == 0 else {
            if errno == ENOENT { throw ObjDBError.storeNotFound(path: path) }
            throw InspectError("cannot open \(path): \(String(cString: strerror(errno)))")
        }
        guard status.st_mode & S_IFMT != S_IFDIR else {
            throw InspectError("\(path) is a directory, not an ObjDB store file")
        }
    }

    /// The store, opened by its stored schema: read-only unless `writable`.
    func open(writable: Bool = false) throws -> Database {
        try requireStore()
        try checkLockFile(writable: writable)
        var configuration = Configuration(path: path)
        configuration.readOnly = !writable
        return try Database(configuration: configuration)
    }

    /// LMDB needs `<store>-lock` even to read: say so, naming the file, when it cannot have it.
    private func checkLockFile(writable: Bool) throws {
        let lock = path + "-lock"
        var status = stat()
        if stat(lock, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
            throw InspectError(
                "cannot open the lock file \(lock): it is not a regular file (LMDB keeps its reader table there)")
        }
        if access(lock, F_OK) == 0 {
            guard access(lock, R_OK | W_OK) == 0 else {
                throw InspectError(
                    "cannot open the lock file \(lock): \(String(cString: strerror(errno)).lowercased()) "
                        + "(LMDB writes its reader table there, even to read)")
            }
        } else {
            let directory = (path as NSString).deletingLastPathComponent
            guard access(directory.isEmpty ? "." : directory, W_OK) == 0 else {
                throw InspectError(
                    "cannot create the lock file \(lock): \(String(cString: strerror(errno)).lowercased()) "
                        + "(LMDB keeps its reader table there, even to read)")
            }
        }
        if writable, access(path, W_OK) != 0 {
            throw InspectError("cannot write to \(path): \(String(cString: strerror(errno)).lowercased())")
        }
    }
}
