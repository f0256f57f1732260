import ObjDB

/// Verifies one full-text index against the records: every chunk decodes, each token's chunks
/// are in table-key order without overlap, and the postings (keys, document lengths, positions) and
/// the statistics entry equal what tokenizing every object's value gives.
struct FullTextCheck {
    let transaction: Transaction
    let binding: TypeBinding
    let property: BoundProperty
    /// Objects whose record does not decode: left out (they are reported once elsewhere).
    let damaged: Set<[UInt8]>
    /// At most this many problems are listed per index; the rest are counted.
    static let listedProblems = 20

    /// Every problem found, one sentence each.
    func problems() throws -> [String] {
        guard let index = property.index, let segmentPlace = property.fullTextSegment, let table = binding.table
        else { return [] }
        let label = "full-text index \(binding.schema.name).\(property.schema.name)"
        let kind = FullTextExpectedIndex.keyKind(of: binding)
        var expected = FullTextExpectedIndex(of: property, in: binding)
        let records = try transaction.cursor(table)
        var record = try records.first()
        while let current = record {
            if !damaged.contains(Array(current.key)), let reader = RecordReader(header: current.value) {
                expected.add(key: current.key, record: reader)
            }
            record = try records.next()
        }

        var problems: [String] = []
        var unlisted = 0
        func problem(_ text: String) {
            if problems.count < Self.listedProblems { problems.append("\(label): \(text)") } else { unlisted += 1 }
        }
        // The recent segment: each object's postings, gathered per token (in table-key order).
        var recent: [[UInt8]: PostingCodec.Chunk] = [:]
        var recentBytes = 0
        let segmentInChunks = segmentPlace.isInChunks(of: index)
        let segment = try transaction.cursor(segmentPlace.database)
        // In its own database the segment is the whole database; in the chunks', one key range.
        var recentEntry =
            segmentInChunks
            ? try [PostingCodec.recentPrefix].withUnsafeBytes { try segment.seek(atLeast: $0) } : try segment.first()
        while let current = recentEntry {
            guard PostingCodec.isRecentKey(current.key) else {
                if segmentInChunks { break }
                if !current.key.elementsEqual(segmentPlace.statisticsKey) {
                    problem("the recent segment holds an entry that is neither a recent entry nor the statistics")
                }
                recentEntry = try segment.next()
                continue
            }
            recentBytes += current.value.count
            let key = Array(current.key.dropFirst())
            if let entry = PostingCodec.RecentEntry(current.value), let tokens = entry.decoded() {
                for (token, positions) in tokens {
                    recent[token, default: PostingCodec.Chunk()].append(
                        key: key, length: entry.length, positions: positions)
                }
            } else {
                problem("the recent entry of \(describe(key)) does not decode")
            }
            recentEntry = try segment.next()
        }
        let storedStatistics = try segmentPlace.statisticsKey.withUnsafeBytes {
            try transaction.get($0, in: segmentPlace.database)
        }
        if let storedStatistics {
            let statistics = PostingCodec.decodeFullStatistics(storedStatistics)
            if statistics?.documents != expected.documents || statistics?.tokens != expected.tokens {
                let found = statistics.map { "\($0.documents) documents, \($0.tokens) tokens" } ?? "undecodable"
                problem(
                    "the statistics say \(found); the objects have \(expected.documents) documents, "
                        + "\(expected.tokens) tokens")
            }
            if let statistics, statistics.recentBytes != recentBytes {
                problem(
                    "the statistics say the recent segment holds \(statistics.recentBytes) bytes; it holds \(recentBytes)"
                )
            }
        } else if expected.documents > 0 || recentBytes > 0 {
            problem("the statistics entry is missing")
        }
        // The stored postings, token by token, compared with the expected ones in key order.
        let tokens = expected.sortedTokens()
        var nextExpected = 0
        var stored = PostingCodec.Chunk()
        var storedToken: [UInt8]?
        var recentTokens = recent.keys.sorted { a, b in
            a.withUnsafeBytes { a in b.withUnsafeBytes { PostingCodec.compare(a, $0) < 0 } }
        }[...]
        func compare(_ token: [UInt8], _ stored: PostingCodec.Chunk) {
            let name = String(decoding: token, as: UTF8.self)
            while nextExpected < tokens.count,
                tokens[nextExpected].withUnsafeBytes({ a in token.withUnsafeBytes { PostingCodec.compare(a, $0) } }) < 0
            {
                problem("'\(String(decoding: tokens[nextExpected], as: UTF8.self))' has no postings")
                nextExpected += 1
            }
            if nextExpected < tokens.count, tokens[nextExpected] == token {
                let wanted = expected.postings(of: token)
                if wanted != stored { problem(difference(of: name, stored: stored, expected: wanted)) }
                nextExpected += 1
            } else {
                problem("'\(name)' has \(stored.count) postings, but no object holds it")
            }
        }
        /// Compares the recent-only tokens below `token` (all of them: `nil`).
        func compareRecent(before token: [UInt8]?) {
            while let first = recentTokens.first,
                token.map({ token in
                    first.withUnsafeBytes { a in token.withUnsafeBytes { PostingCodec.compare(a, $0) < 0 } }
                }) ?? true
            {
                compare(first, recent[first]!)
                recentTokens.removeFirst()
            }
        }
        func finishToken() {
            guard let token = storedToken else { return }
            compareRecent(before: token)
            if recentTokens.first == token, let segment = recent[token] {
                recentTokens.removeFirst()
                stored = merged(stored, segment, token: token, problem: problem)
            }
            compare(token, stored)
            stored = PostingCodec.Chunk()
            storedToken = nil
        }
        let cursor = try transaction.cursor(index)
        var entry = try cursor.first()
        while let current = entry {
            defer { entry = try? cursor.next() }
            if segmentInChunks,
                current.key.elementsEqual(PostingCodec.statisticsKey) || PostingCodec.isRecentKey(current.key)
            {
                continue
            }
            guard let (token, firstKey) = PostingCodec.splitEntryKey(current.key) else {
                problem("an entry's key has no token and table key")
                continue
            }
            if let storedToken, !token.elementsEqual(storedToken) { finishToken() }
            if storedToken == nil { storedToken = Array(token) }
            guard let chunk = PostingCodec.decode(current.value, firstKey: firstKey, kind: kind) else {
                problem("a chunk of '\(String(decoding: token, as: UTF8.self))' does not decode")
                continue
            }
            for position in 0..<chunk.count {
                if stored.count > 0 {
                    let order = stored.key(stored.count - 1).withUnsafeBytes { last in
                        chunk.key(position).withUnsafeBytes { PostingCodec.compare(last, $0) }
                    }
                    if order >= 0 {
                        problem("the chunks of '\(String(decoding: token, as: UTF8.self))' are out of order")
                        break
                    }
                }
                stored.append(
                    key: chunk.key(position), length: chunk.lengths[position], positions: chunk.positions(position))
            }
        }
        finishToken()
        compareRecent(before: nil)
        while nextExpected < tokens.count {
            problem("'\(String(decoding: tokens[nextExpected], as: UTF8.self))' has no postings")
            nextExpected += 1
        }
        if unlisted > 0 { problems.append("\(label): \(unlisted) more problems") }
        return problems
    }

