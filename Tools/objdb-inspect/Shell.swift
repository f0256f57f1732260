import Foundation
import ObjDB
import ToolSupport

/// The interactive shell: the same commands, one per line, on the same store.
struct Shell {
    let path: String
    let terminal: Terminal

    static let commands = [
        "info", "schema", "count", "dump", "get", "watch", "check", "export", "import", "compact",
        "help", "history", "quit",
    ]
    static let options = ["--where", "--sort", "--limit", "--offset", "--props", "--format", "--json", "--output"]

    func run() throws -> ToolExitCode {
        let interactive = isatty(STDIN_FILENO) != 0 && isatty(STDOUT_FILENO) != 0
        var history: [String] = []
        let schema = try? InspectCommand.open(path).schema
        let editor = LineEditor(prompt: "objdb> ") { words in Shell.candidates(after: words, schema: schema) }
        if interactive {
            print("objdb-inspect \(path): a command per line; Tab completes, ↑ recalls; 'help', 'history', 'quit'")
        }
        while true {
            let next = interactive ? editor.readLine() : Swift.readLine()
            guard let line = next else { break }
            let words = Shell.split(line)
            guard let first = words.first else { continue }
            history.append(line)
            switch first {
            case "quit", "exit": return .success
            case "help":
                print(InspectCommand.usage)
                continue
            case "history":
                for (number, entry) in history.enumerated() { print("\(number + 1)  \(entry)") }
                continue
            default:
                break
            }
            do {
                let arguments = try CommandLineArguments(words, valueOptions: InspectCommand.valueOptions)
                _ = try InspectCommand.runCommand(
                    path: path, words: arguments.positional, arguments: arguments, terminal: terminal)
            } catch {
                printError("error: \(error)")
            }
            fflush(nil)
        }
        return .success
    }

    /// What may come next after `words`: commands first, then type names, then options and
    /// the type's property names.
    static func candidates(after words: [String], schema: Schema?) -> [String] {
        let types = schema?.types.filter { !$0.isEmbedded }.map(\.name) ?? []
        guard let command = words.first else { return commands }
        if words.count == 1, ["count", "dump", "get", "watch", "export"].contains(command) { return types }
        guard words.count >= 2, let type = schema?[words[1]] else { return [] }
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
