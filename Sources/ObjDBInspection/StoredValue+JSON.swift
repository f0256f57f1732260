import Foundation
import ObjDB

extension StoredValue {
    /// The value `json` gives `property`, exactly: integers from their digits, doubles and floats
    /// each from their own digits (correctly rounded, so the shortest form an export writes comes
    /// back bit for bit), dates from exact ISO 8601 text (``ExactDateText``) or a number of seconds
    /// since 1970, data from base64, decimals from their digits, links from the linked object's key.
    ///
    /// - Throws: ``ObjDBError/typeMismatch(type:property:expected:found:)`` naming `typeName` and the property.
    static func importing(
        _ json: JSONValue, for property: PropertySchema, of typeName: String, in schema: SchemaIndex
    ) throws -> StoredValue {
        if case .null = json { return .null }
        switch property.collection {
        case .list, .set:
            guard case .array(let elements) = json else { throw mismatch(property, typeName, json) }
            return .list(try elements.map { try element($0, property, typeName, schema) })
        case .map:
            guard case .object(let members) = json else { throw mismatch(property, typeName, json) }
            var entries: [String: StoredValue] = [:]
            for member in members { entries[member.key] = try element(member.value, property, typeName, schema) }
            return .map(entries)
        case .single:
            return try element(json, property, typeName, schema)
        }
    }

    private static func element(
        _ json: JSONValue, _ property: PropertySchema, _ typeName: String, _ schema: SchemaIndex
    ) throws -> StoredValue {
        switch (property.type, json) {
        case (_, .null):
            return .null
        case (.bool, .bool(let flag)):
            return .bool(flag)
        case (.int, .number(let text)), (.int8, .number(let text)), (.int16, .number(let text)),
            (.int32, .number(let text)), (.int64, .number(let text)):
            if let number = Int64(text) { return .int(number) }
            if let number = Double(text), let exact = Int64(exactly: number) { return .int(exact) }
        case (.double, .number(let text)), (.double, .string(let text)):
            if let number = ExactNumberText.double(text), json.isNumber || !number.isFinite { return .double(number) }
        case (.float, .number(let text)), (.float, .string(let text)):
            if let number = ExactNumberText.float(text), json.isNumber || !number.isFinite { return .float(number) }
        case (.string, .string(let text)):
            return .string(text)
        case (.data, .string(let text)):
            if let data = Data(base64Encoded: text) { return .data(data) }
        case (.date, .string(let text)):
            if let seconds = ExactDateText.parse(text) { return .date(Date(timeIntervalSinceReferenceDate: seconds)) }
        case (.date, .number(let text)):
            if let seconds = Double(text) { return .date(Date(timeIntervalSince1970: seconds)) }
        case (.uuid, .string(let text)):
            if let uuid = UUID(uuidString: text) { return .uuid(uuid) }
        case (.decimal, .string(let text)), (.decimal, .number(let text)):
            if let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) {
                return .decimal(decimal)
            }
        case (.object, _):
            guard let target = property.objectType, let targetType = schema[target] else { break }
            return .link(type: target, key: try ObjectKey.importing(json, primaryKeyType: targetType.primaryKey?.type))
        case (.embedded, .object(let members)):
            guard let name = property.objectType, let type = schema[name] else { break }
            var values: [String: StoredValue] = [:]
            for member in members {
                guard let inner = type[member.key], inner.isStored else {
                    throw ObjDBError.unknownProperty(type: name, property: member.key)
                }
                values[member.key] = try importing(member.value, for: inner, of: name, in: schema)
            }
            return .embedded(values)
        default:
            break
        }
        throw mismatch(property, typeName, json)
    }

    private static func mismatch(_ property: PropertySchema, _ typeName: String, _ json: JSONValue) -> ObjDBError {
        .typeMismatch(type: typeName, property: property.name, expected: property.typeDescription, found: json.kindName)
    }
}

extension JSONValue {
    fileprivate var isNumber: Bool {
        if case .number = self { return true }
        return false
    }
}

extension ObjectKey {
    /// A key from its JSON form, for a type whose primary key is of `primaryKeyType` (`nil`: internal IDs, `"#7"`).
    static func importing(_ json: JSONValue, primaryKeyType: PropertyType?) throws -> ObjectKey {
        switch (primaryKeyType, json) {
        case (nil, .string(let text)):
            if text.hasPrefix("#"), let id = UInt64(text.dropFirst()) { return .internalID(id) }
        case (.string?, .string(let text)):
            return .string(text)
        case (.uuid?, .string(let text)):
            if let uuid = UUID(uuidString: text) { return .uuid(uuid) }
        case (_?, .number(let text)), (_?, .string(let text)):
            if let number = Int64(text) { return .int(number) }
        default:
            break
        }
        throw ObjDBError.typeMismatch(
            type: "JSON", property: "key",
            expected: primaryKeyType.map { "a \($0.rawValue) key" } ?? "an internal ID (#N)",
            found: json.kindName)
    }
}
