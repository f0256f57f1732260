import Foundation
import ObjDB
import ToolSupport

/// `dump TYPE`: the objects of a type, filtered, sorted and paged, as a table, JSON, NDJSON or CSV.
struct DumpCommand {
    let path: String
    let type: String
    let arguments: CommandLineArguments
    let terminal: Terminal

    func run() throws -> ToolExitCode {
        let format = arguments.value("format") ?? "table"
        guard ["table", "json", "ndjson", "csv"].contains(format) else {
            throw UsageError("--format is table, json, ndjson or csv")
        }
        let limit = try arguments.integer("limit", default: -1)
        let offset = try arguments.integer("offset", default: 0)
        let sorts = (arguments.value("sort") ?? "").split(separator: ",").map { field -> SortKey in
            field.hasPrefix("-") ? SortKey(String(field.dropFirst()), ascending: false) : SortKey(String(field))
        }
        let database = try InspectCommand.open(path)
        guard let schema = database.schema[type] else { throw ObjDBError.unknownType(type) }
        let stored = schema.properties.filter { $0.isStored }.map(\.name)
        let props = arguments.value("props").map { $0.split(separator: ",").map(String.init) } ?? stored
        for name in props where schema[name] == nil { throw ObjDBError.unknownProperty(type: type, property: name) }

        return try database.read { view in
            let objects = try view.dynamicObjects(
                type, filter: arguments.value("where"), sortedBy: sorts, limit: limit >= 0 ? offset + limit : nil)
            let page = objects.dropFirst(offset)
            switch format {
            case "json":
                print(try jsonText(try page.map { try jsonObject($0, props) }, pretty: true))
            case "ndjson":
                for object in page { print(try jsonText(try jsonObject(object, props))) }
            case "csv":
                print(props.map(csvField).joined(separator: ","))
                for object in page {
                    print(
                        try props.map { csvField(ValueText.cell(try object.value(forKey: $0))) }.joined(separator: ","))
                }
            default:
                let rows = try page.map { object in try props.map { ValueText.cell(try object.value(forKey: $0)) } }
                print(FittedTable(header: props, rows: rows).render(width: terminal.width, terminal: terminal))
                print(terminal.dim("(\(rows.count) of \(try view.count(type)) \(type))"))
            }
            return .success
        }
    }

    private func jsonObject(_ object: DynamicObject, _ props: [String]) throws -> [String: Any] {
        var json: [String: Any] = [:]
        for name in props { json[name] = try object.value(forKey: name).jsonValue }
        return json
    }

    private func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
