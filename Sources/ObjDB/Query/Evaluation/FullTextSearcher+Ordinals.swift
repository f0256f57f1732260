import Foundation

/// Searching a full-text index of a type with integer table keys (an integer primary key or
/// internal IDs): postings decoded as the keys' order-preserving integers
/// (``PostingCodec/ordinal(_:kind:)``), never as key bytes.
///
/// The required phrases go smallest first (their sizes read from chunk headers); each later one,
/// and each exclusion, is decoded only where the objects still matching could be: a chunk whose
/// range (its first key up to the next chunk's) holds none of them is skipped undecoded. A phrase
/// finds where its words stand from the chunks' position sections, read only for the objects that
/// hold every word, in place (pointers into the map, valid while the transaction is).
extension FullTextSearcher {
    /// The matching objects' ordinals in table-key order and, for `detail`, their BM25 scores.
    func ordinalRun(_ search: TextSearch, detail: Bool) throws -> (ordinals: [UInt64], scores: [Double]) {
        guard !search.required.isEmpty else { return ([], []) }
        if detail { return try scoredOrdinals(search) }
        var sizes: [Int] = []
        for phrase in search.required { sizes.append(try estimatedCount(of: phrase)) }
        let order = search.required.indices.sorted { sizes[$0] < sizes[$1] }
        var matched: [UInt64]?
        for position in order {
            matched = try ordinalPostings(of: search.required[position], within: matched, detail: false).ordinals
            if matched!.isEmpty { return ([], []) }
        }
        var result = matched ?? []
        for phrase in search.excluded where !result.isEmpty {
            let excluded = try ordinalPostings(of: phrase, within: result, detail: false).ordinals
            result = Self.subtracting(excluded, from: result)
        }
        return (result, [])
    }

    /// The matches and their scores: every required phrase decoded whole, with its statistics,
    /// then intersected smallest first.
    private func scoredOrdinals(_ search: TextSearch) throws -> (ordinals: [UInt64], scores: [Double]) {
        let lists = try search.required.map { try ordinalPostings(of: $0, within: nil, detail: true) }
        let order = lists.indices.sorted { lists[$0].count < lists[$1].count }
        var matched = lists[order[0]].ordinals
        // For each phrase, where each matched object sits in its list.
        var slots = [[Int]](repeating: [], count: lists.count)
        slots[order[0]] = Array(0..<matched.count)
        for (step, listIndex) in order.enumerated().dropFirst() {
            let (kept, positions) = Self.intersect(matched, lists[listIndex].ordinals)
            for earlier in order.prefix(step) { slots[earlier] = kept.map { slots[earlier][$0] } }
            slots[listIndex] = positions
            matched = kept.map { matched[$0] }
            if matched.isEmpty { return ([], []) }
        }
        for phrase in search.excluded where !matched.isEmpty {
            let excluded = try ordinalPostings(of: phrase, within: matched, detail: false).ordinals
            let kept = Self.keptPositions(of: matched, without: excluded)
            guard kept.count < matched.count else { continue }
            for index in slots.indices { slots[index] = kept.map { slots[index][$0] } }
            matched = kept.map { matched[$0] }
        }
        let scores = Self.bm25Scores(
            rows: matched.count, slots: slots, hits: lists.map(\.count), counts: lists.map(\.counts),
            lengths: lists.map(\.lengths), statistics: try statistics())
        return (matched, scores)
    }

    /// The table keys of `ordinals`, end to end.
    func flatKeys(_ ordinals: [UInt64]) -> FlatKeys {
        var keys = FlatKeys()
        keys.reserve(ordinals.count, keyLength: 9)
        withUnsafeTemporaryAllocation(byteCount: 10, alignment: 1) { buffer in
            for ordinal in ordinals {
                var sink = BufferSink(buffer)
                PostingCodec.appendKey(ordinal: ordinal, kind: kind, to: &sink)
                keys.append(UnsafeRawBufferPointer(rebasing: buffer[0..<sink.position]))
            }
        }
        return keys
    }

