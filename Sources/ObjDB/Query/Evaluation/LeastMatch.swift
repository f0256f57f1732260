extension PreparedQuery {
    /// The table key of the match that sorts first, found in one pass that keeps only it:
    /// `sorted(byKeyPath:).first` holds one key, not every match's (issue #26).
    func leastBySort(_ reader: QueryReader) throws -> [UInt8]? {
        var least = LeastMatch(query: self, reader: reader)
        try scan(reader, &least)
        if let failure = least.failure { throw failure }
        return least.key
    }
}

/// The match that sorts first by a query's sorts, ties going to the smaller table key, as the
/// full sort orders them.
struct LeastMatch: MatchVisitor {
    private let sorts: [SortKey]
    private let sortPaths: [[String]]
    /// The property of each one-step path, read from the record the scan hands over.
    private let properties: [BoundProperty?]
    private let binding: TypeBinding
    private let paths: QueryPaths
    private let codec: ValueCodec
    /// The least match so far, and its values at `sortPaths`.
    private(set) var key: [UInt8]?
    private var values: [StoredValue] = []
    /// What stopped the scan: reading a value through a link failed.
    private(set) var failure: (any Error)?

    init(query: PreparedQuery, reader: QueryReader) {
        sorts = query.spec.sorts
        sortPaths = query.sortPaths
        binding = query.binding
        properties = query.sortPaths.map { $0.count == 1 ? query.binding[$0[0]] : nil }
        paths = QueryPaths(reader: reader)
        codec = ValueCodec(schema: reader.catalog.schemaIndex)
    }

    var wantsMore: Bool { failure == nil }

    mutating func take(key: UnsafeRawBufferPointer, record: RecordReader) -> Bool {
        let (properties, codec, paths, sortPaths, binding) = (properties, codec, paths, sortPaths, binding)
        return consider(key) { index in
            if let property = properties[index] {
                return codec.decodeField(record.field(property.slot), of: property.schema)
            }
            return try paths.value(at: sortPaths[index], of: Array(key), in: binding)
        }
    }

    mutating func take(key: UnsafeRawBufferPointer) -> Bool {
        let (paths, sortPaths, binding) = (paths, sortPaths, binding)
        return consider(key) { index in try paths.value(at: sortPaths[index], of: Array(key), in: binding) }
    }

    /// Keeps `key` when it sorts before the least so far, reading only the values it needs to tell.
    private mutating func consider(_ key: UnsafeRawBufferPointer, _ value: (Int) throws -> StoredValue) -> Bool {
        do {
            guard let least = self.key else {
                values = try sorts.indices.map(value)
                self.key = Array(key)
                return true
            }
            for index in sorts.indices {
                let candidate = try value(index)
                let order = QueryOrdering.compare(candidate, values[index], sorts[index].options)
                if order == 0 { continue }
                guard sorts[index].ascending ? order < 0 : order > 0 else { return true }
                values[index] = candidate
                for later in sorts.indices where later > index { values[later] = try value(later) }
                self.key = Array(key)
                return true
            }
            if key.lexicographicallyPrecedes(least) { self.key = Array(key) }
            return true
        } catch {
            failure = error
            return false
        }
    }
}
