/// Ordering done in memory, after the scan: a sort the access path does not yield, `distinct`,
/// and the steps a predicate's trailer adds after them (``QuerySpec/then``).
extension PreparedQuery {
    /// Applies the spec's ``QuerySpec/then`` steps, in order, to `keys` (and `records`, while kept).
    func applyThenSteps(to keys: inout [[UInt8]], records: inout [RecordReader]?, _ reader: QueryReader)
        throws
    {
        for (step, paths) in thenSteps {
            switch step {
            case .sort(let sorts):
                records = nil
                keys = try stableSort(keys, by: sorts, at: paths, reader)
            case .distinct:
                records = nil
                keys = try distinct(keys, at: paths, reader)
            case .limit(let limit):
                guard keys.count > limit else { continue }
                keys.removeLast(keys.count - limit)
                if let kept = records, kept.count > limit { records = Array(kept.prefix(limit)) }
            }
        }
    }

    /// `keys` in the spec's sort order; `records` (the keys' records, when the scan kept them)
    /// spare reading each object again.
    ///
    /// The sort values go in one flat array (a property of the object itself read from its slot,
    /// not looked up by name), and one numeric sort key is compared as plain numbers.
    func sort(_ keys: [[UInt8]], records: [RecordReader]?, _ reader: QueryReader) throws -> [[UInt8]] {
        let paths = QueryPaths(reader: reader)
        let codec = ValueCodec(schema: reader.catalog.schemaIndex)
        let kept = records.flatMap { $0.count == keys.count ? $0 : nil }
        let direct: [BoundProperty?] = sortPaths.map { path in
            guard path.count == 1, let property = binding[path[0]] else { return nil }
            return property
        }
        let width = sortPaths.count
        var values: [StoredValue] = []
        values.reserveCapacity(keys.count * width)
        for index in keys.indices {
            for (position, path) in sortPaths.enumerated() {
                if let kept, let property = direct[position] {
                    values.append(codec.decodeField(kept[index].field(property.slot), of: property.schema))
                } else if let kept {
                    values.append(try paths.value(at: path, from: kept[index], in: binding))
                } else {
                    values.append(try paths.value(at: path, of: keys[index], in: binding))
                }
            }
        }
        let sorts = spec.sorts
        var order = Array(keys.indices)
        // Ties in table-key order, whichever path found them: live results place changed
        // objects by the same order (`QueryOrder`).
        if width == 1, let numbers = Self.plainNumbers(values) {
            let ascending = sorts[0].ascending
            order.sort { left, right in
                let a = numbers[left]
                let b = numbers[right]
                if a != b { return ascending ? a < b : a > b }
                return keys[left].lexicographicallyPrecedes(keys[right])
            }
        } else {
            order.sort { left, right in
                for (index, sort) in sorts.enumerated() {
                    let order = QueryOrdering.compare(
                        values[left * width + index], values[right * width + index], sort.options)
                    if order != 0 { return sort.ascending ? order < 0 : order > 0 }
                }
                return keys[left].lexicographicallyPrecedes(keys[right])
            }
        }
        return order.map { keys[$0] }
    }

    /// `values` as `Double`s when each is a `Double` other than NaN, or each an integer that a
    /// `Double` holds exactly: compared as `QueryOrdering` compares them.
    private static func plainNumbers(_ values: [StoredValue]) -> [Double]? {
        var numbers: [Double] = []
        numbers.reserveCapacity(values.count)
        for value in values {
            switch value {
            case .double(let number) where !number.isNaN: numbers.append(number)
            case .int(let number) where number.magnitude <= 1 << 53: numbers.append(Double(number))
            default: return nil
            }
        }
        return numbers
    }

    func distinct(_ keys: [[UInt8]], _ reader: QueryReader) throws -> [[UInt8]] {
        try distinct(keys, at: distinctPaths, reader)
    }

    /// The first key of each distinct combination of the values at `distinctPaths`, in order.
    private func distinct(_ keys: [[UInt8]], at distinctPaths: [[String]], _ reader: QueryReader) throws
        -> [[UInt8]]
    {
        let paths = QueryPaths(reader: reader)
        var seen = Set<[StoredValue]>()
        return try keys.filter { key in
            seen.insert(try distinctPaths.map { try paths.value(at: $0, of: key, in: binding) }).inserted
        }
    }

    /// `keys` sorted by `sorts` (read at `sortPaths`), equal objects kept in the order given, as
    /// Realm's sort after a `DISTINCT` or `LIMIT` keeps them.
    private func stableSort(_ keys: [[UInt8]], by sorts: [SortKey], at sortPaths: [[String]], _ reader: QueryReader)
        throws -> [[UInt8]]
    {
        let paths = QueryPaths(reader: reader)
        let rows = try keys.map { key in (key, try sortPaths.map { try paths.value(at: $0, of: key, in: binding) }) }
        return rows.enumerated().sorted { left, right in
            for (index, sort) in sorts.enumerated() {
                let order = QueryOrdering.compare(left.element.1[index], right.element.1[index], sort.options)
                if order != 0 { return sort.ascending ? order < 0 : order > 0 }
            }
            return left.offset < right.offset
        }.map(\.element.0)
    }
}
