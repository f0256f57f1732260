import CEditLine
import Foundation
import ObjDB
import ObjDBInspection

/// Prints rows as columns that fit the terminal, as they come: the first rows set the column
/// widths (the widest columns give way first, long cells are cut with `…`), and every row after
/// them is printed at once, so a table of any length needs only the first rows in memory.
final class TablePrinter {
    private let header: [[UInt8]]
    private let width: Int
    private let terminal: Terminal
    private let output: ByteOutput
    private let sampleSize: Int
    private var sample: [[[UInt8]]] = []
    private var widths: [Int]?
    private var line: [UInt8] = []
    /// Rows printed or held.
    private(set) var rowCount = 0

    init(header: [String], width: Int, terminal: Terminal, output: ByteOutput, sampleSize: Int = 200) {
        self.header = header.map { Array($0.utf8) }
        self.width = width
        self.terminal = terminal
        self.output = output
        self.sampleSize = sampleSize
    }

    /// Adds a row of cells (UTF-8, already escaped).
    func add(_ cells: [ByteBuffer]) {
        rowCount += 1
        if let widths {
            printRow(cells.map(\.bytes), widths)
            return
        }
        sample.append(cells.map(\.bytes))
        if sample.count >= sampleSize { printSample() }
    }

    /// Prints what is held.
    func finish() {
        if widths == nil { printSample() }
    }

    private func printSample() {
        var widths = header.map(Self.displayWidth)
        for row in sample {
            for (column, cell) in row.enumerated() where column < widths.count {
                widths[column] = max(widths[column], Self.displayWidth(cell))
            }
        }
        let separators = 2 * max(0, widths.count - 1)
        while widths.reduce(0, +) + separators > width,
            let widest = widths.indices.max(by: { widths[$0] < widths[$1] }), widths[widest] > 3
        {
            widths[widest] -= 1
        }
        self.widths = widths
        if terminal.usesColor { output.write("\u{1B}[1m") }
        printRow(header, widths, endLine: false)
        if terminal.usesColor { output.write("\u{1B}[0m") }
        output.write(UInt8(ascii: "\n"))
        for row in sample { printRow(row, widths) }
        sample = []
    }

    private func printRow(_ cells: [[UInt8]], _ widths: [Int], endLine: Bool = true) {
        line.removeAll(keepingCapacity: true)
        for (column, columnWidth) in widths.enumerated() {
            if column > 0 { line.append(contentsOf: [0x20, 0x20]) }
            let cell = column < cells.count ? cells[column] : []
            Self.fit(cell, columnWidth, into: &line)
        }
        while line.last == 0x20 { line.removeLast() }
        output.write(line)
        if endLine { output.write(UInt8(ascii: "\n")) }
    }

    /// Appends `cell` padded or cut to `width` columns.
    private static func fit(_ cell: [UInt8], _ width: Int, into line: inout [UInt8]) {
        var used = 0
        var index = 0
        let total = displayWidth(cell)
        if total <= width {
            line.append(contentsOf: cell)
            line.append(contentsOf: repeatElement(0x20, count: width - total))
            return
        }
        while index < cell.count {
            let (scalarWidth, length) = scalar(cell, at: index)
            if used + scalarWidth > width - 1 { break }
            line.append(contentsOf: cell[index..<index + length])
            used += scalarWidth
            index += length
        }
        line.append(contentsOf: Array("…".utf8))
        used += 1
        line.append(contentsOf: repeatElement(0x20, count: max(0, width - used)))
    }

    /// The columns `text` takes on a terminal.
    static func displayWidth(_ text: [UInt8]) -> Int {
        var width = 0
        var index = 0
        while index < text.count {
            let (scalarWidth, length) = scalar(text, at: index)
            width += scalarWidth
            index += length
        }
        return width
    }

    /// The width and UTF-8 length of the scalar at `index`.
    private static func scalar(_ text: [UInt8], at index: Int) -> (width: Int, length: Int) {
        let lead = text[index]
        if lead < 0x80 { return (1, 1) }
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        guard index + length <= text.count else { return (1, 1) }
        var value = UInt32(lead) & (length == 4 ? 0x07 : length == 3 ? 0x0F : 0x1F)
        for offset in 1..<max(length, 1) { value = value << 6 | UInt32(text[index + offset] & 0x3F) }
        let width = objdb_wcwidth(value)
        return (width < 0 ? 1 : Int(width), length)
    }
}
