import Foundation
import ObjDB
import ToolSupport

/// `schema [--json]`: every type and its properties, as stored in the file.
struct SchemaCommand {
    let path: String
    let json: Bool
    let terminal: Terminal

    func run() throws -> ToolExitCode {
        let schema = try InspectCommand.open(path).schema
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(schema), as: UTF8.self))
            return .success
        }
        print("Schema version \(schema.version), \(schema.types.count) type(s)")
        for type in schema.types {
            print("")
            let key =
                type.primaryKey.map { "primary key \($0.name)" } ?? (type.isEmbedded ? "embedded" : "internal IDs")
            print(terminal.bold(type.name) + " (\(key))")
            let rows = type.properties.map { property -> [String] in
                var flags: [String] = []
                if property.isPrimaryKey { flags.append("primary key") }
                if let index = property.index, !property.isPrimaryKey {
                    flags.append(index == .unique ? "unique" : "indexed")
                }
                if let origin = property.originProperty {
                    flags.append("inverse of \(property.objectType ?? "").\(origin)")
                }
                return [property.name, property.typeDescription, flags.joined(separator: ", "), String(property.id)]
            }
            print(
                FittedTable(header: ["Property", "Type", "", "ID"], rows: rows).render(
                    width: terminal.width, terminal: terminal))
        }
        return .success
    }
}
