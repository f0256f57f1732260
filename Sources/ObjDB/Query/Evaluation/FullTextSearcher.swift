import Foundation

/// Answers a ``TextSearch`` from a full-text index (``PostingCodec``): the objects that match, in
/// table-key order, and for ranking each one's BM25 score.
///
/// Each phrase's postings are decoded chunk by chunk into one buffer of keys (no array per
/// posting); the phrases are intersected smallest first, and exclusions subtracted. A phrase of
/// several tokens is checked against the positions of each candidate.
struct FullTextSearcher {
    let transaction: Transaction
    let index: DatabaseHandle
    /// Where the statistics and the recent segment are.
    let segment: FullTextSegment
    let kind: PostingCodec.KeyKind

    /// The searcher of `property`'s full-text index; `nil` when it has none.
    init?(transaction: Transaction, property: BoundProperty, kind: PostingCodec.KeyKind) {
        guard let index = property.index, let segment = property.fullTextSegment else { return nil }
        self.transaction = transaction
        self.index = index
        self.segment = segment
        self.kind = kind
    }

    /// The BM25 parameters, as SQLite's FTS5 `bm25()` uses them.
    static let k1 = 1.2
    static let b = 0.75

    /// The objects matching `search`, in table-key order.
    func keys(matching search: TextSearch) throws -> FlatKeys {
        try run(search, detail: false).keys
    }

    /// The matching objects and their scores, parallel (in table-key order).
    func scored(_ search: TextSearch) throws -> (keys: FlatKeys, scores: [Double]) {
        let found = try run(search, detail: true)
        return (found.keys, found.scores)
    }

    /// The index's statistics: documents and their tokens.
    func statistics() throws -> (documents: Int, tokens: Int) {
        let stored = try segment.statisticsKey.withUnsafeBytes { try transaction.get($0, in: segment.database) }
        return stored.flatMap(PostingCodec.decodeStatistics) ?? (0, 0)
    }

