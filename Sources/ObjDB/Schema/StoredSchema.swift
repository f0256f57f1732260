import Foundation

/// Reads and writes the schema stored in the file, and compares it with the declared one.
///
/// The schema lives in the `objdb.meta` database under the key `schema`, as
/// JSON: it is read once per open, so readability (by `objdb-inspect` and by
/// people) wins over speed here, unlike records.
package enum StoredSchema {
    static let key = MetaKeys.schema
    /// The schema version alone (u64 big-endian), which every write checks cheaply.
    static let versionKey = MetaKeys.schemaVersion

    /// The schema stored in the file, or `nil` for a store that has none yet.
    package static func read(in transaction: Transaction) throws -> Schema? {
        guard let meta = try transaction.openDatabaseIfPresent(named: StoreFormat.metaDatabaseName),
            let bytes = try key.withUnsafeBytes({ try transaction.get($0, in: meta) })
        else { return nil }
        do {
            let schema = try JSONDecoder().decode(Schema.self, from: Data(bytes))
            for type in schema.types {
                let ids = type.properties.map(\.id)
                guard Set(ids).count == ids.count, ids.allSatisfy({ $0 < UInt16.max / 2 }) else {
                    throw ObjDBError.notAnObjDBStore(
                        path: transaction.environment.path,
                        reason: "the stored schema of \(type.name) has invalid property IDs")
                }
            }
            return schema
        } catch let error as ObjDBError {
            throw error
        } catch {
            throw ObjDBError.notAnObjDBStore(
                path: transaction.environment.path, reason: "its stored schema cannot be read (\(error))")
        }
    }

    /// Stores `schema`, replacing the one stored.
    static func write(_ schema: Schema, in transaction: Transaction) throws {
        let meta = try transaction.openDatabase(named: StoreFormat.metaDatabaseName, options: .create)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let bytes = [UInt8](try encoder.encode(schema))
        try key.withUnsafeBytes { key in
            try bytes.withUnsafeBytes { _ = try transaction.put($0, forKey: key, in: meta) }
        }
        let version = MetaKeys.encode(schema.version)
        try versionKey.withUnsafeBytes { key in
            try version.withUnsafeBytes { _ = try transaction.put($0, forKey: key, in: meta) }
        }
    }

    /// The declared types with property IDs: a property keeps the ID of the stored
    /// property it matches (same name, same kind), and a new one takes its type's next ID.
    static func assignIDs(to declared: [ObjectSchema], version: UInt64, stored: Schema?) -> Schema {
        var nextIDs = stored?.nextPropertyIDs ?? [:]
        var types: [ObjectSchema] = []
        for var type in declared {
            let storedType = stored?[type.name]
            var next = nextIDs[type.name] ?? 0
            for index in type.properties.indices {
                let property = type.properties[index]
                if let match = storedType?[property.name], sameStorage(match, property, ignoringOptionality: true) {
                    type.properties[index].id = match.id
                } else {
                    type.properties[index].id = next
                    next = next < UInt16.max / 2 ? next + 1 : next
                }
            }
            nextIDs[type.name] = max(next, (type.properties.map(\.id).max() ?? 0) + 1)
            types.append(type)
        }
        return Schema(version: version, types: types, nextPropertyIDs: nextIDs)
    }

    /// Whether two descriptions of a property store their values alike (indexes aside).
    ///
    /// Optionality aside, values are stored alike: a property that becomes optional (or
    /// stops being) keeps its ID and its values, `nil`s reading as the zero value.
    static func sameStorage(_ left: PropertySchema, _ right: PropertySchema, ignoringOptionality: Bool = false) -> Bool
    {
        left.type == right.type && left.collection == right.collection
            && (ignoringOptionality || left.isOptional == right.isOptional)
            && left.objectType == right.objectType && left.isPrimaryKey == right.isPrimaryKey
            && left.originProperty == right.originProperty
    }

    /// Every difference between the stored and the declared schema, one sentence each.
    static func differences(stored: Schema, declared: Schema) -> [String] {
        var differences: [String] = []
        for type in declared.types where stored[type.name] == nil {
            differences.append("type \(type.name) is new")
        }
        for type in stored.types where declared[type.name] == nil {
            differences.append("type \(type.name) was removed")
        }
        for type in declared.types {
            guard let old = stored[type.name] else { continue }
            if old.isEmbedded != type.isEmbedded {
                differences.append("\(type.name) is \(type.isEmbedded ? "now" : "no longer") embedded")
            }
            for property in type.properties {
                guard let previous = old[property.name] else {
                    differences.append("\(type.name).\(property.name) is new")
                    continue
                }
                if !sameStorage(previous, property) {
                    differences.append(
                        "\(type.name).\(property.name): declared \(describe(property)), stored \(describe(previous))")
                } else if previous.index != property.index {
                    differences.append(
                        "\(type.name).\(property.name): index \(property.index?.rawValue ?? "none") declared, "
                            + "\(previous.index?.rawValue ?? "none") stored")
                } else if previous.deleteRule != property.deleteRule {
                    differences.append(
                        "\(type.name).\(property.name): delete rule \((property.deleteRule ?? .nullify).rawValue) "
                            + "declared, \((previous.deleteRule ?? .nullify).rawValue) stored")
                }
            }
            if old.uniquenessConstraints != type.uniquenessConstraints {
                func describe(_ constraints: [[String]]) -> String {
                    constraints.isEmpty
                        ? "none" : constraints.map { "(" + $0.joined(separator: ", ") + ")" }.joined(separator: ", ")
                }
                differences.append(
                    "\(type.name): uniqueness constraints \(describe(type.uniquenessConstraints)) declared, "
                        + "\(describe(old.uniquenessConstraints)) stored")
            }
            for property in old.properties where type[property.name] == nil {
                differences.append("\(type.name).\(property.name) was removed")
            }
        }
        return differences
    }

    private static func describe(_ property: PropertySchema) -> String {
        property.typeDescription + (property.isPrimaryKey ? " (primary key)" : "")
    }
}
