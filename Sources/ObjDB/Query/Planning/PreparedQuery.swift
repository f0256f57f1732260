import Foundation

/// A query ready to run in any snapshot of its store: the filter compiled, the access path
/// chosen, the sort and `distinct` paths checked, once.
///
/// A ``Results`` prepares its query when it is made, so a bad query fails there, and every
/// count and read runs the same program. Nothing here holds a transaction: each run reads
/// through the ``QueryReader`` it is given.
final class PreparedQuery: @unchecked Sendable {
    // @unchecked Sendable: immutable after `init`; TypeBinding, FilterProgram and the plan's
    // bound properties are immutable too.

    let binding: TypeBinding
    let spec: QuerySpec
    let plan: QueryPlan
    /// Whether the plan yields the sort's order (or, unsorted, table-key order).
    let sortedByPlan: Bool
    /// The whole filter, compiled now or at first use (``wholeFilter()``).
    private let lazyFilter: LazyFilter
    /// The filter each candidate is tested with: the whole filter, less the conjunct the plan decides.
    let residual: FilterProgram?
    /// The paths a run chooses among by their sizes in its snapshot (``plan`` first, with
    /// ``residual``), each with its residual filter; empty when the plan is fixed.
    let alternatives: [(plan: QueryPlan, residual: FilterProgram?)]
    let sortPaths: [[String]]
    let distinctPaths: [[String]]
    /// The spec's ``QuerySpec/then`` steps, each with the paths it reads.
    let thenSteps: [(step: OrderingStep, paths: [[String]])]

    /// Prepares `spec` for objects of `binding`'s type.
    ///
    /// - Throws: ``ObjDBError/invalidQuery(type:reason:)`` for a filter, a sort or a `distinct`
    ///   that names a property the type lacks or compares what cannot be compared.
    init(catalog: StoreCatalog, binding: TypeBinding, spec: QuerySpec) throws {
        self.binding = binding
        var spec = spec
        // `5 == x`, `x == {1, 2}` and the like become the comparisons the planner reads.
        spec.filter = try spec.filter.map { try QueryNormalizer(catalog: catalog, root: binding).normalize($0) }
        self.spec = spec
        sortPaths = spec.sorts.map { SortPath.components($0.keyPath) }
        distinctPaths = spec.distinctPaths.map(SortPath.components)
        for path in sortPaths { try QueryPaths.validateSortPath(path, from: binding, catalog: catalog, what: "sort") }
        for path in distinctPaths {
            try QueryPaths.validateSortPath(path, from: binding, catalog: catalog, what: "distinct")
        }
        thenSteps = try spec.then.map { step in
            let paths = Self.paths(of: step)
            let what = if case .sort = step { "sort" } else { "distinct" }
            for path in paths { try QueryPaths.validateSortPath(path, from: binding, catalog: catalog, what: what) }
            return (step, paths)
        }
        let compiler = FilterCompiler(catalog: catalog, root: binding)
        // A shape that compiled before compiles again: the whole filter waits for its first use.
        let shape = spec.filter == nil ? nil : QueryShape(of: spec)
        let compiledBefore = shape.map { catalog.compiledQueryShapes.contains($0) } ?? false
        var filter = compiledBefore ? nil : try spec.filter.map { try compiler.compile($0) }
        let choice = try QueryPlanner(catalog: catalog, binding: binding).choose(filter: spec.filter, sorts: spec.sorts)
        plan = choice.plan
        sortedByPlan = choice.sortedByPlan
        /// The filter less the conjunct a path decides.
        func residualFilter(deciding decided: Int?) throws -> FilterProgram? {
            guard let expression = spec.filter, let decided else {
                if filter == nil, let whole = spec.filter { filter = try compiler.compile(whole) }
                return filter
            }
            var conjuncts = expression.conjuncts
            conjuncts.remove(at: decided)
            switch conjuncts.count {
            case 0: return nil
            case 1: return try compiler.compile(conjuncts[0])
            default: return try compiler.compile(.and(conjuncts))
            }
        }
        let residual = try residualFilter(deciding: choice.exactConjunct)
        self.residual = residual
        alternatives = try choice.alternatives.enumerated().map { position, alternative in
            (alternative.plan, position == 0 ? residual : try residualFilter(deciding: alternative.exactConjunct))
        }
        // Compiled already when a path leaves the whole filter to test.
        if filter == nil, let expression = spec.filter {
            lazyFilter = LazyFilter(compiling: expression, with: compiler)
        } else {
            lazyFilter = LazyFilter(filter)
        }
        if let shape, !compiledBefore { catalog.compiledQueryShapes.insert(shape) }
    }

    /// The whole filter, compiled (at its first use, for a shape that compiled before).
    func wholeFilter() throws -> FilterProgram? {
        try lazyFilter.program()
    }

    /// The same query cut to at most `limit` objects, after whatever it does already: the
    /// filter and the plan are shared, not compiled again.
    func limited(to limit: Int) -> PreparedQuery {
        let spec = self.spec.ordered(by: [.limit(limit)])
        return PreparedQuery(
            binding: binding, spec: spec, plan: plan, sortedByPlan: sortedByPlan, filter: lazyFilter,
            residual: residual, alternatives: alternatives, sortPaths: sortPaths, distinctPaths: distinctPaths,
            thenSteps: spec.then.map { ($0, Self.paths(of: $0)) })
    }

    /// The key paths a step reads, split into names.
    private static func paths(of step: OrderingStep) -> [[String]] {
        let keyPaths: [String]
        switch step {
        case .sort(let keys): keyPaths = keys.map(\.keyPath)
        case .distinct(let paths): keyPaths = paths
        case .limit: keyPaths = []
        }
        return keyPaths.map(SortPath.components)
    }

    private init(
        binding: TypeBinding, spec: QuerySpec, plan: QueryPlan, sortedByPlan: Bool, filter: LazyFilter,
        residual: FilterProgram?, alternatives: [(plan: QueryPlan, residual: FilterProgram?)],
        sortPaths: [[String]], distinctPaths: [[String]], thenSteps: [(step: OrderingStep, paths: [[String]])]
    ) {
        self.binding = binding
        self.spec = spec
        self.plan = plan
        self.sortedByPlan = sortedByPlan
        self.lazyFilter = filter
        self.residual = residual
        self.alternatives = alternatives
        self.sortPaths = sortPaths
        self.distinctPaths = distinctPaths
        self.thenSteps = thenSteps
    }
}
