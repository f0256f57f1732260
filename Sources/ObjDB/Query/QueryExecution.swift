import Foundation

/// Runs a ``QuerySpec`` on one snapshot: plan, scan, filter, sort, distinct, limit.
struct QueryExecution {
    let source: RecordSource
    let binding: TypeBinding
    let spec: QuerySpec

    /// The plan the query runs with, as `explain()` shows it.
    func explain() throws -> String {
        let (plan, sortedByPlan) = try QueryPlanner(catalog: source.catalog, binding: binding)
            .plan(filter: spec.filter, sorts: spec.sorts)
        var text = "\(binding.schema.name): \(plan)"
        if let filter = spec.filter { text += ", filter \(filter.text)" }
        if !spec.sorts.isEmpty { text += sortedByPlan ? ", sorted by the scan" : ", sorted in memory" }
        if !spec.distinctPaths.isEmpty { text += ", distinct by \(spec.distinctPaths.joined(separator: ", "))" }
        if let limit = spec.limit { text += ", limit \(limit)" }
        return text
    }

    /// The number of matching objects, counted without keeping their keys when the
    /// query has no sort, distinct or limit.
    func count() throws -> Int {
        guard spec.sorts.isEmpty, spec.distinctPaths.isEmpty, spec.limit == nil else { return try keys().count }
        var count = 0
        _ = try keys { _ in count += 1 }
        return count
    }

    /// The table keys of the matching objects, in the query's order.
    func keys() throws -> [[UInt8]] {
        try matches().keys
    }

    /// The matching objects' table keys and, when the scan's order is the result's, their records
    /// (pointers into the map, valid for the context's current generation).
    func matches() throws -> (keys: [[UInt8]], records: [RecordReader]?) {
        var records: [RecordReader] = []
        let keys = try keys(counting: nil, records: &records)
        return (keys, records.count == keys.count ? records : nil)
    }

    /// Scans; with `counting`, reports each match to it instead of keeping its key.
    private func keys(counting: ((UnsafeRawBufferPointer) -> Void)?) throws -> [[UInt8]] {
        var records: [RecordReader] = []
        return try keys(counting: counting, records: &records)
    }

    private func keys(counting: ((UnsafeRawBufferPointer) -> Void)?, records: inout [RecordReader]) throws
        -> [[UInt8]]
    {
        guard let table = binding.table else { return [] }
        let matcher = try spec.filter.map { try QueryCompiler(source: source, root: binding).compile($0) }
        let (plan, sortedByPlan) = try QueryPlanner(catalog: source.catalog, binding: binding)
            .plan(filter: spec.filter, sorts: spec.sorts)
        let transaction = source.transaction
        let orderedByScan = spec.sorts.isEmpty ? plan.yieldsKeyOrder : sortedByPlan
        let stopEarly = spec.limit.flatMap { orderedByScan && spec.distinctPaths.isEmpty ? $0 : nil }
        var matched: [[UInt8]] = []
        var seen = Set<[UInt8]>()

        func consider(_ key: UnsafeRawBufferPointer, _ record: UnsafeRawBufferPointer) -> Bool {
            guard let reader = RecordReader(header: record) else { return true }
            if let matcher, !matcher(QueryRow(reader: reader, key: key)) { return true }
            if let counting {
                counting(key)
                return true
            }
            matched.append(Array(key))
            records.append(reader)
            return stopEarly.map { matched.count < $0 } ?? true
        }

        // Only several lookups can meet an object twice: an index lists each object once.
        let mayRepeat: Bool
        switch plan {
        case .indexLookup(_, let keys), .primaryKeyLookup(let keys): mayRepeat = keys.count > 1
        default: mayRepeat = false
        }
        func considerKey(_ key: UnsafeRawBufferPointer) throws -> Bool {
            if mayRepeat, !seen.insert(Array(key)).inserted { return true }
            guard let record = try transaction.get(key, in: table) else { return true }
            return consider(key, record)
        }

        if stopEarly != 0 {
            switch plan {
            case .fullScan:
                try transaction.cursor(table).forEach { consider($0.key, $0.value) }
            case .primaryKeyRange(let lower, let upper):
                try transaction.cursor(table).forEach(from: lower, to: upper) { consider($0.key, $0.value) }
            case .primaryKeyLookup(let keys):
                for key in keys where try !key.withUnsafeBytes({ try considerKey($0) }) { break }
            case .indexLookup(let property, let indexKeys):
                guard let index = property.index else { break }
                let cursor = try transaction.cursor(index)
                lookups: for indexKey in indexKeys {
                    var keepGoing = true
                    try cursor.forEach(from: KeyBound(indexKey), to: KeyBound(indexKey)) { entry in
                        keepGoing = try considerKey(entry.value)
                        return keepGoing
                    }
                    if !keepGoing { break lookups }
                }
            case .indexRange(let property, let lower, let upper):
                guard let index = property.index else { break }
                try transaction.cursor(index).forEach(from: lower, to: upper) { try considerKey($0.value) }
            case .indexOrder(let property, let descending):
                guard let index = property.index else { break }
                let cursor = try transaction.cursor(index)
                guard descending else {
                    try cursor.forEach { try considerKey($0.value) }
                    break
                }
                // Keys in descending order, but each key's objects in ascending key order, as a stable
                // in-memory sort would leave ties.
                // (MDB_SET_KEY, not MDB_FIRST_DUP, repositions: after MDB_LAST the cursor is at its end.)
                var entry = try cursor.last()
                walk: while let group = entry {
                    let key = Array(group.key)
                    var value = try key.withUnsafeBytes { try cursor.seek(exactly: $0) }
                    while let current = value {
                        guard try considerKey(current.value) else { break walk }
                        value = try cursor.nextValueOfKey()
                    }
                    _ = try key.withUnsafeBytes { try cursor.seek(exactly: $0) }
                    entry = try cursor.previousKey()
                }
            }
        }

        if !spec.sorts.isEmpty && !sortedByPlan {
            records = []
            matched = try sort(matched)
        } else if spec.sorts.isEmpty && !plan.yieldsKeyOrder {
            // Unsorted results always come in table-key order, whichever path found them.
            records = []
            matched.sort { $0.lexicographicallyPrecedes($1) }
        }
        if !spec.distinctPaths.isEmpty {
            records = []
            matched = try distinct(matched)
        }
        if let limit = spec.limit, matched.count > limit {
            matched.removeLast(matched.count - limit)
            if records.count > limit { records.removeLast(records.count - limit) }
        }
        return matched
    }

