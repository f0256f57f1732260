/// Choosing, in each run, between a full-text search and the other access paths of the same
/// filter by how many candidates each would yield in the snapshot read.
///
/// A search's cost depends on its words: `text TEXT 'the' AND userId == 5` should start from the
/// index on `userId`, `text TEXT 'zygote' AND userId == 5` from the full-text index. No rank fixed
/// when the query is prepared can know which, so the planner keeps every such path
/// (``PlanChoice/alternatives``) and each run counts them: an index key's entries (LMDB keeps their
/// number), a search's postings (from its chunks' headers, stopping once it passes the smallest
/// count so far), a primary-key range's keys (likewise bounded). The smallest one is scanned.
extension PreparedQuery {
    /// One access path's size in a snapshot.
    struct PlanSize {
        var plan: QueryPlan
        /// The candidates it yields, or (``isLowerBound``) more than this many.
        var count: Int
        var isLowerBound: Bool
    }

    /// The plan a run scans and the filter its candidates are tested with: the static plan,
    /// unless several paths compete and another is smaller in this snapshot.
    func runPlan(_ reader: QueryReader) throws -> (plan: QueryPlan, residual: FilterProgram?) {
        guard !alternatives.isEmpty else { return (plan, residual) }
        let sizes = try planSizes(reader.source.transaction)
        let chosen = Self.smallest(sizes)
        return (alternatives[chosen].plan, alternatives[chosen].residual)
    }

    /// The sizes of the competing paths, in ``alternatives``' order (the static plan first).
    func planSizes(_ transaction: Transaction) throws -> [PlanSize] {
        var sizes: [PlanSize?] = Array(repeating: nil, count: alternatives.count)
        var cap = Int.max
        // Exact counts first (cheap), then the bounded walks, each stopping past the smallest so far.
        for pass in 0..<2 {
            for (position, alternative) in alternatives.enumerated() where alternative.plan.hasCheapSize == (pass == 0)
            {
                let size = try size(of: alternative.plan, cap: cap, in: transaction)
                sizes[position] = PlanSize(
                    plan: alternative.plan, count: size.isLowerBound ? cap : size.count, isLowerBound: size.isLowerBound
                )
                if !size.isLowerBound { cap = Swift.min(cap, size.count) }
            }
        }
        return sizes.map { $0! }
    }

    /// The position of the smallest size; ties go to the earlier path (the better static rank).
    static func smallest(_ sizes: [PlanSize]) -> Int {
        var best = 0
        for position in sizes.indices.dropFirst() {
            let size = sizes[position]
            let current = sizes[best]
            if !size.isLowerBound, current.isLowerBound || size.count < current.count { best = position }
        }
        return best
    }

    /// How many candidates `plan` yields, counting no further than `cap` where counting walks.
    private func size(of plan: QueryPlan, cap: Int, in transaction: Transaction) throws
        -> (count: Int, isLowerBound: Bool)
    {
        switch plan {
        case .primaryKeyLookup(let keys), .compoundLookup(_, let keys):
            // A unique key leads to one object at most.
            return (keys.count, false)
        case .indexLookup(let property, let keys):
            guard let index = property.index else { return (0, false) }
            let cursor = try transaction.cursor(index)
            var count = 0
            for key in keys where try key.withUnsafeBytes({ try cursor.seek(exactly: $0) }) != nil {
                count += index.options.contains(.duplicateSort) ? try cursor.valueCount() : 1
            }
            return (count, false)
        case .primaryKeyRange(let lower, let upper):
            guard let table = binding.table else { return (0, false) }
            return try Self.countRange(lower, upper, cap: cap, in: table, transaction)
        case .indexRange(let property, let lower, let upper):
            guard let index = property.index else { return (0, false) }
            return try Self.countRange(lower, upper, cap: cap, in: index, transaction)
        case .fullText(let property, let search):
            guard let searcher = FullTextSearcher(transaction: transaction, property: property, kind: .unsigned)
            else { return (0, false) }
            return try searcher.estimatedCount(of: search, cap: cap)
        case .fullScan, .indexOrder:
            return (cap, true)
        }
    }

    /// The entries between two bounds, counted up to just past `cap`.
    private static func countRange(
        _ lower: KeyBound?, _ upper: KeyBound?, cap: Int, in database: DatabaseHandle, _ transaction: Transaction
    ) throws -> (count: Int, isLowerBound: Bool) {
        var count = 0
        try transaction.cursor(database).forEach(from: lower, to: upper) { _ in
            count += 1
            return count <= cap
        }
        return (count, count > cap)
    }
}

extension QueryPlan {
    /// Whether the plan's size is known without walking its candidates.
    var hasCheapSize: Bool {
        switch self {
        case .primaryKeyLookup, .indexLookup: return true
        default: return false
        }
    }
}

extension FullTextSearcher {
    /// At most how many objects match `search`: the fewest postings of any word it requires,
    /// read from the chunks' headers; `isLowerBound` when every count passed `cap` (counting stopped).
    func estimatedCount(of search: TextSearch, cap: Int) throws -> (count: Int, isLowerBound: Bool) {
        var best: Int?
        var limit = cap
        for phrase in search.required {
            for term in phrase.terms {
                let (count, stopped) = try postingCount(of: term, cap: limit)
                if !stopped, best.map({ count < $0 }) ?? true {
                    best = count
                    limit = Swift.min(limit, count)
                }
            }
        }
        guard let best else { return (cap, true) }
        return (best, false)
    }

    /// How many postings `term` has (a prefix: every token it starts), counted from chunk
    /// headers; `stopped` once the count passes `cap`.
    func postingCount(of term: TextSearch.Term, cap: Int) throws -> (count: Int, stopped: Bool) {
        let cursor = try transaction.cursor(index)
        var count = 0
        var entry = try term.token.withUnsafeBytes { try cursor.seek(atLeast: $0) }
        while let found = entry, let parts = PostingCodec.splitEntryKey(found.key) {
            let belongs = term.isPrefix ? parts.token.starts(with: term.token) : parts.token.elementsEqual(term.token)
            guard belongs else { break }
            count += PostingCodec.ChunkHeader(found.value)?.count ?? 0
            if count > cap { return (count, true) }
            entry = try cursor.next()
        }
        count += try recentCount(of: term)
        return (count, count > cap)
    }
}
