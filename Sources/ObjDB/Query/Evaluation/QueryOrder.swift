import Foundation

/// The order of a query's results in one snapshot: its sort values, then the table key.
struct QueryOrder {
    let binding: TypeBinding
    let spec: QuerySpec
    let snapshot: Snapshot
    /// The order the results end in (a predicate's trailer may sort after the spec's own sort).
    private let sorts: [SortKey]
    private let paths: [[String]]

    init(binding: TypeBinding, spec: QuerySpec, snapshot: Snapshot) {
        self.binding = binding
        self.spec = spec
        self.snapshot = snapshot
        self.sorts = spec.effectiveSorts
        self.paths = sorts.map { SortPath.components($0.keyPath) }
    }

    func sortValues(of key: [UInt8]) throws -> [StoredValue] {
        try paths.map { try QueryPaths(source: snapshot.source()).value(at: $0, of: key, in: binding) }
    }

    /// Whether `left` comes before `right`; `knownValues` saves reading one key's values again.
    func precedes(_ left: [UInt8], _ right: [UInt8], knownValues: ([UInt8], [StoredValue])? = nil) throws -> Bool {
        if sorts.isEmpty { return left.lexicographicallyPrecedes(right) }
        let leftValues = knownValues?.0 == left ? knownValues!.1 : try sortValues(of: left)
        let rightValues = knownValues?.0 == right ? knownValues!.1 : try sortValues(of: right)
        for (index, sort) in sorts.enumerated() {
            let order = QueryOrdering.compare(leftValues[index], rightValues[index], sort.options)
            if order != 0 { return sort.ascending ? order < 0 : order > 0 }
        }
        return left.lexicographicallyPrecedes(right)
    }

    /// Whether two objects with these sort values sit in the same place relative to every other.
    func sameOrder(_ left: [StoredValue], _ right: [StoredValue]) -> Bool {
        zip(sorts, zip(left, right)).allSatisfy { sort, pair in
            QueryOrdering.compare(pair.0, pair.1, sort.options) == 0
        }
    }
}
