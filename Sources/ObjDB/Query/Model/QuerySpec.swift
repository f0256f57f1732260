/// Everything a ``Results`` asks of its objects: which, in what order, how many.
struct QuerySpec: Hashable, Sendable {
    var filter: QueryExpression?
    var sorts: [SortKey] = []
    var distinctPaths: [String] = []
    var limit: Int?
    /// What follows the sort, `distinct` and limit, in order: the steps of a predicate's
    /// `SORT`/`DISTINCT`/`LIMIT` trailer that they cannot do (see ``ordered(by:)``).
    var then: [OrderingStep] = []
    /// Best full-text matches first (``Results/search(_:in:limit:)``): the order, before `then`.
    var ranking: TextRanking?

    /// Whether the results are simply every object in key order.
    var isEverything: Bool {
        filter == nil && sorts.isEmpty && distinctPaths.isEmpty && limit == nil && then.isEmpty && ranking == nil
    }

    /// `self` with `expression` added to the filter by `AND`.
    func filtered(by expression: QueryExpression) -> QuerySpec {
        var spec = self
        spec.filter = filter.map { .and([$0, expression]) } ?? expression
        return spec
    }
}