    /// Each of `rows` matches' BM25 score: the sum over the required phrases (one list each) of
    /// the phrase's weight by how often the match holds it, `slots[list][row]` being where the
    /// match sits in that list's `counts` (term frequencies) and `lengths` (its value's tokens).
    static func bm25Scores<Count: BinaryInteger>(
        rows: Int, slots: [[Int]], hits: [Int], counts: [[Count]], lengths: [[Count]],
        statistics: (documents: Int, tokens: Int)
    ) -> [Double] {
        let documents = Double(Swift.max(statistics.documents, 1))
        let average = Double(statistics.tokens) / documents
        var scores = [Double](repeating: 0, count: rows)
        for listIndex in hits.indices {
            let hitCount = Double(hits[listIndex])
            var idf = log((documents - hitCount + 0.5) / (hitCount + 0.5))
            if idf <= 0 { idf = 1e-6 }
            for row in 0..<rows {
                let slot = slots[listIndex][row]
                let tf = Double(counts[listIndex][slot])
                let length = Double(lengths[listIndex][slot])
                let norm = average > 0 ? length / average : 1
                scores[row] += idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * norm))
            }
        }
        return scores
    }

    // MARK: Running

    private func run(_ search: TextSearch, detail: Bool) throws -> (keys: FlatKeys, scores: [Double]) {
        guard !search.required.isEmpty else { return (FlatKeys(), []) }
        if kind != .bytes {
            let (ordinals, scores) = try ordinalRun(search, detail: detail)
            return (flatKeys(ordinals), scores)
        }
        // Smallest first: the intersection only shrinks.
        var lists = try search.required.map { try postings(of: $0, detail: detail) }
        let order = lists.indices.sorted { lists[$0].count < lists[$1].count }
        var matched = lists[order[0]].keys
        // For each phrase, where each matched key sits in its list.
        var slots = [[Int]](repeating: [], count: lists.count)
        slots[order[0]] = Array(0..<matched.count)
        for (step, listIndex) in order.enumerated().dropFirst() {
            let (kept, positions) = intersect(matched, lists[listIndex].keys)
            if detail {
                for earlier in order.prefix(step) { slots[earlier] = kept.map { slots[earlier][$0] } }
                slots[listIndex] = positions
            }
            matched = Self.select(matched, kept)
            if matched.isEmpty { break }
        }
        if !search.excluded.isEmpty, !matched.isEmpty {
            var excluded: [Int] = []
            for phrase in search.excluded {
                let list = try postings(of: phrase, detail: false)
                excluded += intersect(matched, list.keys).kept
            }
            let dropped = Set(excluded)
            let kept = (0..<matched.count).filter { !dropped.contains($0) }
            if detail { for index in slots.indices { slots[index] = kept.map { slots[index][$0] } } }
            matched = Self.select(matched, kept)
        }
        guard detail else { return (matched, []) }
        let scores = Self.bm25Scores(
            rows: matched.count, slots: slots, hits: lists.map(\.count), counts: lists.map(\.counts),
            lengths: lists.map(\.lengths), statistics: try statistics())
        lists.removeAll()
        return (matched, scores)
    }

    /// The keys at `indices` of `keys`.
    private static func select(_ keys: FlatKeys, _ indices: [Int]) -> FlatKeys {
        if indices.count == keys.count { return keys }
        var selected = FlatKeys()
        selected.reserve(indices.count, keyLength: 9)
        for index in indices { keys.withKey(at: index) { selected.append($0) } }
        return selected
    }

    /// Which of `left`'s keys `right` holds too, and where in `right`: both sorted.
    private func intersect(_ left: FlatKeys, _ right: FlatKeys) -> (kept: [Int], positions: [Int]) {
        var kept: [Int] = []
        var positions: [Int] = []
        var low = 0
        // A much smaller left side is searched for; similar sizes are merged.
        let searches = left.count * 8 < right.count
        for index in 0..<left.count {
            left.withKey(at: index) { key in
                if searches {
                    var high = right.count
                    while low < high {
                        let middle = (low + high) / 2
                        let order = right.withKey(at: middle) { PostingCodec.compare($0, key) }
                        if order < 0 { low = middle + 1 } else { high = middle }
                    }
                } else {
                    while low < right.count, right.withKey(at: low, { PostingCodec.compare($0, key) }) < 0 { low += 1 }
                }
                if low < right.count, right.withKey(at: low, { PostingCodec.compare($0, key) }) == 0 {
                    kept.append(index)
                    positions.append(low)
                }
            }
        }
        return (kept, positions)
    }

    /// How many objects hold `phrase`: for one exact token, from the chunks' headers alone.
    func documentCount(of phrase: TextSearch.Phrase) throws -> Int {
        guard phrase.terms.count == 1, !phrase.terms[0].isPrefix else {
            return try postings(of: phrase, detail: false).count
        }
        let token = phrase.terms[0].token
        let cursor = try transaction.cursor(index)
        var count = 0
        var entry = try token.withUnsafeBytes { try cursor.seek(atLeast: $0) }
        while let found = entry, let parts = PostingCodec.splitEntryKey(found.key), parts.token.elementsEqual(token) {
            count += PostingCodec.ChunkHeader(found.value)?.count ?? 0
            entry = try cursor.next()
        }
        return count + (try recentCount(of: phrase.terms[0]))
    }

    // MARK: Postings

    /// The postings of one phrase: every object holding it, sorted, with (for `detail`) its
    /// occurrences and the object's length.
    func postings(of phrase: TextSearch.Phrase, detail: Bool) throws -> PostingList {
        if phrase.terms.count == 1 { return try postings(of: phrase.terms[0], detail: detail, positions: false) }
        var lists = try phrase.terms.map { try postings(of: $0, detail: true, positions: true) }
        // Objects holding every term, then those where they stand in order.
        let order = lists.indices.sorted { lists[$0].count < lists[$1].count }
        var candidates = Array(0..<lists[order[0]].count)
        var slots = [[Int]](repeating: [], count: lists.count)
        slots[order[0]] = candidates
        var keys = lists[order[0]].keys
        for (step, listIndex) in order.enumerated().dropFirst() {
            let (kept, positions) = intersect(keys, lists[listIndex].keys)
            for earlier in order.prefix(step) { slots[earlier] = kept.map { slots[earlier][$0] } }
            slots[listIndex] = positions
            keys = Self.select(keys, kept)
            candidates = Array(0..<keys.count)
        }
        var result = PostingList()
        for row in candidates {
            let first = lists[0].positions(slots[0][row])
            var occurrences = 0
            for start in first {
                var aligned = true
                for term in 1..<lists.count {
                    let wanted = start + term
                    if !lists[term].positions(slots[term][row]).contains(wanted) {
                        aligned = false
                        break
                    }
                }
                if aligned { occurrences += 1 }
            }
            guard occurrences > 0 else { continue }
            keys.withKey(at: row) { result.keys.append($0) }
            result.counts.append(occurrences)
            result.lengths.append(lists[0].lengths[slots[0][row]])
        }
        lists.removeAll()
        return result
    }

    /// The postings of one term: a token's, or (a prefix) those of every token starting with it.
    private func postings(of term: TextSearch.Term, detail: Bool, positions: Bool) throws -> PostingList {
        let cursor = try transaction.cursor(index)
        var lists: [PostingList] = []
        var current = PostingList()
        var currentToken: [UInt8] = []
        var entry = try term.token.withUnsafeBytes { try cursor.seek(atLeast: $0) }
        while let found = entry {
            guard let (token, firstKey) = PostingCodec.splitEntryKey(found.key) else { break }
            if term.isPrefix {
                guard token.starts(with: term.token) else { break }
            } else {
                guard token.elementsEqual(term.token) else { break }
            }
            if term.isPrefix, !token.elementsEqual(currentToken) {
                if current.count > 0 { lists.append(current) }
                current = PostingList()
                currentToken = Array(token)
            }
            guard current.decode(found.value, firstKey: firstKey, kind: kind, detail: detail, positions: positions)
            else {
                throw ObjDBError.corruptRecord(
                    path: transaction.environment.path, type: "full-text index",
                    reason: "the postings of '\(String(decoding: token, as: UTF8.self))' do not decode")
            }
            entry = try cursor.next()
        }
        if current.count > 0 { lists.append(current) }
        let recent = try recentPostings(of: term, detail: detail, positions: positions)
        if recent.count > 0 { lists.append(recent) }
        switch lists.count {
        case 0: return PostingList()
        case 1: return lists[0]
        default: return PostingList(union: lists, detail: detail, positions: positions)
        }
    }
}