    /// At most how many objects hold `phrase`: its rarest word's postings.
    private func estimatedCount(of phrase: TextSearch.Phrase) throws -> Int {
        try phrase.terms.map { try postingCount(of: $0, cap: Int.max).count }.min() ?? 0
    }

    // MARK: Phrases

    /// The postings of `phrase` among `candidates` (all objects when `nil`): for a phrase of
    /// several words, the objects where they stand in order, each with how often (its count).
    private func ordinalPostings(of phrase: TextSearch.Phrase, within candidates: [UInt64]?, detail: Bool)
        throws -> OrdinalPostings
    {
        if phrase.terms.count == 1 {
            return try ordinalPostings(of: phrase.terms[0], within: candidates, detail: detail, positions: false)
        }
        if phrase.terms.contains(where: \.isPrefix) {
            // A prefix inside a phrase (rare): its tokens' positions merged, by the key-byte path.
            var converted = OrdinalPostings()
            let list = try postings(of: phrase, detail: true)
            for index in 0..<list.count {
                guard let ordinal = list.keys.withKey(at: index, { PostingCodec.ordinal($0, kind: kind) }) else {
                    continue
                }
                if let candidates, Self.find(ordinal, in: candidates) == nil { continue }
                converted.append(ordinal, count: list.counts[index], length: list.lengths[index])
            }
            return converted
        }
        // Each word among the objects holding the rarer ones, rarest first.
        var sizes: [Int] = []
        for term in phrase.terms { sizes.append(try postingCount(of: term, cap: Int.max).count) }
        let order = phrase.terms.indices.sorted { sizes[$0] < sizes[$1] }
        var lists = [OrdinalPostings](repeating: OrdinalPostings(), count: phrase.terms.count)
        var within = candidates
        for termIndex in order {
            lists[termIndex] = try ordinalPostings(
                of: phrase.terms[termIndex], within: within, detail: true, positions: true)
            within = lists[termIndex].ordinals
            if within!.isEmpty { return OrdinalPostings() }
        }
        // Every list now holds the last one's objects and maybe more: walk them together, each
        // list's columns through pointers (an element of an array of structs costs a retain).
        let objects = within ?? []
        var result = OrdinalPostings()
        result.ordinals.reserveCapacity(objects.count)
        if detail {
            result.counts.reserveCapacity(objects.count)
            result.lengths.reserveCapacity(objects.count)
        }
        var starts: [Int] = []
        Self.withColumns(of: lists) { ordinals, counts, pointers in
            var cursors = [Int](repeating: 0, count: ordinals.count)
            let lengths = lists[0].lengths
            for ordinal in objects {
                for term in cursors.indices {
                    while ordinals[term][cursors[term]] < ordinal { cursors[term] += 1 }
                }
                // Where the first word stands, kept while each next word stands right after.
                starts.removeAll(keepingCapacity: true)
                var first = PositionReader(pointers[0][cursors[0]], count: counts[0][cursors[0]])
                while let position = first.next() { starts.append(position) }
                for term in 1..<cursors.count where !starts.isEmpty {
                    var other = PositionReader(pointers[term][cursors[term]], count: counts[term][cursors[term]])
                    var current = other.next()
                    var kept = 0
                    for index in starts.indices {
                        let wanted = starts[index] + term
                        while let found = current, found < wanted { current = other.next() }
                        if current == wanted {
                            starts[kept] = starts[index]
                            kept += 1
                        }
                    }
                    starts.removeLast(starts.count - kept)
                }
                if starts.isEmpty { continue }
                if detail {
                    result.append(ordinal, count: starts.count, length: Int(lengths[cursors[0]]))
                } else {
                    result.ordinals.append(ordinal)
                }
            }
        }
        return result
    }

