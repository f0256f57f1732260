import Foundation
import ToolSupport

/// The interactive shell: the same commands, one per line, on the same store.
struct Shell {
    let path: String
    let terminal: Terminal

    func run() throws -> ToolExitCode {
        let interactive = isatty(STDIN_FILENO) != 0
        var history: [String] = []
        if interactive { print("objdb-inspect \(path): type a command, 'help', 'history' or 'quit'") }
        while true {
            if interactive {
                print("objdb> ", terminator: "")
                fflush(nil)
            }
            guard let line = readLine() else { break }
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
