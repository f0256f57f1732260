/// The recent segment (``PostingCodec/recentKey(_:)``) and the statistics, in the index's
/// ``FullTextSegment``: a write of an object that holds no postings in the chunks puts one entry
/// next to the statistics; when the segment passes its
/// limit, the write that did it folds every entry into the chunks, token by token, one chunk
/// rewrite per token and chunk instead of one per posting.
extension FullTextIndexWriter {
    /// The statistics entry, with the recent segment's size in bytes.
    func fullStatistics() throws -> (documents: Int, tokens: Int, recentBytes: Int) {
        let stored = try segment.statisticsKey.withUnsafeBytes { try transaction.get($0, in: segment.database) }
        guard let stored else { return (0, 0, 0) }
        guard let statistics = PostingCodec.decodeFullStatistics(stored) else { throw damaged([]) }
        return statistics
    }

    /// Writes the statistics entry.
    func writeStatistics(documents: Int, tokens: Int, recentBytes: Int) throws {
        let value = PostingCodec.encodeStatistics(
            documents: Swift.max(0, documents), tokens: Swift.max(0, tokens), recentBytes: Swift.max(0, recentBytes))
        try segment.statisticsKey.withUnsafeBytes { key in
            try value.withUnsafeBytes { _ = try transaction.put($0, forKey: key, in: segment.database) }
        }
    }

    /// The size of the object `key`'s recent entry, if it has one.
    func recentEntrySize(of key: [UInt8]) throws -> Int? {
        let recentKey = PostingCodec.recentKey(key)
        return try recentKey.withUnsafeBytes { try transaction.get($0, in: segment.database)?.count }
    }

    /// Puts the object `key`'s recent entry; its size.
    func putRecent(key: [UInt8], tokens: DocumentTokens) throws -> Int {
        let recentKey = PostingCodec.recentKey(key)
        let value = PostingCodec.encodeRecent(tokens)
        try recentKey.withUnsafeBytes { key in
            try value.withUnsafeBytes { _ = try transaction.put($0, forKey: key, in: segment.database) }
        }
        return value.count
    }

    /// Removes the object `key`'s recent entry.
    func removeRecent(key: [UInt8]) throws {
        _ = try PostingCodec.recentKey(key).withUnsafeBytes { try transaction.delete($0, in: segment.database) }
    }

    /// Moves every full-text index's statistics and recent entries out of its chunks' database,
    /// in a store of format 2 or 3 (``moveSegmentOutOfChunks()``).
    static func moveSegmentsOutOfChunks(of catalog: StoreCatalog, in transaction: Transaction) throws {
        for binding in catalog.bindings.values {
            for property in binding.indexedProperties {
                guard let index = property.index, let segment = property.fullTextSegment else { continue }
                let writer = FullTextIndexWriter(
                    transaction: transaction, index: index, segment: segment,
                    kind: PostingCodec.KeyKind.forPrimaryKey(binding.primaryKey?.schema.type), path: catalog.path,
                    typeName: binding.schema.name, propertyName: property.schema.name)
                try writer.moveSegmentOutOfChunks()
            }
        }
    }

    /// Moves a store of format 2 or 3's statistics and recent entries from the chunks' database
    /// into the segment's own, empty, database (an open that may write does it, before anything
    /// reads them).
    func moveSegmentOutOfChunks() throws {
        guard !segment.isInChunks(of: index) else { return }
        // Gathered first: the entries are deleted from the database the cursor walks.
        var moved: [(old: [UInt8], new: [UInt8], value: [UInt8])] = []
        let cursor = try transaction.cursor(index)
        var entry = try PostingCodec.statisticsKey.withUnsafeBytes { try cursor.seek(atLeast: $0) }
        while let current = entry {
            let old = Array(current.key)
            if old == PostingCodec.statisticsKey {
                moved.append((old, segment.statisticsKey, Array(current.value)))
            } else if PostingCodec.isRecentKey(current.key) {
                moved.append((old, old, Array(current.value)))
            } else {
                break
            }
            entry = try cursor.next()
        }
        for (old, new, value) in moved {
            _ = try old.withUnsafeBytes { try transaction.delete($0, in: index) }
            try new.withUnsafeBytes { key in
                try value.withUnsafeBytes { _ = try transaction.put($0, forKey: key, in: segment.database) }
            }
        }
    }