    /// Calls `body` with the ordinal, count and position columns of every list, in place.
    private static func withColumns(
        of lists: [OrdinalPostings],
        _ body: (
            [UnsafeBufferPointer<UInt64>], [UnsafeBufferPointer<Int32>], [UnsafeBufferPointer<UnsafeRawPointer>]
        ) -> Void
    ) {
        var ordinals: [UnsafeBufferPointer<UInt64>] = []
        var counts: [UnsafeBufferPointer<Int32>] = []
        var pointers: [UnsafeBufferPointer<UnsafeRawPointer>] = []
        func gather(_ index: Int) {
            guard index < lists.count else { return body(ordinals, counts, pointers) }
            lists[index].ordinals.withUnsafeBufferPointer { ordinalColumn in
                lists[index].counts.withUnsafeBufferPointer { countColumn in
                    lists[index].positionStarts.withUnsafeBufferPointer { pointerColumn in
                        ordinals.append(ordinalColumn)
                        counts.append(countColumn)
                        pointers.append(pointerColumn)
                        gather(index + 1)
                    }
                }
            }
        }
        gather(0)
    }

    // MARK: Terms

    /// The postings of one term among `candidates` (all when `nil`): a token's, or a prefix's
    /// tokens' merged. Chunks whose key range holds no candidate are not decoded.
    private func ordinalPostings(of term: TextSearch.Term, within candidates: [UInt64]?, detail: Bool, positions: Bool)
        throws -> OrdinalPostings
    {
        let cursor = try transaction.cursor(index)
        var lists: [OrdinalPostings] = []
        var current = OrdinalPostings()
        var currentToken: [UInt8] = []
        var pending: (value: UnsafeRawBufferPointer, first: UInt64)?
        var candidate = 0
        var entry = try term.token.withUnsafeBytes { try cursor.seek(atLeast: $0) }
        while true {
            var next: (token: UnsafeRawBufferPointer, first: UInt64, value: UnsafeRawBufferPointer)?
            if let found = entry, let (token, firstKey) = PostingCodec.splitEntryKey(found.key),
                term.isPrefix ? token.starts(with: term.token) : token.elementsEqual(term.token)
            {
                guard let first = PostingCodec.ordinal(firstKey, kind: kind) else { throw damaged(token) }
                next = (token, first, found.value)
            }
            let sameToken = next.map { $0.token.elementsEqual(currentToken) } ?? false
            if let chunk = pending {
                // The chunk's keys lie below the next chunk's first key, when that is the same token's.
                let upper = sameToken ? next!.first : UInt64.max
                var wanted = true
                if let candidates {
                    while candidate < candidates.count, candidates[candidate] < chunk.first { candidate += 1 }
                    wanted = candidate < candidates.count && (candidates[candidate] < upper || !sameToken)
                }
                if wanted {
                    guard
                        current.decode(
                            chunk.value, first: chunk.first, within: candidates, from: &candidate, detail: detail,
                            positions: positions)
                    else { throw damaged(Array(currentToken)) }
                }
                pending = nil
            }
            guard let next else { break }
            if !sameToken {
                if current.count > 0 { lists.append(current) }
                current = OrdinalPostings()
                currentToken = Array(next.token)
                candidate = 0
            }
            pending = (next.value, next.first)
            entry = try cursor.next()
        }
        if current.count > 0 { lists.append(current) }
        let chunked: OrdinalPostings
        switch lists.count {
        case 0: chunked = OrdinalPostings()
        case 1: chunked = lists[0]
        default: chunked = OrdinalPostings(union: lists, detail: detail)
        }
        let recent = try recentOrdinalPostings(of: term, within: candidates, detail: detail, positions: positions)
        return recent.count == 0 ? chunked : OrdinalPostings(merging: chunked, recent)
    }

    private func damaged(_ token: some Collection<UInt8>) -> ObjDBError {
        ObjDBError.corruptRecord(
            path: transaction.environment.path, type: "full-text index",
            reason: "the postings of '\(String(decoding: Array(token), as: UTF8.self))' do not decode")
    }

    // MARK: Sorted integer lists