/// The postings of one token or phrase, decoded: keys in table-key order, and when asked for,
/// each one's occurrence count, document length and positions.
struct PostingList {
    var keys = FlatKeys()
    var counts: [Int] = []
    var lengths: [Int] = []
    var positionValues: [Int] = []
    var positionEnds: [Int] = []

    init() {}

    var count: Int { keys.count }

    func positions(_ index: Int) -> ArraySlice<Int> {
        positionValues[(index == 0 ? 0 : positionEnds[index - 1])..<positionEnds[index]]
    }

    /// Appends a chunk's postings; `false` when it does not decode.
    mutating func decode(
        _ value: UnsafeRawBufferPointer, firstKey: UnsafeRawBufferPointer, kind: PostingCodec.KeyKind, detail: Bool,
        positions: Bool
    ) -> Bool {
        guard let header = PostingCodec.ChunkHeader(value) else { return false }
        var docs = header.docsStart
        keys.reserve(header.count, keyLength: firstKey.count)
        keys.append(firstKey)
        if kind == .bytes {
            var previous = Array(firstKey)
            for _ in 1..<header.count {
                guard PostingCodec.readNextKey(value, at: &docs, before: header.statsStart, into: &previous) else {
                    return false
                }
                previous.withUnsafeBytes { keys.append($0) }
            }
        } else {
            guard var ordinal = PostingCodec.ordinal(firstKey, kind: kind) else { return false }
            let done = withUnsafeTemporaryAllocation(byteCount: 10, alignment: 1) { buffer -> Bool in
                for _ in 1..<header.count {
                    guard let delta = PostingCodec.readVarUInt64(value, at: &docs), delta > 0 else { return false }
                    ordinal &+= delta
                    var sink = BufferSink(buffer)
                    PostingCodec.appendKey(ordinal: ordinal, kind: kind, to: &sink)
                    keys.append(UnsafeRawBufferPointer(rebasing: buffer[0..<sink.position]))
                }
                return true
            }
            guard done else { return false }
        }
        guard docs == header.statsStart else { return false }
        guard detail else { return true }
        var stats = header.statsStart
        var offsets = header.positionsStart
        for _ in 0..<header.count {
            guard let lengthAndCount = VarUInt.read(value, at: &stats) else { return false }
            var tf = lengthAndCount & 3
            if tf == 3 {
                guard let extra = VarUInt.read(value, at: &stats) else { return false }
                tf += extra
            }
            counts.append(tf)
            lengths.append(lengthAndCount >> 2)
            guard positions else { continue }
            var position = 0
            for _ in 0..<tf {
                guard let step = VarUInt.read(value, at: &offsets) else { return false }
                position += step
                positionValues.append(position)
            }
            positionEnds.append(positionValues.count)
        }
        return stats == header.positionsStart
    }

    /// The union of several tokens' postings (a prefix): an object holding several counts each.
    init(union lists: [PostingList], detail: Bool, positions: Bool) {
        var entries: [(list: Int, index: Int)] = []
        for (listIndex, list) in lists.enumerated() {
            for index in 0..<list.count { entries.append((listIndex, index)) }
        }
        entries.sort { left, right in
            let order = lists[left.list].keys.withKey(at: left.index) { a in
                lists[right.list].keys.withKey(at: right.index) { PostingCodec.compare(a, $0) }
            }
            return order != 0 ? order < 0 : left.list < right.list
        }
        var start = 0
        while start < entries.count {
            var end = start + 1
            while end < entries.count,
                lists[entries[start].list].keys.withKey(
                    at: entries[start].index,
                    { a in
                        lists[entries[end].list].keys.withKey(at: entries[end].index) { PostingCodec.compare(a, $0) }
                    }) == 0
            {
                end += 1
            }
            let first = entries[start]
            lists[first.list].keys.withKey(at: first.index) { keys.append($0) }
            if detail {
                counts.append(entries[start..<end].reduce(0) { $0 + lists[$1.list].counts[$1.index] })
                lengths.append(lists[first.list].lengths[first.index])
                if positions {
                    positionValues += entries[start..<end].flatMap { lists[$0.list].positions($0.index) }.sorted()
                    positionEnds.append(positionValues.count)
                }
            }
            start = end
        }
    }
}
