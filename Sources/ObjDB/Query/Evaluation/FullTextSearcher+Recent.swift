/// The recent segment's postings (``PostingCodec/recentKey(_:)``): objects written since the last
/// fold, one entry each, read beside the chunks by every search. The segment is small (the write
/// that passes ``Configuration/fullTextRecentLimit`` folds it), so each term walks it whole.
extension FullTextSearcher {
    /// Calls `body` with each recent object holding `term` (a prefix: any token it starts), in
    /// table-key order: its table key, token count, the term's count in it and where the first
    /// matching token's positions start (in place).
    func forEachRecent(
        holding term: TextSearch.Term,
        _ body: (
            _ key: UnsafeRawBufferPointer, _ length: Int, _ count: Int, _ positions: UnsafeRawPointer,
            _ entry: PostingCodec.RecentEntry
        ) throws -> Void
    ) throws {
        let cursor = try transaction.cursor(segment.database)
        var entry = try [PostingCodec.recentPrefix].withUnsafeBytes { try cursor.seek(atLeast: $0) }
        while let current = entry, PostingCodec.isRecentKey(current.key) {
            guard let recent = PostingCodec.RecentEntry(current.value) else { throw damaged(term.token) }
            var count = 0
            var first: UnsafeRawPointer?
            let complete = term.token.withUnsafeBytes { wanted in
                recent.forEachToken { token, tf, positions in
                    let matches = term.isPrefix ? token.starts(with: wanted) : token.elementsEqual(wanted)
                    if matches {
                        count += tf
                        if first == nil { first = positions }
                        return term.isPrefix
                    }
                    // Tokens are in order: past the term (or past every token it starts), stop.
                    return PostingCodec.compare(token, wanted) < 0
                }
            }
            guard complete else { throw damaged(term.token) }
            if let first {
                try body(UnsafeRawBufferPointer(rebasing: current.key.dropFirst()), recent.length, count, first, recent)
            }
            entry = try cursor.next()
        }
    }

    /// How many recent objects hold `term`.
    func recentCount(of term: TextSearch.Term) throws -> Int {
        var count = 0
        try forEachRecent(holding: term) { _, _, _, _, _ in count += 1 }
        return count
    }

    /// The recent postings of `term` as integers, among `candidates` (all when `nil`).
    func recentOrdinalPostings(
        of term: TextSearch.Term, within candidates: [UInt64]?, detail: Bool, positions: Bool
    ) throws -> OrdinalPostings {
        var found = OrdinalPostings()
        try forEachRecent(holding: term) { key, length, count, start, _ in
            guard let ordinal = PostingCodec.ordinal(key, kind: kind) else { throw damaged(term.token) }
            if let candidates, Self.find(ordinal, in: candidates) == nil { return }
            if detail || positions {
                found.append(ordinal, count: count, length: length)
                if positions { found.positionStarts.append(start) }
            } else {
                found.ordinals.append(ordinal)
            }
        }
        return found
    }

    /// The recent postings of `term` with their keys' bytes, and (for `detail`) counts, lengths and
    /// (for `positions`) positions.
    func recentPostings(of term: TextSearch.Term, detail: Bool, positions: Bool) throws -> PostingList {
        var found = PostingList()
        try forEachRecent(holding: term) { key, length, count, start, entry in
            found.keys.append(key)
            guard detail else { return }
            found.counts.append(count)
            found.lengths.append(length)
            guard positions else { return }
            var decoded: [Int] = []
            if term.isPrefix {
                // Each token the prefix starts has positions of its own: merged.
                _ = term.token.withUnsafeBytes { wanted in
                    entry.forEachToken { token, tf, places in
                        guard token.starts(with: wanted) else { return PostingCodec.compare(token, wanted) < 0 }
                        var reader = PositionReader(places, count: Int32(clamping: tf))
                        while let position = reader.next() { decoded.append(position) }
                        return true
                    }
                }
                decoded.sort()
            } else {
                var reader = PositionReader(start, count: Int32(clamping: count))
                while let position = reader.next() { decoded.append(position) }
            }
            found.positionValues += decoded
            found.positionEnds.append(found.positionValues.count)
        }
        return found
    }

    func damaged(_ token: [UInt8]) -> ObjDBError {
        ObjDBError.corruptRecord(
            path: transaction.environment.path, type: "full-text index",
            reason: "the recent postings do not decode (searching '\(String(decoding: token, as: UTF8.self))')")
    }
}

extension OrdinalPostings {
    /// The postings of `left` and `right`, objects that do not overlap (the chunks' and the recent
    /// segment's), in order; positions kept when both have them.
    init(merging left: OrdinalPostings, _ right: OrdinalPostings) {
        let detail = left.counts.count == left.count && right.counts.count == right.count
        let positions =
            detail && left.positionStarts.count == left.count && right.positionStarts.count == right.count
            && (left.count > 0 || right.count > 0)
            && !(left.positionStarts.isEmpty && right.positionStarts.isEmpty)
        self.init()
        ordinals.reserveCapacity(left.count + right.count)
        var a = 0
        var b = 0
        while a < left.count || b < right.count {
            let takeLeft = b == right.count || (a < left.count && left.ordinals[a] <= right.ordinals[b])
            if takeLeft, b < right.count, a < left.count, left.ordinals[a] == right.ordinals[b] {
                // Not expected (an object is in one place); counted once, with both counts.
                ordinals.append(left.ordinals[a])
                if detail {
                    counts.append(left.counts[a] + right.counts[b])
                    lengths.append(left.lengths[a])
                }
                if positions { positionStarts.append(left.positionStarts[a]) }
                a += 1
                b += 1
                continue
            }
            let (list, index) = takeLeft ? (left, a) : (right, b)
            ordinals.append(list.ordinals[index])
            if detail {
                counts.append(list.counts[index])
                lengths.append(list.lengths[index])
            }
            if positions { positionStarts.append(list.positionStarts[index]) }
            if takeLeft { a += 1 } else { b += 1 }
        }
    }
}
