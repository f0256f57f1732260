/// Lays rows out in columns: the first left-aligned, the others right-aligned, as `mdb_stat` prints numbers.
public struct TextTable: Sendable {
    private let header: [String]
    private var rows: [[String]] = []

    /// Creates a table with the column titles `header`.
    public init(header: [String]) { self.header = header }

    /// Appends a row; missing cells print empty.
    public mutating func append(_ row: [String]) { rows.append(row) }

    /// The table as lines of text, the header first.
    public func render(indent: String = "") -> String {
        let all = [header] + rows
        let widths = header.indices.map { column in
            all.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0
        }
        return all.map { row in
            let cells = header.indices.map { column -> String in
                let cell = column < row.count ? row[column] : ""
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 ? cell + padding : padding + cell
            }
            return indent + cells.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