    /// The position of `value` in the ascending `values`, or `nil`.
    static func find(_ value: UInt64, in values: [UInt64]) -> Int? {
        var low = 0
        var high = values.count
        while low < high {
            let middle = (low + high) / 2
            if values[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low < values.count && values[low] == value ? low : nil
    }

    /// Which of `left` `right` holds too, and where in `right` (both ascending): a much shorter
    /// left side is searched for by galloping, similar sizes are merged.
    static func intersect(_ left: [UInt64], _ right: [UInt64]) -> (kept: [Int], positions: [Int]) {
        var kept: [Int] = []
        var positions: [Int] = []
        var low = 0
        let gallops = left.count * 8 < right.count
        for (index, value) in left.enumerated() {
            if gallops {
                var step = 1
                var high = low
                while high < right.count, right[high] < value {
                    low = high + 1
                    high += step
                    step *= 2
                }
                high = Swift.min(high, right.count)
                while low < high {
                    let middle = (low + high) / 2
                    if right[middle] < value { low = middle + 1 } else { high = middle }
                }
            } else {
                while low < right.count, right[low] < value { low += 1 }
            }
            if low < right.count, right[low] == value {
                kept.append(index)
                positions.append(low)
            }
        }
        return (kept, positions)
    }

    /// The positions in `values` of those `removed` lacks (both ascending, `removed` a subset).
    static func keptPositions(of values: [UInt64], without removed: [UInt64]) -> [Int] {
        var kept: [Int] = []
        kept.reserveCapacity(values.count)
        var other = 0
        for (index, value) in values.enumerated() {
            while other < removed.count, removed[other] < value { other += 1 }
            if other < removed.count, removed[other] == value { continue }
            kept.append(index)
        }
        return kept
    }

    /// `values` less `removed` (both ascending).
    static func subtracting(_ removed: [UInt64], from values: [UInt64]) -> [UInt64] {
        guard !removed.isEmpty else { return values }
        return keptPositions(of: values, without: removed).map { values[$0] }
    }
}

/// The postings of one term or phrase as integers: ordinals ascending and, with detail, each
/// one's count and document length, and (a word of a phrase) where its positions start.
struct OrdinalPostings {
    var ordinals: [UInt64] = []
    var counts: [Int32] = []
    var lengths: [Int32] = []
    /// Each posting's positions, in place in its chunk: `counts[i]` LEB128 deltas.
    var positionStarts: [UnsafeRawPointer] = []

    var count: Int { ordinals.count }

    mutating func append(_ ordinal: UInt64, count: Int, length: Int) {
        ordinals.append(ordinal)
        counts.append(Int32(clamping: count))
        lengths.append(Int32(clamping: length))
    }

    /// Appends a chunk's postings that `candidates` holds (all when `nil`), `candidate` being the
    /// first candidate not yet passed; `false` when the chunk does not decode.
    ///
    /// The columns are grown once per chunk and written through pointers: an `append` per
    /// posting and column checked each array's uniqueness (a fifth of a phrase's time).
    mutating func decode(
        _ value: UnsafeRawBufferPointer, first: UInt64, within candidates: [UInt64]?, from candidate: inout Int,
        detail: Bool, positions: Bool
    ) -> Bool {
        guard let header = PostingCodec.ChunkHeader(value), let base = value.baseAddress else { return false }
        let detailed = detail || positions
        let start = ordinals.count
        Self.grow(&ordinals, by: header.count, with: 0)
        if detailed {
            Self.grow(&counts, by: header.count, with: 0)
            Self.grow(&lengths, by: header.count, with: 0)
        }
        if positions { Self.grow(&positionStarts, by: header.count, with: base) }
        var written = 0
        let decoded = ordinals.withUnsafeMutableBufferPointer { ordinalColumn in
            counts.withUnsafeMutableBufferPointer { countColumn in
                lengths.withUnsafeMutableBufferPointer { lengthColumn in
                    positionStarts.withUnsafeMutableBufferPointer { startColumn -> Bool in
                        var docs = header.docsStart
                        var stats = header.statsStart
                        var offsets = header.positionsStart
                        var ordinal = first
                        for posting in 0..<header.count {
                            if posting > 0 {
                                guard let delta = PostingCodec.readVarUInt64(value, at: &docs), delta > 0 else {
                                    return false
                                }
                                ordinal &+= delta
                            }
                            var wanted = true
                            if let candidates {
                                while candidate < candidates.count, candidates[candidate] < ordinal { candidate += 1 }
                                wanted = candidate < candidates.count && candidates[candidate] == ordinal
                            }
                            guard detailed else {
                                if wanted {
                                    ordinalColumn[start + written] = ordinal
                                    written += 1
                                }
                                continue
                            }
                            guard let lengthAndCount = VarUInt.read(value, at: &stats) else { return false }
                            var tf = lengthAndCount & 3
                            if tf == 3 {
                                guard let extra = VarUInt.read(value, at: &stats) else { return false }
                                tf += extra
                            }
                            if wanted {
                                ordinalColumn[start + written] = ordinal
                                countColumn[start + written] = Int32(clamping: tf)
                                lengthColumn[start + written] = Int32(clamping: lengthAndCount >> 2)
                                if positions { startColumn[start + written] = base + offsets }
                                written += 1
                            }
                            if positions {
                                // Past this posting's positions: tf numbers, each ending at a byte below 0x80.
                                var remaining = tf
                                while remaining > 0 {
                                    guard offsets < value.count else { return false }
                                    if value[offsets] < 0x80 { remaining -= 1 }
                                    offsets += 1
                                }
                            }
                        }
                        guard docs == header.statsStart else { return false }
                        return !detailed || stats == header.positionsStart
                    }
                }
            }
        }
        let unused = header.count - written
        ordinals.removeLast(unused)
        if detailed {
            counts.removeLast(unused)
            lengths.removeLast(unused)
        }
        if positions { positionStarts.removeLast(unused) }
        return decoded
    }

    /// Adds `count` copies of `filler` to `column`, its capacity grown by doubling.
    @inline(__always)
    private static func grow<Element>(_ column: inout [Element], by count: Int, with filler: Element) {
        let needed = column.count + count
        if needed > column.capacity { column.reserveCapacity(Swift.max(needed, column.capacity * 2)) }
        column.append(contentsOf: repeatElement(filler, count: count))
    }

    /// The union of several tokens' postings (a prefix): an object in several adds their counts.
    init(union lists: [OrdinalPostings], detail: Bool) {
        guard detail else {
            var all = lists.flatMap(\.ordinals)
            all.sort()
            var last: UInt64?
            for ordinal in all where ordinal != last {
                ordinals.append(ordinal)
                last = ordinal
            }
            return
        }
        var entries: [(ordinal: UInt64, count: Int32, length: Int32)] = []
        for list in lists {
            for index in 0..<list.count {
                entries.append((list.ordinals[index], list.counts[index], list.lengths[index]))
            }
        }
        entries.sort { $0.ordinal < $1.ordinal }
        for entry in entries {
            if let last = ordinals.last, last == entry.ordinal {
                counts[counts.count - 1] += entry.count
            } else {
                ordinals.append(entry.ordinal)
                counts.append(entry.count)
                lengths.append(entry.length)
            }
        }
    }

    init() {}
}

/// Reads one posting's positions in place: `count` LEB128 distances, each from the one before.
/// The chunk was checked when it was decoded, so the bytes are there.
struct PositionReader {
    private var pointer: UnsafeRawPointer
    private var remaining: Int
    private var position = 0

    init(_ pointer: UnsafeRawPointer, count: Int32) {
        self.pointer = pointer
        remaining = Int(count)
    }

    @inline(__always)
    mutating func next() -> Int? {
        guard remaining > 0 else { return nil }
        remaining -= 1
        var step = 0
        var shift = 0
        while true {
            let byte = pointer.load(as: UInt8.self)
            pointer += 1
            step |= Int(byte & 0x7F) << shift
            if byte < 0x80 || shift > 56 { break }
            shift += 7
        }
        position &+= step
        return position
    }
}
