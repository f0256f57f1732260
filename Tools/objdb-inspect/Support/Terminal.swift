import Foundation

/// What the output goes to: its width, and whether it takes color.
struct Terminal {
    let width: Int
    let usesColor: Bool

    init(noColor: Bool) {
        // Display widths (wcwidth) of any script, whatever the environment's locale.
        if setlocale(LC_CTYPE, "C.UTF-8") == nil { setlocale(LC_CTYPE, "") }
        let isTTY = isatty(STDOUT_FILENO) != 0
        var size = winsize()
        if isTTY, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            width = Int(size.ws_col)
        } else {
            width = Int(ProcessInfo.processInfo.environment["COLUMNS"] ?? "").flatMap { $0 > 0 ? $0 : nil } ?? 120
        }
        usesColor = isTTY && !noColor && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
    }

    func bold(_ text: String) -> String { usesColor ? "\u{1B}[1m\(text)\u{1B}[0m" : text }
    func dim(_ text: String) -> String { usesColor ? "\u{1B}[2m\(text)\u{1B}[0m" : text }
    func green(_ text: String) -> String { usesColor ? "\u{1B}[32m\(text)\u{1B}[0m" : text }
    func red(_ text: String) -> String { usesColor ? "\u{1B}[31m\(text)\u{1B}[0m" : text }
}

/// Columns that fit a width: long cells are cut with "…", the widest columns first.
struct FittedTable {
    let header: [String]
    let rows: [[String]]

    func render(width: Int, terminal: Terminal) -> String {
        guard !header.isEmpty else { return "" }
        var widths = header.indices.map { column in
            ([header[column]] + rows.map { column < $0.count ? $0[column] : "" }).map(\.count).max() ?? 0
        }
        let separators = 2 * (widths.count - 1)
        while widths.reduce(0, +) + separators > width,
            let widest = widths.indices.max(by: { widths[$0] < widths[$1] }),
            widths[widest] > 3
        {
            widths[widest] -= 1
        }
        func fit(_ text: String, _ width: Int) -> String {
            if text.count <= width { return text + String(repeating: " ", count: width - text.count) }
            return String(text.prefix(max(0, width - 1))) + "…"
        }
        var lines = [terminal.bold(header.indices.map { fit(header[$0], widths[$0]) }.joined(separator: "  "))]
        for row in rows {
            lines.append(header.indices.map { fit($0 < row.count ? row[$0] : "", widths[$0]) }.joined(separator: "  "))
        }
        return lines.map { $0.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
            .joined(separator: "\n")
    }
}