    /// A token's postings in the chunks and in the recent segment, in table-key order; an object
    /// in both is a problem.
    private func merged(
        _ chunks: PostingCodec.Chunk, _ segment: PostingCodec.Chunk, token: [UInt8], problem: (String) -> Void
    ) -> PostingCodec.Chunk {
        var result = PostingCodec.Chunk()
        var a = 0
        var b = 0
        while a < chunks.count || b < segment.count {
            let order =
                a == chunks.count
                ? 1
                : b == segment.count
                    ? -1
                    : chunks.key(a).withUnsafeBytes { left in
                        segment.key(b).withUnsafeBytes { PostingCodec.compare(left, $0) }
                    }
            if order == 0 {
                problem(
                    "'\(String(decoding: token, as: UTF8.self))' holds \(describe(Array(chunks.key(a)))) "
                        + "both in its chunks and in the recent segment")
            }
            if order <= 0 {
                result.append(key: chunks.key(a), length: chunks.lengths[a], positions: chunks.positions(a))
                a += 1
                if order == 0 { b += 1 }
            } else {
                result.append(key: segment.key(b), length: segment.lengths[b], positions: segment.positions(b))
                b += 1
            }
        }
        return result
    }

    /// What differs between the stored and expected postings of one token.
    private func difference(of token: String, stored: PostingCodec.Chunk, expected: PostingCodec.Chunk) -> String {
        let storedKeys = Set((0..<stored.count).map { Array(stored.key($0)) })
        let expectedKeys = Set((0..<expected.count).map { Array(expected.key($0)) })
        if let missing = expectedKeys.subtracting(storedKeys).first {
            return "'\(token)' lacks the posting of \(describe(missing))"
        }
        if let extra = storedKeys.subtracting(expectedKeys).first {
            return "'\(token)' has a posting of \(describe(extra)), whose value does not hold it"
        }
        return "'\(token)' has postings whose positions or lengths differ from the objects' values"
    }

    private func describe(_ key: [UInt8]) -> String {
        let objectKey = key.withUnsafeBytes {
            ObjectKeyCodec.decode($0, primaryKeyType: binding.primaryKey?.schema.type)
        }
        return "\(binding.schema.name)(\(objectKey?.description ?? "damaged key"))"
    }
}