    /// Moves every recent entry's postings into the chunks and empties the segment.
    func foldRecent() throws {
        // Every recent posting, in the segment's (table-key) order, then stably by token.
        var postings: [(token: [UInt8], key: [UInt8], length: Int, positions: [Int])] = []
        var recentKeys: [[UInt8]] = []
        let cursor = try transaction.cursor(segment.database)
        var entry = try [PostingCodec.recentPrefix].withUnsafeBytes { try cursor.seek(atLeast: $0) }
        while let current = entry, PostingCodec.isRecentKey(current.key) {
            let key = Array(current.key.dropFirst())
            guard let recent = PostingCodec.RecentEntry(current.value), let tokens = recent.decoded() else {
                throw damaged(Array("recent segment".utf8))
            }
            for (token, positions) in tokens {
                postings.append((token, key, recent.length, positions))
            }
            recentKeys.append(Array(current.key))
            entry = try cursor.next()
        }
        let order = postings.indices.sorted { left, right in
            let compared = postings[left].token.withUnsafeBytes { a in
                postings[right].token.withUnsafeBytes { PostingCodec.compare(a, $0) }
            }
            return compared != 0 ? compared < 0 : left < right
        }
        var start = 0
        while start < order.count {
            let token = postings[order[start]].token
            var chunk = PostingCodec.Chunk()
            var end = start
            while end < order.count, postings[order[end]].token == token {
                let posting = postings[order[end]]
                chunk.append(key: posting.key, length: posting.length, positions: posting.positions)
                end += 1
            }
            try merge(chunk, into: token)
            start = end
        }
        for key in recentKeys {
            _ = try key.withUnsafeBytes { try transaction.delete($0, in: segment.database) }
        }
        let statistics = try fullStatistics()
        try writeStatistics(documents: statistics.documents, tokens: statistics.tokens, recentBytes: 0)
    }

    /// Puts `postings` (in table-key order, of objects the chunks do not hold) into `token`'s
    /// chunks: each chunk they fall in decoded and rewritten once.
    func merge(_ postings: PostingCodec.Chunk, into token: [UInt8]) throws {
        var next = 0
        while next < postings.count {
            let first = Array(postings.key(next))
            guard let (entryKey, value, upper) = try chunkAndNext(holding: first, of: token) else {
                try write(FullTextIndexBuilder.chunks(of: postings.slice(next..<postings.count), kind: kind), of: token)
                return
            }
            var end = next
            while end < postings.count,
                upper.map({ upper in
                    postings.key(end).withUnsafeBytes { key in upper.withUnsafeBytes { PostingCodec.compare(key, $0) } }
                }) ?? -1 < 0
            {
                end += 1
            }
            let chunkFirst = Array(entryKey[(entryKey.firstIndex(of: 0)! + 1)...])
            guard
                let chunk = value.withUnsafeBytes({ value in
                    chunkFirst.withUnsafeBytes { PostingCodec.decode(value, firstKey: $0, kind: kind) }
                })
            else { throw damaged(token) }
            var merged = PostingCodec.Chunk()
            var old = 0
            var new = next
            while old < chunk.count || new < end {
                let order: Int
                if old == chunk.count {
                    order = 1
                } else if new == end {
                    order = -1
                } else {
                    order = chunk.key(old).withUnsafeBytes { a in
                        postings.key(new).withUnsafeBytes { PostingCodec.compare(a, $0) }
                    }
                }
                if order < 0 {
                    merged.append(key: chunk.key(old), length: chunk.lengths[old], positions: chunk.positions(old))
                    old += 1
                } else {
                    merged.append(
                        key: postings.key(new), length: postings.lengths[new], positions: postings.positions(new))
                    if order == 0 { old += 1 }
                    new += 1
                }
            }
            try write(FullTextIndexBuilder.chunks(of: merged, kind: kind), of: token, replacing: entryKey)
            next = end
        }
    }

    /// Like ``chunk(holding:of:)``, with the first key of the token's chunk after it (`nil`: none).
    private func chunkAndNext(holding key: [UInt8], of token: [UInt8]) throws -> (
        key: [UInt8], value: [UInt8], upper: [UInt8]?
    )? {
        guard let (entryKey, value) = try chunk(holding: key, of: token) else { return nil }
        let cursor = try transaction.cursor(index)
        var upper: [UInt8]?
        if try entryKey.withUnsafeBytes({ try cursor.seek(exactly: $0) }) != nil, let after = try cursor.next(),
            let parts = PostingCodec.splitEntryKey(after.key), parts.token.elementsEqual(token)
        {
            upper = Array(parts.firstKey)
        }
        return (entryKey, value, upper)
    }
}
