/// `explain()`: the access path a query takes and what it then does in memory, in words, so that
/// a slow query shows whether it found an index or scanned the table, and what it sorts in memory.
extension PreparedQuery {
    /// The plan as `explain()` shows it, without reading a snapshot.
    var explanation: String {
        explanation(of: plan, sizes: [])
    }

    /// The plan as `explain()` shows it for a run on `transaction`'s snapshot: when paths compete,
    /// the one it starts from and each one's size.
    func explanation(in transaction: Transaction) throws -> String {
        guard !alternatives.isEmpty else { return explanation }
        let sizes = try planSizes(transaction)
        return explanation(of: sizes[Self.smallest(sizes)].plan, sizes: sizes)
    }

    private func explanation(of plan: QueryPlan, sizes: [PlanSize]) -> String {
        var text = "\(binding.schema.name): \(plan)"
        if !sizes.isEmpty {
            text +=
                " (the smallest of "
                + sizes.map { "\($0.plan) \($0.isLowerBound ? "> " : "")\($0.count)" }.joined(separator: ", ") + ")"
        }
        if let filter = spec.filter { text += ", filter \(filter.text)" }
        if !spec.sorts.isEmpty { text += sortedByPlan ? ", sorted by the scan" : ", sorted in memory" }
        if !spec.distinctPaths.isEmpty { text += ", distinct by \(spec.distinctPaths.joined(separator: ", "))" }
        if let ranking = spec.ranking { text += ", ranked by BM25 of \(ranking.property) ('\(ranking.search)')" }
        if let limit = spec.limit { text += ", limit \(limit)" }
        for step in spec.then {
            switch step {
            case .sort(let keys):
                text +=
                    ", then sorted by "
                    + keys.map { "\($0.keyPath) \($0.ascending ? "ASC" : "DESC")" }
                    .joined(separator: ", ")
            case .distinct(let paths): text += ", then distinct by \(paths.joined(separator: ", "))"
            case .limit(let count): text += ", then limit \(count)"
            }
        }
        return text
    }
}
