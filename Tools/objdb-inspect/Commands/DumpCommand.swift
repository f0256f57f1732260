import Foundation
import ObjDB
import ObjDBInspection
import ToolSupport

/// `dump TYPE`: the objects of a type, filtered, sorted and paged, as a table, JSON, NDJSON or CSV,
/// streamed from the store to the output one object at a time.
struct DumpCommand: Subcommand {
    static let spec = CommandSpec(
        name: "dump", abstract: "objects of a type, filtered, sorted, paged",
        discussion: """
            PREDICATE is the string predicate syntax (retweetCount > 10 AND lang == 'en'), and may end
            in SORT(a DESC) DISTINCT(b) LIMIT(n), applied as written; --sort then sorts what it left
            (its ties kept in that order) and --offset/--limit page the result. -B sorts descending. Links print as Type(key) in tables and as keys in JSON and CSV; tables
            summarize lists, JSON holds them whole, CSV holds them as JSON. Dates are exact ISO 8601.
            """,
        operands: [.init("TYPE")],
        options: [
            .value("where", "PREDICATE", "only the objects that match"),
            .value("sort", "A,-B", "sort by A, then by B descending"),
            .value("limit", "N", "at most N objects"),
            .value("offset", "N", "skip the first N objects"),
            .value("props", "A,B", "only these properties, in this order"),
            .value("format", "FORMAT", "table (default), json, ndjson or csv"),
            .value("time-limit", "MS", "stop the query after MS milliseconds"),
        ])

    let type: String
    let filter: String?
    let sorts: [SortKey]
    let limit: Int?
    let offset: Int
    let properties: [String]?
    let format: String
    let timeLimit: Int?

    init(parsing arguments: ParsedCommand) throws(UsageError) {
        type = arguments.operands[0]
        filter = arguments.value("where")
        var sorts: [SortKey] = []
        for field in (arguments.value("sort") ?? "").split(separator: ",", omittingEmptySubsequences: false)
        where arguments.value("sort") != nil {
            let name = field.hasPrefix("-") ? field.dropFirst() : field
            guard !name.isEmpty else { throw UsageError("--sort takes property names: A,-B") }
            sorts.append(SortKey(String(name), ascending: !field.hasPrefix("-")))
        }
        self.sorts = sorts
        limit = try arguments.integer("limit", in: 0...Int.max)
        offset = try arguments.integer("offset", in: 0...Int.max) ?? 0
        properties = arguments.value("props").map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        format = try arguments.choice("format", of: ["table", "json", "ndjson", "csv"]) ?? "table"
        timeLimit = try arguments.integer("time-limit", in: 1...86_400_000)
    }

    func validate() throws(UsageError) {
        if let properties, properties.contains(where: \.isEmpty) {
            throw UsageError("--props takes property names: A,B")
        }
    }

    func run(in context: InspectContext) throws -> ToolExitCode {
        let database = try context.open()
        let output = context.output
        return try database.read { view in
            let scan = try ObjectScan(view: view, type: type, filter: filter, sorts: sorts)
            let writer = try ObjectTextWriter(scan: scan, properties: properties)
            let deadline = timeLimit.map { QueryDeadline.after(.milliseconds($0)) }
            switch format {
            case "ndjson":
                try scan.forEach(offset: offset, limit: limit, deadline: deadline) { object in
                    try writer.writeJSON(object, to: output)
                    output.write(UInt8(ascii: "\n"))
                    return true
                }
            case "json":
                var first = true
                output.write("[")
                try scan.forEach(offset: offset, limit: limit, deadline: deadline) { object in
                    output.write(first ? "\n  " : ",\n  ")
                    first = false
                    try writer.writeJSON(object, to: output)
                    return true
                }
                output.write(first ? "]\n" : "\n]\n")
            case "csv":
                writer.writeCSVHeader(to: output)
                let scratch = ByteBuffer()
                try scan.forEach(offset: offset, limit: limit, deadline: deadline) { object in
                    try writer.writeCSV(object, scratch: scratch, to: output)
                    return true
                }
            default:
                let table = TablePrinter(
                    header: writer.properties.map(\.name), width: context.terminal.width, terminal: context.terminal,
                    output: output)
                let cells = writer.properties.map { _ in ByteBuffer() }
                try scan.forEach(offset: offset, limit: limit, deadline: deadline) { object in
                    try writer.writeCells(object, into: cells)
                    table.add(cells)
                    return true
                }
                table.finish()
                context.print(context.terminal.dim("(\(table.rowCount) of \(try view.count(type)) \(type))"))
            }
            return .success
        }
    }
}
