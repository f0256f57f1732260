import CEditLine
import Foundation
import ObjDB
import ToolSupport

/// The interactive shell: the same commands, one per line, on the same store.
///
/// On a terminal it reads lines with libedit (Debian's `libedit`, as sqlite3 uses it): ←/→,
/// Home/End, Delete, Ctrl-A/E/K/U/W, ↑/↓ through a history kept across sessions in
/// `~/.objdb_inspect_history` (or `$OBJDB_INSPECT_HISTORY`), Tab completion of commands, types,
/// options and properties. Ctrl-C stops a running `watch` and returns to the prompt. Fed through
/// a pipe, it runs each line and exits 1 when any command failed.
struct Shell {
    let context: InspectContext

    static let builtins = ["help", "history", "quit", "exit"]

    func run() throws -> ToolExitCode {
        let interactive = isatty(STDIN_FILENO) != 0 && isatty(STDOUT_FILENO) != 0
        context.inShell = true
        let schema = try context.open().schema
        var history: [String] = []
        var failed = false
        let reader: LineReader? = interactive ? LineReader(prompt: "objdb> ") : nil
        Completion.candidates = { words in Shell.candidates(after: words, schema: schema) }
        Interrupt.catchInterrupts()
        if interactive {
            context.print(
                "objdb-inspect \(context.path): a command per line; Tab completes, ↑ recalls; 'help', 'history', 'quit'"
            )
            try context.output.flush()
        }
        defer { reader?.saveHistory() }
        while true {
            let next = reader.map { $0.readLine() } ?? Swift.readLine().map(LineReader.Line.text)
            guard let next else { break }
            guard case .text(let line) = next else { continue }  // Ctrl-C at the prompt drops the line
            let words = Shell.split(line)
            guard let first = words.first else { continue }
            history.append(line)
            reader?.remember(line)
            switch first {
            case "quit", "exit":
                return failed && !interactive ? .failure : .success
            case "help":
                if words.count > 1, let command = InspectCommand.subcommand(named: words[1]) {
                    context.print(command.spec.help(prefix: "objdb-inspect PATH"))
                } else {
                    context.print(InspectCommand.usage)
                }
            case "history":
                for (number, entry) in history.enumerated() { context.print("\(number + 1)  \(entry)") }
            default:
                do {
                    Interrupt.reset()
                    if try InspectCommand.runCommand(first, Array(words.dropFirst()), in: context) != .success {
                        failed = true
                    }
                } catch {
                    try? context.output.flush()
                    failed = true
                    InspectCommand.report(error, command: first)
                }
            }
            try? context.output.flush()
        }
        return failed && !interactive ? .failure : .success
    }

    /// What may come next after `words`: commands first, then type names, then options and
    /// the type's property names.
    static func candidates(after words: [String], schema: Schema?) -> [String] {
        let types = schema?.types.filter { !$0.isEmbedded }.map(\.name) ?? []
        guard let command = words.first else {
            return InspectCommand.subcommands.map { $0.spec.name } + builtins
        }
        if command == "help", words.count == 1 { return InspectCommand.subcommands.map { $0.spec.name } }
        guard let spec = InspectCommand.subcommand(named: command)?.spec else { return [] }
        let takesType = spec.operands.first?.name == "TYPE"
        if words.count == 1, takesType { return types }
        let options = spec.options.map { "--" + $0.name }
        guard takesType, words.count >= 2, let type = schema?[words[1]] else { return options }
        let properties = type.properties.map(\.name)
        if let last = words.last, ["--props", "--sort"].contains(last) { return properties }
        return options + properties
    }

    /// Words of a line; single or double quotes keep spaces.
    static func split(_ line: String) -> [String] {
        var words: [String] = []
        var current = ""
        var quote: Character?
        var inWord = false
        for character in line {
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
                inWord = true
            } else if character.isWhitespace {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(character)
                inWord = true
            }
        }
        if inWord { words.append(current) }
        return words
    }
}

/// Lines from the terminal through libedit's readline interface, with a history file.
final class LineReader {
    /// What one read gave.
    enum Line {
        /// A line the user entered.
        case text(String)
        /// Ctrl-C: the line was dropped.
        case interrupted
    }

    private let prompt: String
    private let historyFile: String?

    init(prompt: String) {
        self.prompt = prompt
        let environment = ProcessInfo.processInfo.environment
        historyFile =
            environment["OBJDB_INSPECT_HISTORY"] ?? environment["HOME"].map { $0 + "/.objdb_inspect_history" }
        objdb_readline_setup { text, start, _ in Completion.complete(text, start) }
        stifle_history(1000)
        if let historyFile { _ = read_history(historyFile) }
    }

    /// The next line; `nil` at the end of input (Ctrl-D).
    func readLine() -> Line? {
        Interrupt.reset()
        guard let line = readline(prompt) else {
            if Interrupt.isRaised {
                Interrupt.reset()
                FileHandle.standardOutput.write(Data("\n".utf8))
                return .interrupted
            }
            FileHandle.standardOutput.write(Data("\n".utf8))
            return nil
        }
        defer { free(line) }
        if Interrupt.isRaised {
            Interrupt.reset()
            return .interrupted
        }
        return .text(String(cString: line))
    }

    /// Adds `line` to the history.
    func remember(_ line: String) {
        add_history(line)
    }

    /// Writes the history file.
    func saveHistory() {
        if let historyFile { _ = write_history(historyFile) }
    }
}

/// Tab completion for libedit, which calls back through C function pointers: one shell per process.
enum Completion {
    // nonisolated(unsafe): set once before the first line is read, read only on the main thread
    // by libedit's callbacks.
    nonisolated(unsafe) static var candidates: ([String]) -> [String] = { _ in [] }
    nonisolated(unsafe) private static var matches: [String] = []
    nonisolated(unsafe) private static var next = 0

    /// `rl_attempted_completion_function`: the candidates for the word at `start` of the line.
    static func complete(_ text: UnsafePointer<CChar>?, _ start: Int32) -> UnsafeMutablePointer<
        UnsafeMutablePointer<CChar>?
    >? {
        objdb_readline_completion_over()
        let line = objdb_readline_line().map { String(cString: $0) } ?? ""
        let before = String(line.utf8.prefix(Int(start))) ?? ""
        let partial = text.map { String(cString: $0) } ?? ""
        matches = candidates(Shell.split(before)).filter { $0.hasPrefix(partial) }.sorted()
        next = 0
        guard let text else { return nil }
        return rl_completion_matches(text) { _, state in
            if state == 0 { Completion.next = 0 }
            guard Completion.next < Completion.matches.count else { return nil }
            defer { Completion.next += 1 }
            return strdup(Completion.matches[Completion.next])
        }
    }
}