    private func sort(_ keys: [[UInt8]]) throws -> [[UInt8]] {
        let paths = spec.sorts.map { $0.keyPath.split(separator: ".").map(String.init) }
        for path in paths { try QueryPaths(source: source).validateSortPath(path, from: binding) }
        let rows = try keys.map { key in
            (key, try paths.map { try QueryPaths(source: source).value(at: $0, of: key, in: binding) })
        }
        let sorts = spec.sorts
        return rows.enumerated().sorted { left, right in
            for (index, sort) in sorts.enumerated() {
                let order = QueryOrdering.compare(left.element.1[index], right.element.1[index], sort.options)
                if order != 0 { return sort.ascending ? order < 0 : order > 0 }
            }
            // Ties in table-key order, whichever path found them: live results place changed
            // objects by the same order (`QueryOrder`).
            return left.element.0.lexicographicallyPrecedes(right.element.0)
        }.map(\.element.0)
    }

    private func distinct(_ keys: [[UInt8]]) throws -> [[UInt8]] {
        let paths = spec.distinctPaths.map { $0.split(separator: ".").map(String.init) }
        for path in paths { try QueryPaths(source: source).validateSortPath(path, from: binding) }
        var seen = Set<[StoredValue]>()
        return try keys.filter { key in
            seen.insert(try paths.map { try QueryPaths(source: source).value(at: $0, of: key, in: binding) }).inserted
        }
    }
}

/// Values along key paths through to-one links, for sorting and `distinct`.
struct QueryPaths {
    let source: RecordSource

    func validateSortPath(_ path: [String], from binding: TypeBinding) throws {
        var current = binding
        for (position, name) in path.enumerated() {
            guard let property = current[name] else {
                throw ObjDBError.invalidQuery(
                    type: binding.schema.name, reason: "\(current.schema.name) has no property \(name)")
            }
            guard property.schema.collection == .single, property.schema.type != .linkingObjects else {
                throw ObjDBError.invalidQuery(
                    type: binding.schema.name, reason: "cannot sort by \(name): it holds several values")
            }
            if position < path.count - 1 {
                guard property.schema.type == .object,
                    let target = property.schema.objectType.flatMap({
                        source.catalog.bindings[$0]
                    })
                else {
                    throw ObjDBError.invalidQuery(type: binding.schema.name, reason: "\(name) is not a link")
                }
                current = target
            }
        }
    }

    /// The value at `path` of the object `key`; `nil` through a `nil` link.
    func value(at path: [String], of key: [UInt8], in binding: TypeBinding) throws -> StoredValue {
        var current = binding
        var currentKey = key
        let codec = ValueCodec(schema: source.catalog.schemaIndex)
        for (position, name) in path.enumerated() {
            guard let property = current[name], let reader = try source.record(in: current, key: currentKey) else {
                return .null
            }
            let value = codec.decodeField(reader.field(property.slot), of: property.schema)
            if position == path.count - 1 { return value }
            guard case .link(let type, let linked) = value, let target = source.catalog.bindings[type] else {
                return .null
            }
            current = target
            currentKey = ObjectKeyCodec.encode(linked)
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
