import Foundation

extension StoredValue {
    /// The value as JSON: numbers, strings, booleans and `null`; dates as ISO 8601 strings,
    /// data as base64, UUIDs and decimals as strings, links as the linked object's key,
    /// embedded objects as objects, lists as arrays, maps as objects.
    package var jsonValue: Any {
        switch self {
        case .null: return NSNull()
        case .bool(let flag): return flag
        case .int(let number): return number
        case .float(let number): return number.isFinite ? Double(number) : String(number)
        case .double(let number): return number.isFinite ? number : String(number)
        case .string(let text): return text
        case .data(let data): return data.base64EncodedString()
        case .date(let date): return date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        case .uuid(let uuid): return uuid.uuidString
        case .decimal(let decimal): return decimal.description
        case .link(_, let key): return key.jsonValue
        case .embedded(let values): return values.mapValues(\.jsonValue)
        case .list(let values): return values.map(\.jsonValue)
        case .map(let values): return values.mapValues(\.jsonValue)
        }
    }

    /// The value from its JSON form, as `property` stores it.
    package static func fromJSON(_ json: Any, for property: PropertySchema, in schema: Schema) throws -> StoredValue {
        if json is NSNull { return .null }
        switch property.collection {
        case .list, .set:
            guard let array = json as? [Any] else { throw mismatch(property, json) }
            return .list(try array.map { try element($0, property, schema) })
        case .map:
            guard let object = json as? [String: Any] else { throw mismatch(property, json) }
            return .map(try object.mapValues { try element($0, property, schema) })
        case .single:
            return try element(json, property, schema)
        }
    }

    private static func element(_ json: Any, _ property: PropertySchema, _ schema: Schema) throws -> StoredValue {
        if json is NSNull { return .null }
        switch property.type {
        case .bool:
            guard let flag = json as? Bool else { throw mismatch(property, json) }
            return .bool(flag)
        case .int, .int8, .int16, .int32, .int64:
            if let number = json as? Int64 { return .int(number) }
            if let number = json as? Int { return .int(Int64(number)) }
            if let number = json as? Double, let exact = Int64(exactly: number) { return .int(exact) }
            throw mismatch(property, json)
        case .float, .double:
            if let number = json as? Double { return property.type == .float ? .float(Float(number)) : .double(number) }
            if let text = json as? String, let number = Double(text) {
                return property.type == .float ? .float(Float(number)) : .double(number)
            }
            throw mismatch(property, json)
        case .string:
            guard let text = json as? String else { throw mismatch(property, json) }
            return .string(text)
        case .data:
            guard let text = json as? String, let data = Data(base64Encoded: text) else {
                throw mismatch(property, json)
            }
            return .data(data)
        case .date:
            guard let text = json as? String,
                let date = (try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
                    ?? (try? Date(text, strategy: .iso8601))
            else { throw mismatch(property, json) }
            return .date(date)
        case .uuid:
            guard let text = json as? String, let uuid = UUID(uuidString: text) else { throw mismatch(property, json) }
            return .uuid(uuid)
        case .decimal:
            guard let text = (json as? String) ?? (json as? NSNumber)?.stringValue,
                let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
            else { throw mismatch(property, json) }
            return .decimal(decimal)
        case .object:
            guard let target = property.objectType, let targetType = schema[target] else {
                throw mismatch(property, json)
            }
            return .link(type: target, key: try ObjectKey.fromJSON(json, primaryKeyType: targetType.primaryKey?.type))
        case .embedded:
            guard let object = json as? [String: Any], let name = property.objectType, let type = schema[name] else {
                throw mismatch(property, json)
            }
            var values: [String: StoredValue] = [:]
            for (key, value) in object {
                guard let inner = type[key] else { throw ObjDBError.unknownProperty(type: name, property: key) }
                values[key] = try fromJSON(value, for: inner, in: schema)
            }
            return .embedded(values)
        case .linkingObjects:
            return .null
        }
    }

    private static func mismatch(_ property: PropertySchema, _ json: Any) -> ObjDBError {
        .typeMismatch(
            type: "JSON", property: property.name, expected: property.typeDescription,
            found: String(describing: Swift.type(of: json)))
    }
}

extension ObjectKey {
    /// The key as JSON: the primary key's value, or `"#7"` for an internal ID.
    package var jsonValue: Any {
        switch self {
        case .int(let value): return value
        case .string(let value): return value
        case .uuid(let value): return value.uuidString
        case .internalID(let value): return "#\(value)"
        }
    }

    /// A key from its JSON form, for a type whose primary key is of `primaryKeyType` (`nil`: internal IDs).
    package static func fromJSON(_ json: Any, primaryKeyType: PropertyType?) throws -> ObjectKey {
        switch primaryKeyType {
        case nil:
            guard let text = json as? String, text.hasPrefix("#"), let id = UInt64(text.dropFirst()) else { break }
            return .internalID(id)
        case .string?:
            if let text = json as? String { return .string(text) }
        case .uuid?:
            if let text = json as? String, let uuid = UUID(uuidString: text) { return .uuid(uuid) }
        default:
            if let number = json as? Int64 { return .int(number) }
            if let number = json as? Int { return .int(Int64(number)) }
            if let text = json as? String, let number = Int64(text) { return .int(number) }
        }
        throw ObjDBError.typeMismatch(
            type: "JSON", property: "key", expected: primaryKeyType?.rawValue ?? "internal ID",
            found: "\(json)")
    }
}
