import Foundation

/// Reads lines from a terminal: editing, history with ↑ and ↓, completion with Tab.
///
/// The terminal is put in non-canonical mode without echo while a line is read, and
/// restored after; output processing stays on, so commands print as usual.
final class LineEditor {
    private let prompt: String
    private let candidates: ([String]) -> [String]
    private(set) var history: [String] = []

    /// - Parameter candidates: the words that may complete the last word, given the words before it.
    init(prompt: String, candidates: @escaping ([String]) -> [String]) {
        self.prompt = prompt
        self.candidates = candidates
    }

    /// The next line, or `nil` at end of input (Ctrl-D on an empty line).
    func readLine() -> String? {
        var original = termios()
        tcgetattr(STDIN_FILENO, &original)
        var raw = original
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        tcsetattr(STDIN_FILENO, TCSADRAIN, &raw)
        defer { tcsetattr(STDIN_FILENO, TCSADRAIN, &original) }

        var line: [UInt8] = []
        var recalled = history.count
        redraw(line)
        while true {
            guard let byte = readByte() else { return line.isEmpty ? nil : finish(line) }
            switch byte {
            case 13, 10:
                return finish(line)
            case 127, 8:
                if !line.isEmpty {
                    line.removeLast()
                    while let last = line.last, last & 0xC0 == 0x80 { line.removeLast() }
                }
            case 4:
                if line.isEmpty {
                    write("\n")
                    return nil
                }
            case 3:
                write("^C\n")
                line = []
            case 9:
                line = complete(line)
            case 27:
                guard readByte() == 91, let arrow = readByte() else { continue }
                if arrow == 65, recalled > 0 {
                    recalled -= 1
                    line = Array(history[recalled].utf8)
                } else if arrow == 66, recalled < history.count {
                    recalled += 1
                    line = recalled == history.count ? [] : Array(history[recalled].utf8)
                }
            default:
                if byte >= 32 { line.append(byte) }
            }
            redraw(line)
        }
    }

    private func finish(_ line: [UInt8]) -> String {
        write("\n")
        let text = String(decoding: line, as: UTF8.self)
        if !text.trimmingCharacters(in: .whitespaces).isEmpty { history.append(text) }
        return text
    }

    /// Completes the last word: alone when one candidate fits, to their common prefix when several do
    /// (listing them when that adds nothing).
    private func complete(_ line: [UInt8]) -> [UInt8] {
        let text = String(decoding: line, as: UTF8.self)
        var words = Shell.split(text)
        let partial = text.last.map { $0.isWhitespace } ?? true ? "" : (words.popLast() ?? "")
        let matches = candidates(words).filter { $0.hasPrefix(partial) }.sorted()
        guard !matches.isEmpty else { return line }
        let base = String(text.dropLast(partial.count))
        if matches.count == 1 { return Array((base + matches[0] + " ").utf8) }
        let common = matches.dropFirst().reduce(matches[0]) { prefix, word in
            String(zip(prefix, word).prefix { $0 == $1 }.map(\.0))
        }
        if common.count > partial.count { return Array((base + common).utf8) }
        write("\n" + matches.joined(separator: "  ") + "\n")
        return line
    }

    private func redraw(_ line: [UInt8]) {
        write("\r\u{1B}[K" + prompt + String(decoding: line, as: UTF8.self))
    }

    private func readByte() -> UInt8? {
        var byte: UInt8 = 0
        return read(STDIN_FILENO, &byte, 1) == 1 ? byte : nil
    }

    private func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}
