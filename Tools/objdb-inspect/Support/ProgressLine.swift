import Foundation
import Synchronization

/// Progress of a long command on a terminal: rows done, rate and an estimate, on one line of
/// standard error, redrawn at most ten times a second. Never made when standard error is not a
/// terminal, so piped and redirected output stays clean.
final class ProgressLine: Sendable {
    private struct State {
        var started = Date()
        var lastDrawn = Date.distantPast
        var shown = false
    }

    private let label: String
    private let state = Mutex(State())

    /// A progress line labelled `label`, or `nil` when standard error is not a terminal.
    init?(label: String) {
        guard isatty(STDERR_FILENO) != 0 else { return nil }
        self.label = label
    }

    /// Shows `done` of `total` (`total` 0: unknown) and what is being done.
    func update(done: Int, total: Int, detail: String) {
        state.withLock { state in
            let now = Date()
            guard now.timeIntervalSince(state.lastDrawn) >= 0.1 else { return }
            state.lastDrawn = now
            let elapsed = max(now.timeIntervalSince(state.started), 0.001)
            let rate = Double(done) / elapsed
            var text = "\(label): \(detail) \(Self.grouped(done))"
            if total > 0 {
                text += " of \(Self.grouped(total)) (\(min(100, done * 100 / max(total, 1)))%)"
            }
            text += ", \(Self.grouped(Int(rate)))/s"
            if total > done, rate > 0 { text += ", \(Int((Double(total - done) / rate).rounded(.up))) s left" }
            Self.write("\r\u{1B}[K" + text)
            state.shown = true
        }
    }

    /// Removes the line, so other output can take its place.
    func clear() {
        state.withLock { state in
            if state.shown { Self.write("\r\u{1B}[K") }
            state.shown = false
            state.lastDrawn = .distantPast
        }
    }

    /// Removes the line for good.
    func finish() {
        clear()
    }

    private static func write(_ text: String) {
        var text = text
        text.withUTF8 { _ = Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    private static func grouped(_ number: Int) -> String {
        let digits = String(number)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return result
    }
}
