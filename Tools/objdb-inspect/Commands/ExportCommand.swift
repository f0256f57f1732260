import Foundation
import ObjDB
import ObjDBInspection
import ToolSupport

/// `export [TYPE…]`: every object as JSON, one per line (ndjson) or grouped by type (json),
/// streamed from one snapshot.
///
/// Each object carries `_type` and `_key`; links are the linked object's key, so `import` round-trips.
struct ExportCommand: Subcommand {
    static let spec = CommandSpec(
        name: "export", abstract: "objects as JSON, with _type and _key, for import",
        discussion: """
            Every object of the TYPEs (all types by default) from one snapshot, with _type and _key;
            links as the linked object's key. Values round-trip exactly through import: dates as
            exact ISO 8601, doubles in their shortest exact form, data as base64, decimals as text.
            """,
        operands: [.init("TYPE", repeating: true)],
        options: [
            .value("format", "FORMAT", "ndjson (default: one object per line) or json (grouped by type)"),
            .value("output", "FILE", "write to FILE instead of standard output"),
        ])

    let types: [String]
    let format: String
    let outputPath: String?

    init(parsing arguments: ParsedCommand) throws(UsageError) {
        types = arguments.operands
        format = try arguments.choice("format", of: ["ndjson", "json"]) ?? "ndjson"
        outputPath = arguments.value("output")
    }

    func validate() throws(UsageError) {
        if outputPath?.isEmpty == true { throw UsageError("--output needs a file name") }
    }

    func run(in context: InspectContext) throws -> ToolExitCode {
        let database = try context.open()
        let names = types.isEmpty ? Self.linkTargetsFirst(database.schema) : types
        for name in names {
            guard let type = database.schema[name] else { throw ObjDBError.unknownType(name) }
            if type.isEmbedded { throw InspectError("\(name) is embedded: it is exported inside its owners") }
        }
        let output = try outputPath.map { try ByteOutput.file(atPath: $0) } ?? context.output
        // Progress only when it cannot mix with the export on the same terminal.
        let progress = outputPath != nil || isatty(STDOUT_FILENO) == 0 ? ProgressLine(label: "export") : nil
        var exported = 0
        try database.read { view in
            let total = try names.reduce(0) { $0 + (try view.count($1)) }
            if format == "json" { output.write("{") }
            for (typeIndex, name) in names.enumerated() {
                let scan = try ObjectScan(view: view, type: name)
                let writer = try ObjectTextWriter(scan: scan)
                var first = true
                if format == "json" {
                    output.write(typeIndex == 0 ? "\n  " : ",\n  ")
                    output.write("\"\(name)\": [")
                }
                try scan.forEach { object in
                    if format == "json" {
                        output.write(first ? "\n    " : ",\n    ")
                        try writer.writeJSON(object, identity: .key, to: output)
                    } else {
                        try writer.writeJSON(object, identity: .typeAndKey, to: output)
                        output.write(UInt8(ascii: "\n"))
                    }
                    first = false
                    exported += 1
                    if exported & 0x3FFF == 0 { progress?.update(done: exported, total: total, detail: name) }
                    return true
                }
                if format == "json" { output.write(first ? "]" : "\n  ]") }
            }
            if format == "json" { output.write(names.isEmpty ? "}\n" : "\n}\n") }
        }
        try output.flush()
        progress?.finish()
        if let outputPath { context.print("exported \(exported) object(s) to \(outputPath)") }
        return .success
    }

    /// The schema's types, each after the types its links point to (as far as cycles allow), so an
    /// import meets few links to objects it has not read yet.
    static func linkTargetsFirst(_ schema: Schema) -> [String] {
        var ordered: [String] = []
        var visiting = Set<String>()
        func targets(of type: ObjectSchema, _ seen: inout Set<String>) -> [String] {
            guard seen.insert(type.name).inserted else { return [] }
            return type.properties.flatMap { property -> [String] in
                guard let name = property.objectType, let target = schema[name] else { return [] }
                switch property.type {
                case .object: return target.isEmbedded ? [] : [name]
                case .embedded: return targets(of: target, &seen)
                default: return []
                }
            }
        }
        func visit(_ type: ObjectSchema) {
            guard !ordered.contains(type.name), visiting.insert(type.name).inserted else { return }
            var seen = Set<String>()
            for name in targets(of: type, &seen) where name != type.name {
                if let target = schema[name] { visit(target) }
            }
            ordered.append(type.name)
        }
        for type in schema.types where !type.isEmbedded { visit(type) }
        return ordered
    }
}
