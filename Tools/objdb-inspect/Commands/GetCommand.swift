import Foundation
import ObjDB
import ObjDBInspection
import ToolSupport

/// `get TYPE KEY`: one object by primary key (or `#ID`), with every property, its links and its backlinks.
struct GetCommand: Subcommand {
    static let spec = CommandSpec(
        name: "get", abstract: "one object with its links and backlinks",
        discussion: """
            One object by primary key (#N for an internal ID): every property, its links, and the
            objects linking to it, one per line (the first \(GetCommand.shownBacklinks) of each property,
            then their count).
            """,
        operands: [.init("TYPE"), .init("KEY")])

    /// Backlinks listed per linking property before the rest are only counted.
    static let shownBacklinks = 10

    let type: String
    let key: String

    init(parsing arguments: ParsedCommand) {
        type = arguments.operands[0]
        key = arguments.operands[1]
    }

    func run(in context: InspectContext) throws -> ToolExitCode {
        let database = try context.open()
        guard let schema = database.schema[type] else { throw ObjDBError.unknownType(type) }
        guard !schema.isEmbedded else { throw InspectError("\(type) is embedded: get its owner") }
        let objectKey = try ObjectKey.parse(key, primaryKeyType: schema.primaryKey?.type)
        let terminal = context.terminal
        let width = context.terminal.width
        return try database.read { view in
            let scan = try ObjectScan(view: view, type: type)
            let writer = try ObjectTextWriter(scan: scan, properties: schema.properties.map(\.name))
            let found = try scan.object(forKey: objectKey) { object -> Bool in
                context.print(terminal.bold("\(type)(\(DisplayText.escapedString(objectKey.plain)))"))
                let nameWidth = schema.properties.map(\.name.count).max() ?? 0
                let cell = ByteBuffer()
                for property in schema.properties {
                    cell.removeAll()
                    let prefix = "  " + property.name.padding(toLength: nameWidth, withPad: " ", startingAt: 0) + "  "
                    if property.collection == .single || property.type == .linkingObjects {
                        try writer.writeCell(object, property: property, to: cell)
                    } else {
                        try writer.writeJSON(object, property: property, to: cell)
                        let room = width - prefix.count
                        if TablePrinter.displayWidth(cell.bytes) > room {
                            let count = try writer.count(object, property: property)
                            let suffix = Array("… (\(count) \(property.collection == .map ? "entries" : "items"))".utf8)
                            var kept: [UInt8] = []
                            for byte in cell.bytes {
                                if kept.count >= max(8, room - suffix.count - 1), byte & 0xC0 != 0x80 { break }
                                kept.append(byte)
                            }
                            cell.bytes = kept + suffix
                        }
                    }
                    context.output.write(prefix)
                    context.output.write(DisplayText.escaped(String(decoding: cell.bytes, as: UTF8.self)))
                    context.output.write(UInt8(ascii: "\n"))
                }
                try printBacklinks(of: object, scan: scan, context: context)
                return true
            }
            guard found != nil else { throw InspectError("no \(type) with key \(key)") }
            return .success
        }
    }

    /// Each linking property's sources: a short list on one line, a long one one per line, then a count.
    private func printBacklinks(of object: ScannedObject, scan: ObjectScan, context: InspectContext) throws {
        var group: (label: String, shown: [String], count: Int)?
        var printedHeading = false
        func flush() {
            guard let current = group else { return }
            if !printedHeading {
                context.print(context.terminal.bold("linked from"))
                printedHeading = true
            }
            let line = "  \(current.label): " + current.shown.joined(separator: ", ")
            if current.count <= 5, line.count <= context.terminal.width {
                context.print(line)
            } else {
                context.print("  \(current.label) (\(current.count)):")
                for source in current.shown { context.print("    " + source) }
                if current.count > current.shown.count {
                    context.print("    … \(current.count - current.shown.count) more")
                }
            }
            group = nil
        }
        try scan.forEachBacklink(of: object) { type, property, key in
            let label = "\(type).\(property)"
            if group?.label != label {
                flush()
                group = (label, [], 0)
            }
            group!.count += 1
            if group!.shown.count < Self.shownBacklinks {
                group!.shown.append("\(type)(\(DisplayText.escapedString(key.plain)))")
            }
            return true
        }
        flush()
    }
}

extension ObjectKey {
    /// A key as typed on the command line: `#7` for an internal ID, else by the primary key's type.
    static func parse(_ text: String, primaryKeyType: PropertyType?) throws -> ObjectKey {
        guard let primaryKeyType else {
            guard text.hasPrefix("#"), let id = UInt64(text.dropFirst()) else {
                throw InspectError("this type has no primary key: give an internal ID as #N, not '\(text)'")
            }
            return .internalID(id)
        }
        switch primaryKeyType {
        case .string: return .string(text)
        case .uuid:
            guard let uuid = UUID(uuidString: text) else { throw InspectError("'\(text)' is not a UUID") }
            return .uuid(uuid)
        default:
            guard let number = Int64(text) else { throw InspectError("'\(text)' is not an integer key") }
            return .int(number)
        }
    }

    /// The key without quotes, as a user types it.
    var plain: String {
        switch self {
        case .string(let text): return text
        default: return description
        }
    }
}
