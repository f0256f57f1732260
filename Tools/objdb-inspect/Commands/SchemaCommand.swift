import Foundation
import ObjDB
import ToolSupport

/// `schema [--json]`: every type and its properties, as stored in the file.
struct SchemaCommand: Subcommand {
    static let spec = CommandSpec(
        name: "schema", abstract: "types and properties",
        discussion:
            "Every type and property: type, optional, primary key, index, link target, inverse, delete rule; "
            + "each type's uniqueness constraints.",
        options: [.flag("json", "the schema as JSON")])

    let json: Bool

    init(parsing arguments: ParsedCommand) {
        json = arguments.has("json")
    }

    func run(in context: InspectContext) throws -> ToolExitCode {
        let schema = try context.open().schema
        let terminal = context.terminal
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            context.print(String(decoding: try encoder.encode(schema), as: UTF8.self))
            return .success
        }
        context.print("Schema version \(schema.version), \(schema.types.count) type(s)")
        for type in schema.types {
            context.print("")
            let key =
                type.primaryKey.map { "primary key \($0.name)" } ?? (type.isEmbedded ? "embedded" : "internal IDs")
            context.print(terminal.bold(type.name) + " (\(key))")
            let rows = type.properties.map { property -> [String] in
                var flags: [String] = []
                if property.isPrimaryKey { flags.append("primary key") }
                if let index = property.index, !property.isPrimaryKey {
                    flags.append(index == .unique ? "unique" : "indexed")
                }
                if let origin = property.originProperty {
                    flags.append("inverse of \(property.objectType ?? "").\(origin)")
                }
                if let rule = property.deleteRule, rule != .nullify { flags.append("on delete \(rule.rawValue)") }
                return [property.name, property.typeDescription, flags.joined(separator: ", "), String(property.id)]
            }
            context.print(
                FittedTable(header: ["Property", "Type", "", "ID"], rows: rows).render(
                    width: terminal.width, terminal: terminal))
            for constraint in type.uniquenessConstraints {
                context.print("unique together: " + constraint.joined(separator: ", "))
            }
        }
        return .success
    }
}
