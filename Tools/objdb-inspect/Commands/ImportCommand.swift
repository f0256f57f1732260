import Foundation
import ObjDB
import ToolSupport

/// `import FILE`: objects from an `export`, in one write transaction.
///
/// Objects are created first and linked second, so links may point forwards; objects
/// of types without a primary key get new internal IDs, and links to them follow.
struct ImportCommand {
    let path: String
    let file: String

    func run() throws -> ToolExitCode {
        guard let data = FileManager.default.contents(atPath: file) else {
            printError("objdb-inspect: cannot read \(file)")
            return .failure
        }
        let objects = try parse(data)
        let database = try InspectCommand.open(path, writable: true)
        let schema = database.schema
        var renamed: [String: [String: ObjectKey]] = [:]
        try database.write { transaction in
            var created: [(DynamicObject, [String: Any], ObjectSchema)] = []
            for json in objects {
                guard let typeName = json["_type"] as? String, let type = schema[typeName] else {
                    throw ObjDBError.unknownType(json["_type"] as? String ?? "(missing _type)")
                }
                var values: [String: Any] = [:]
                for (name, value) in json where !name.hasPrefix("_") {
                    guard let property = type[name] else {
                        throw ObjDBError.unknownProperty(type: typeName, property: name)
                    }
                    if property.type == .object || property.type == .linkingObjects { continue }
                    values[name] = try StoredValue.fromJSON(value, for: property, in: schema)
                }
                let object = try transaction.dynamicCreate(typeName, value: values, update: .modified)
                if type.primaryKey == nil, let oldKey = json["_key"] as? String {
                    renamed[typeName, default: [:]][oldKey] = object.objectKey
                }
                created.append((object, json, type))
            }
            for (object, json, type) in created {
                for property in type.properties where property.type == .object {
                    guard let value = json[property.name] else { continue }
                    let stored = try StoredValue.fromJSON(value, for: property, in: schema)
                    try object.setValue(remap(stored, renamed), forKey: property.name)
                }
            }
        }
        print("imported \(objects.count) object(s) into \(path)")
        return .success
    }

    private func remap(_ value: StoredValue, _ renamed: [String: [String: ObjectKey]]) -> StoredValue {
        switch value {
        case .link(let type, .internalID(let id)):
            return .link(type: type, key: renamed[type]?["#\(id)"] ?? .internalID(id))
        case .list(let values): return .list(values.map { remap($0, renamed) })
        case .map(let values): return .map(values.mapValues { remap($0, renamed) })
        default: return value
        }
    }

    private func parse(_ data: Data) throws -> [[String: Any]] {
        if let grouped = try? JSONSerialization.jsonObject(with: data) as? [String: [[String: Any]]] {
            return grouped.keys.sorted().flatMap { type in
                grouped[type]!.map { $0.merging(["_type": type]) { old, _ in old } }
            }
        }
        var objects: [[String: Any]] = []
        for (number, line) in String(decoding: data, as: UTF8.self).split(separator: "\n").enumerated()
        where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw UsageError("\(file):\(number + 1): not a JSON object")
            }
            objects.append(object)
        }
        return objects
    }
}
