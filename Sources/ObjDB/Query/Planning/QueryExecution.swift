import Foundation

/// Runs a ``QuerySpec`` once on one snapshot: prepares it and runs it, throwing for a damaged
/// record. Code that runs one query repeatedly keeps a ``PreparedQuery`` instead.
struct QueryExecution {
    let source: RecordSource
    let binding: TypeBinding
    let spec: QuerySpec

    private var reader: QueryReader { QueryReader(source: source, readsDamagedAsEmpty: false) }

    private func prepared() throws -> PreparedQuery {
        try PreparedQuery(catalog: source.catalog, binding: binding, spec: spec)
    }

    /// The plan the query runs with, as `explain()` shows it.
    func explain() throws -> String {
        try prepared().explanation(in: source.transaction)
    }

    /// The number of matching objects.
    func count() throws -> Int {
        try prepared().count(reader)
    }

    /// The table keys of the matching objects, in the query's order.
    func keys() throws -> [[UInt8]] {
        try prepared().matches(reader).keys
    }

    /// The matching objects' table keys and, when the scan's order is the result's, their records.
    func matches() throws -> (keys: [[UInt8]], records: [RecordReader]?) {
        try prepared().matches(reader)
    }
}

/// Values along key paths through to-one links, for sorting and `distinct`.
struct QueryPaths {
    let reader: QueryReader

    init(reader: QueryReader) {
        self.reader = reader
    }

    /// Paths read through `source`, throwing for a damaged record.
    init(source: RecordSource) {
        reader = QueryReader(source: source, readsDamagedAsEmpty: false)
    }

    /// Checks that `path` leads through to-one links to one value, to `what` by (`sort`, `distinct`).
    static func validateSortPath(_ path: [String], from binding: TypeBinding, catalog: StoreCatalog, what: String)
        throws
    {
        var current = binding
        let text = path.joined(separator: ".")
        for (position, name) in path.enumerated() {
            guard let property = current[name] else {
                throw ObjDBError.invalidQuery(
                    type: binding.schema.name,
                    reason: "cannot \(what) by \(text): \(current.schema.name) has no property \(name)")
            }
            if position + 1 < path.count, SortPath.isMapKey(path[position + 1]) {
                // `scores['math']`: one value of a map of values.
                guard property.schema.collection == .map, position + 2 == path.count,
                    property.schema.type != .object, property.schema.type != .embedded
                else {
                    throw ObjDBError.invalidQuery(
                        type: binding.schema.name,
                        reason: "cannot \(what) by \(text): only a map of values is read by a key, and last")
                }
                return
            }
            guard property.schema.collection == .single, property.schema.type != .linkingObjects else {
                throw ObjDBError.invalidQuery(
                    type: binding.schema.name, reason: "cannot \(what) by \(text): \(name) holds several values")
            }
            if position < path.count - 1 {
                guard let target = SchemaPaths(catalog: catalog).target(of: property) else {
                    throw ObjDBError.invalidQuery(
                        type: binding.schema.name, reason: "cannot \(what) by \(text): \(name) is not a link")
                }
                current = target
            } else if property.schema.type == .embedded {
                throw ObjDBError.invalidQuery(
                    type: binding.schema.name,
                    reason: "cannot \(what) by \(text): \(name) is an embedded object; name one of its properties")
            }
        }
    }

    /// The value at `path` of the object `key`; `nil` through a `nil` link.
    func value(at path: [String], of key: [UInt8], in binding: TypeBinding) throws -> StoredValue {
        let record = try key.withUnsafeBytes { try reader.record(in: binding, key: $0) }
        guard let record else { return .null }
        return try value(at: path, from: record, in: binding)
    }

    /// The value at `path` of the object whose record, already read, is `start`.
    func value(at path: [String], from start: RecordReader, in binding: TypeBinding) throws -> StoredValue {
        var current = binding
        var record: RecordReader? = start
        for (position, name) in path.enumerated() {
            guard let property = current[name], let found = record else { return .null }
            let field = found.field(property.slot)
            if position + 1 < path.count, SortPath.isMapKey(path[position + 1]) {
                guard case .bytes(let bytes) = field else { return .null }
                let entries = ValueCodec(schema: reader.catalog.schemaIndex).decodeMap(bytes, as: property.schema)
                return entries[SortPath.mapKey(path[position + 1])] ?? .null
            }
            if position == path.count - 1 {
                return ValueCodec(schema: reader.catalog.schemaIndex).decodeField(field, of: property.schema)
            }
            guard case .bytes(let bytes) = field,
                let target = property.schema.objectType.flatMap({
                    reader.catalog.bindings[$0]
                })
            else { return .null }
            switch property.schema.type {
            case .object: record = try reader.record(in: target, key: bytes)
            case .embedded: record = try reader.record(bytes, of: target)
            default: return .null
            }
            current = target
        }
        return .null
    }
}

/// The order of stored values in sorts: `nil` first, numbers by value, strings by
/// UTF-8 bytes (or folded, with options), others by their natural order.
enum QueryOrdering {
    static func compare(_ lhs: StoredValue, _ rhs: StoredValue, _ options: StringComparisonOptions) -> Int {
        switch (lhs, rhs) {
        case (.null, .null): return 0
        case (.null, _): return -1
        case (_, .null): return 1
        case (.string(let left), .string(let right)):
            var folding: QueryStringOptions = []
            if options.contains(.caseInsensitive) { folding.insert(.caseInsensitive) }
            if options.contains(.diacriticInsensitive) { folding.insert(.diacriticInsensitive) }
            let a = Array(QueryText.fold(left, folding).utf8)
            let b = Array(QueryText.fold(right, folding).utf8)
            return a == b ? 0 : (a.lexicographicallyPrecedes(b) ? -1 : 1)
        case (.bool(let left), .bool(let right)): return left == right ? 0 : (!left ? -1 : 1)
        case (.date(let left), .date(let right)): return left == right ? 0 : (left < right ? -1 : 1)
        case (.data(let left), .data(let right)):
            return left == right ? 0 : (left.lexicographicallyPrecedes(right) ? -1 : 1)
        case (.uuid(let left), .uuid(let right)):
            let a = withUnsafeBytes(of: left.uuid) { Array($0) }
            let b = withUnsafeBytes(of: right.uuid) { Array($0) }
            return a == b ? 0 : (a.lexicographicallyPrecedes(b) ? -1 : 1)
        case (.decimal(let left), .decimal(let right)): return left == right ? 0 : (left < right ? -1 : 1)
        case (.int(let left), .int(let right)): return left == right ? 0 : (left < right ? -1 : 1)
        default:
            guard let left = number(lhs), let right = number(rhs) else { return 0 }
            if left.isNaN || right.isNaN { return left.isNaN ? (right.isNaN ? 0 : -1) : 1 }
            return left == right ? 0 : (left < right ? -1 : 1)
        }
    }

    private static func number(_ value: StoredValue) -> Double? {
        switch value {
        case .int(let number): return Double(number)
        case .float(let number): return Double(number)
        case .double(let number): return number
        default: return nil
        }
    }
}
