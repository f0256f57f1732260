/// Running a prepared query in one snapshot: each answer (a count, the first match, the keys)
/// scans only as far as it needs, and reorders in memory only what the plan's order leaves unsorted.
extension PreparedQuery {
    /// Whether the scan's order is the results' order, so a limit can stop it early.
    private var orderedByScan: Bool { spec.sorts.isEmpty ? plan.yieldsKeyOrder : sortedByPlan }

    /// The number of matching objects; without a sort or `distinct`, counted without keeping a key.
    func count(_ reader: QueryReader) throws -> Int {
        if let ranking = spec.ranking { return try rankedMatches(ranking, reader).count }
        guard spec.then.isEmpty, spec.distinctPaths.isEmpty, spec.sorts.isEmpty || spec.limit == nil else {
            return try matches(reader).keys.count
        }
        if let limit = spec.limit, !orderedByScan { return Swift.min(limit, try matches(reader).keys.count) }
        var counter = MatchCounter(limit: spec.limit)
        try scan(reader, &counter)
        return counter.count
    }

    /// The first matching object's key and record, reading no further than it when the scan's
    /// order is the results' order.
    func first(_ reader: QueryReader) throws -> (key: [UInt8], record: RecordReader?)? {
        if let ranking = spec.ranking { return try rankedMatches(ranking, reader).first.map { ($0, nil) } }
        if !spec.sorts.isEmpty, !sortedByPlan, spec.distinctPaths.isEmpty, spec.then.isEmpty {
            guard spec.limit != 0 else { return nil }
            return try leastBySort(reader).map { ($0, nil) }
        }
        guard orderedByScan, spec.limit != 0, spec.then.isEmpty else {
            let found = try matches(reader)
            return found.keys.first.map { ($0, found.records?.first) }
        }
        var collector = MatchCollector(limit: 1)
        try scan(reader, &collector)
        return collector.keys.first.map { ($0, collector.keptRecords?.first) }
    }

    /// The matching objects' table keys in the results' order, as a key list, with their records
    /// when kept. When the scan's order is the results' and nothing reorders or thins them
    /// afterwards (the common case), the keys stay in one buffer: no array per key.
    func matchedKeys(_ reader: QueryReader) throws -> (keys: KeyChunks, records: [RecordReader]?) {
        if let ranking = spec.ranking { return (KeyChunks(try rankedMatches(ranking, reader)), nil) }
        guard orderedByScan, spec.distinctPaths.isEmpty, thenSteps.isEmpty else {
            let (keys, records) = try matches(reader)
            return (KeyChunks(keys), records)
        }
        var collector = FlatMatchCollector(limit: spec.limit)
        try scan(reader, &collector)
        return (KeyChunks(collector.keys), collector.keptRecords)
    }

    /// The matching objects' table keys in the results' order and, when the scan's order is the
    /// results' order, their records (pointers into the map, valid while the reader's transaction is).
    func matches(_ reader: QueryReader) throws -> (keys: [[UInt8]], records: [RecordReader]?) {
        if let ranking = spec.ranking { return (try rankedMatches(ranking, reader), nil) }
        let stopsEarly = orderedByScan && spec.distinctPaths.isEmpty
        var collector = MatchCollector(limit: stopsEarly ? spec.limit : nil)
        try scan(reader, &collector)
        var keys = collector.keys
        var records: [RecordReader]? = collector.keptRecords
        if !spec.sorts.isEmpty && !sortedByPlan {
            keys = try sort(keys, records: records, reader)
            records = nil
        } else if spec.sorts.isEmpty && !plan.yieldsKeyOrder {
            // Unsorted results always come in table-key order, whichever path found them.
            records = nil
            keys.sort { $0.lexicographicallyPrecedes($1) }
        }
        if !spec.distinctPaths.isEmpty {
            records = nil
            keys = try distinct(keys, reader)
        }
        if let limit = spec.limit, keys.count > limit {
            keys.removeLast(keys.count - limit)
            if let kept = records, kept.count > limit { records = Array(kept.prefix(limit)) }
        }
        try applyThenSteps(to: &keys, records: &records, reader)
        return (keys, records)
    }

    /// A ranked search's matches: the best ones, then whatever steps follow the search.
    private func rankedMatches(_ ranking: TextRanking, _ reader: QueryReader) throws -> [[UInt8]] {
        var keys = try rankedKeys(ranking, reader)
        var records: [RecordReader]? = nil
        try applyThenSteps(to: &keys, records: &records, reader)
        return keys
    }

    /// Whether the object `key`, whose record is `record`, matches the whole filter.
    func matchesFilter(_ record: RecordReader, key: UnsafeRawBufferPointer, _ reader: QueryReader) throws -> Bool {
        try wholeFilter()?.matches(record, key: key, in: reader) ?? true
    }
}
