import Foundation
import ObjDB
import ToolSupport

/// `get TYPE KEY`: one object by primary key (or `#ID`), with every property, its links and its backlinks.
struct GetCommand {
    let path: String
    let type: String
    let key: String
    let terminal: Terminal

    func run() throws -> ToolExitCode {
        let database = try InspectCommand.open(path)
        guard let schema = database.schema[type] else { throw ObjDBError.unknownType(type) }
        let objectKey = try ObjectKey.parse(key, primaryKeyType: schema.primaryKey?.type)
        return try database.read { view in
            guard let object = try view.dynamicObject(type, forPrimaryKey: objectKey) else {
                printError("objdb-inspect: no \(type) with key \(key)")
                return .failure
            }
            print(terminal.bold("\(type)(\(objectKey.plain))"))
            let width = schema.properties.map(\.name.count).max() ?? 0
            for property in schema.properties {
                let value = try object.value(forKey: property.name)
                let text = property.collection == .single ? ValueText.cell(value) : try jsonText(value.jsonValue)
                let described =
                    property.type == .linkingObjects
                    ? ValueText.cell(value) : text
                print("  " + property.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + described)
            }
            let backlinks = try view.backlinks(of: object)
            if !backlinks.isEmpty {
                print(terminal.bold("linked from"))
                for group in backlinks {
                    let keys = group.objects.map { "\(group.type)(\($0.objectKey.plain))" }
                    print("  \(group.type).\(group.property): " + keys.joined(separator: ", "))
                }
            }
            return .success
        }
    }
}

extension ObjectKey {
    /// A key as typed on the command line: `#7` for an internal ID, else by the primary key's type.
    static func parse(_ text: String, primaryKeyType: PropertyType?) throws -> ObjectKey {
        guard let primaryKeyType else {
            guard text.hasPrefix("#"), let id = UInt64(text.dropFirst()) else {
                throw UsageError("this type has no primary key: give an internal ID as #N")
            }
            return .internalID(id)
        }
        switch primaryKeyType {
        case .string: return .string(text)
        case .uuid:
            guard let uuid = UUID(uuidString: text) else { throw UsageError("'\(text)' is not a UUID") }
            return .uuid(uuid)
        default:
            guard let number = Int64(text) else { throw UsageError("'\(text)' is not an integer key") }
            return .int(number)
        }
    }
}
