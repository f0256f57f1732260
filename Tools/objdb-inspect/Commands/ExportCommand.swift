import Foundation
import ObjDB
import ToolSupport

/// `export [TYPE…]`: every object as JSON, one per line (ndjson) or grouped by type (json).
///
/// Each object carries `_type` and `_key`; links are the linked object's key, so `import` round-trips.
struct ExportCommand {
    let path: String
    let types: [String]
    let format: String
    let output: String?

    func run() throws -> ToolExitCode {
        let database = try InspectCommand.open(path)
        let names = types.isEmpty ? database.schema.types.filter { !$0.isEmbedded }.map(\.name) : types
        var lines: [String] = []
        var grouped: [String: [[String: Any]]] = [:]
        try database.read { view in
            for name in names {
                for object in try view.dynamicObjects(name) {
                    var json = try object.values().mapValues(\.jsonValue)
                    json["_type"] = name
                    json["_key"] = object.objectKey.jsonValue
                    if format == "ndjson" {
                        lines.append(try jsonText(json))
                    } else {
                        grouped[name, default: []].append(json)
                    }
                }
            }
        }
        let text = format == "ndjson" ? lines.joined(separator: "\n") : try jsonText(grouped, pretty: true)
        if let output {
            try Data((text + "\n").utf8).write(to: URL(fileURLWithPath: output))
        } else {
            print(text)
        }
        return .success
    }
}
