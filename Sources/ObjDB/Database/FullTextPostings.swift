extension DocumentTokens {
    /// The tokens of a string value (`nil`: a `nil` value, which the index does not hold).
    init?(_ value: StoredValue?) {
        guard case .string(let text)? = value else { return nil }
        var copy = text
        self = copy.withUTF8 { DocumentTokens(UnsafeRawBufferPointer($0)) }
    }
}

/// One full-text index in one write transaction: finds, rewrites and splits the chunks that hold
/// a token's postings (``PostingCodec``), and keeps the statistics entry.
struct FullTextIndexWriter {
    let transaction: Transaction
    let index: DatabaseHandle
    /// Where the statistics and the recent segment are.
    let segment: FullTextSegment
    let kind: PostingCodec.KeyKind
    /// The store's path, the type and the property, for errors (named only when one is thrown:
    /// a string built per write showed in the profile of single writes).
    let path: String
    let typeName: String
    let propertyName: String

    /// Chunks are split when their value passes this many bytes: LMDB moves a value larger than
    /// about half a page to overflow pages of its own.
    static let maximumChunkBytes = 1500

    /// Adds the posting of the object `key` under `token`, or replaces it.
    func put(token: [UInt8], key: [UInt8], length: Int, positions: [Int]) throws {
        guard let (entryKey, value) = try chunk(holding: key, of: token) else {
            var chunk = PostingCodec.Chunk()
            chunk.append(key: key, length: length, positions: positions)
            try write([chunk], of: token, replacing: nil)
            return
        }
        let first = Array(entryKey[(entryKey.firstIndex(of: 0)! + 1)...])
        // A key above every key of the chunk (a new object, usually): spliced in, nothing decoded.
        let appended = value.withUnsafeBytes { value in
            key.withUnsafeBytes { key in
                first.withUnsafeBytes { firstKey in
                    PostingCodec.appending(
                        to: value, firstKey: firstKey, key: key, length: length, positions: positions, kind: kind,
                        maximumBytes: Self.maximumChunkBytes)
                }
            }
        }
        if let appended {
            try entryKey.withUnsafeBytes { entryKey in
                try appended.withUnsafeBytes { _ = try transaction.put($0, forKey: entryKey, in: index) }
            }
            return
        }
        guard
            let chunk = value.withUnsafeBytes({ value in
                first.withUnsafeBytes { PostingCodec.decode(value, firstKey: $0, kind: kind) }
            })
        else { throw damaged(token) }
        let (position, found) = key.withUnsafeBytes { chunk.search($0) }
        var updated = PostingCodec.Chunk()
        for index in 0..<chunk.count {
            if index == position {
                updated.append(key: key, length: length, positions: positions)
                if found { continue }
            }
            updated.append(key: chunk.key(index), length: chunk.lengths[index], positions: chunk.positions(index))
        }
        if position == chunk.count { updated.append(key: key, length: length, positions: positions) }
        try write(split(updated), of: token, replacing: entryKey)
    }

    /// Removes the posting of the object `key` from `token`'s chunks, if there is one.
    func remove(token: [UInt8], key: [UInt8]) throws {
        guard let (entryKey, value) = try chunk(holding: key, of: token) else { return }
        let first = Array(entryKey[(entryKey.firstIndex(of: 0)! + 1)...])
        guard
            let chunk = value.withUnsafeBytes({ value in
                first.withUnsafeBytes { PostingCodec.decode(value, firstKey: $0, kind: kind) }
            })
        else { throw damaged(token) }
        let (position, found) = key.withUnsafeBytes { chunk.search($0) }
        guard found else { return }
        var updated = PostingCodec.Chunk()
        for index in 0..<chunk.count where index != position {
            updated.append(key: chunk.key(index), length: chunk.lengths[index], positions: chunk.positions(index))
        }
        try write(updated.count == 0 ? [] : [updated], of: token, replacing: entryKey)
    }

    /// The statistics entry: the documents the index holds and their tokens.
    func statistics() throws -> (documents: Int, tokens: Int) {
        let statistics = try fullStatistics()
        return (statistics.documents, statistics.tokens)
    }

    // MARK: Chunks

    /// The entry key and value of the chunk of `token` that holds `key`, or would: the last one
    /// starting at or before it, else the first. `nil` when the token has no chunk.
    func chunk(holding key: [UInt8], of token: [UInt8]) throws -> (key: [UInt8], value: [UInt8])? {
        let cursor = try transaction.cursor(index)
        let probe = token.withUnsafeBytes { token in
            key.withUnsafeBytes { PostingCodec.entryKey(token: token, firstKey: $0) }
        }
        let after = try probe.withUnsafeBytes { try cursor.seek(atLeast: $0) }
        if let after, after.key.elementsEqual(probe) { return (Array(after.key), Array(after.value)) }
        let before = after == nil ? try cursor.last() : try cursor.previous()
        if let before, belongs(before.key, to: token) { return (Array(before.key), Array(before.value)) }
        guard after != nil, let first = try probe.withUnsafeBytes({ try cursor.seek(atLeast: $0) }),
            belongs(first.key, to: token)
        else { return nil }
        return (Array(first.key), Array(first.value))
    }

    private func belongs(_ entryKey: UnsafeRawBufferPointer, to token: [UInt8]) -> Bool {
        guard let parts = PostingCodec.splitEntryKey(entryKey) else { return false }
        return parts.token.elementsEqual(token)
    }

    /// `chunk` cut into chunks of at most ``PostingCodec/maximumPostings`` postings and
    /// ``maximumChunkBytes`` bytes.
    private func split(_ chunk: PostingCodec.Chunk) -> [PostingCodec.Chunk] {
        guard chunk.count > 1,
            chunk.count > PostingCodec.maximumPostings
                || PostingCodec.encode(chunk, kind: kind).count > Self.maximumChunkBytes
        else { return [chunk] }
        let half = chunk.count / 2
        return split(chunk.slice(0..<half)) + split(chunk.slice(half..<chunk.count))
    }

    /// Replaces the chunk at `old` (if any) with `chunks`, each under its first key.
    func write(_ chunks: [PostingCodec.Chunk], of token: [UInt8], replacing old: [UInt8]? = nil) throws {
        var keys: [[UInt8]] = []
        for chunk in chunks {
            keys.append(
                token.withUnsafeBytes { token in
                    Array(chunk.key(0)).withUnsafeBytes { PostingCodec.entryKey(token: token, firstKey: $0) }
                })
        }
        if let old, !keys.contains(old) {
            _ = try old.withUnsafeBytes { try transaction.delete($0, in: index) }
        }
        for (key, chunk) in zip(keys, chunks) {
            let value = PostingCodec.encode(chunk, kind: kind)
            try key.withUnsafeBytes { key in
                try value.withUnsafeBytes { _ = try transaction.put($0, forKey: key, in: index) }
            }
        }
    }

    func damaged(_ token: [UInt8]) -> ObjDBError {
        .corruptRecord(
            path: path, type: "full-text index \(typeName).\(propertyName)",
            reason: token.isEmpty
                ? "the full-text statistics do not decode"
                : "the postings of '\(String(decoding: token, as: UTF8.self))' do not decode")
    }
}
