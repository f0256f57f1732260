import Foundation
import Synchronization

/// A one-line progress bar on standard error, drawn only when standard error is a terminal.
/// Sendable: fetches report pages from the concurrency pool.
final class ProgressBar: Sendable {
    private let total: Int
    private let noun: String
    private let isTerminal = isatty(STDERR_FILENO) != 0
    private let drawnState = Mutex(false)
    private var drawn: Bool {
        get { drawnState.withLock { $0 } }
        set { drawnState.withLock { $0 = newValue } }
    }

    private let unit: String

    init(total: Int, noun: String, unit: String = "files") {
        self.total = total
        self.noun = noun
        self.unit = unit
    }

    /// Redraws the bar: `done` files of `total`, the file now being read, and the items so far.
    func update(done: Int, current: String, items: Int) {
        guard isTerminal else { return }
        let width = 24
        let filled = total == 0 ? width : done * width / total
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let name = current.hasPrefix("page ") ? current : URL(fileURLWithPath: current).lastPathComponent
        let shown = name.count > 32 ? "…" + name.suffix(31) : name
        write("\r\u{1B}[2K[\(bar)] \(done)/\(total) \(unit), \(items) \(noun)  \(shown)")
        drawn = true
    }

    /// Erases the bar, before other output and at the end.
    func clear() {
        guard isTerminal, drawn else { return }
        write("\r\u{1B}[2K")
        drawn = false
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
