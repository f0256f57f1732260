/// Ranked search (``Results/search(_:in:limit:)``): the best BM25 matches first.
extension PreparedQuery {
    /// The keys of the top matches in rank order: the index scores every object holding the
    /// search; they are taken best first (ties in table-key order), each tested against the rest
    /// of the filter, until the limit is reached.
    func rankedKeys(_ ranking: TextRanking, _ reader: QueryReader) throws -> [[UInt8]] {
        guard let property = binding[ranking.property], let table = binding.table else { return [] }
        let limit = spec.limit ?? Int.max
        guard limit > 0 else { return [] }
        let search = TextSearch(ranking.search)
        let transaction = reader.source.transaction
        guard
            let searcher = FullTextSearcher(
                transaction: transaction, property: property,
                kind: PostingCodec.KeyKind.forPrimaryKey(binding.primaryKey?.schema.type))
        else { return [] }
        let (keys, scores) = try searcher.scored(search)
        // What else the filter asks: nothing when the plan is this search and it is all the filter.
        var test = try wholeFilter()
        if case .fullText(let planned, let plannedSearch) = plan, planned === property, plannedSearch == search {
            test = residual
        }
        var order = Array(0..<keys.count)
        // Best first; equal scores keep table-key order (the keys come sorted).
        let byRank = { (left: Int, right: Int) -> Bool in
            scores[left] != scores[right] ? scores[left] > scores[right] : left < right
        }
        var ranked: [[UInt8]] = []
        guard let test else {
            if limit < order.count {
                order = Self.top(limit, of: order, by: byRank)
            } else {
                order.sort(by: byRank)
            }
            return order.map { keys[$0] }
        }
        order.sort(by: byRank)
        for position in order {
            let matches = try keys.withKey(at: position) { key -> Bool in
                guard let bytes = try transaction.get(key, in: table) else { return false }
                return try test.matches(try reader.record(bytes, of: binding), key: key, in: reader)
            }
            if matches {
                ranked.append(keys[position])
                if ranked.count == limit { break }
            }
        }
        return ranked
    }

    /// The first `count` of `items` in the order `precedes` gives, found with a bounded heap
    /// (O(n log k)) instead of a whole sort.
    private static func top(_ count: Int, of items: [Int], by precedes: (Int, Int) -> Bool) -> [Int] {
        var heap: [Int] = []  // the worst kept item on top
        heap.reserveCapacity(count + 1)
        func siftUp(_ start: Int) {
            var child = start
            while child > 0 {
                let parent = (child - 1) / 2
                guard precedes(heap[parent], heap[child]) else { break }
                heap.swapAt(parent, child)
                child = parent
            }
        }
        func siftDown() {
            var parent = 0
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var worst = parent
                if left < heap.count, precedes(heap[worst], heap[left]) { worst = left }
                if right < heap.count, precedes(heap[worst], heap[right]) { worst = right }
                if worst == parent { return }
                heap.swapAt(parent, worst)
                parent = worst
            }
        }
        for item in items {
            if heap.count < count {
                heap.append(item)
                siftUp(heap.count - 1)
            } else if precedes(item, heap[0]) {
                heap[0] = item
                siftDown()
            }
        }
        return heap.sorted(by: precedes)
    }
}
