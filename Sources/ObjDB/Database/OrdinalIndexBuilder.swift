/// Builds a whole full-text index of a type with integer table keys in memory, then writes it in
/// key order: the bulk path of a migration that adds the index (``FullTextIndexBuilder`` does the
/// same for string keys, and is what `check` compares with).
///
/// Nothing is allocated per token occurrence: each distinct token is interned once (its bytes
/// in one arena, found again by an open-addressing table on a hash of its bytes) and owns one
/// growing stream of postings already in the chunk encoding (``PostingCodec``): the difference of
/// its table key's ordinal from the token's previous one, `length × 4 + min(tf, 3)` (then `tf − 3`),
/// then the positions as distances. Cutting a stream into chunks copies byte ranges.
struct OrdinalIndexBuilder {
    let kind: PostingCodec.KeyKind
    private(set) var documents = 0
    private(set) var tokens = 0

    /// Every distinct token's bytes, end to end; token `id` is `arena[starts[id]..<starts[id + 1]]`.
    private var arena: [UInt8] = []
    private var starts: [Int] = [0]
    private var hashes: [UInt64] = []
    /// Open addressing: a token id plus one, or 0 for an empty slot.
    private var table = [Int32](repeating: 0, count: 1 << 12)
    /// Per token: its postings, how many, and the last one's ordinal.
    private var streams: [[UInt8]] = []
    private var postingCounts: [Int] = []
    private var lastOrdinals: [UInt64] = []
    /// One document's (token id, position) pairs.
    private var scratch: [(id: Int32, position: Int)] = []

    init(kind: PostingCodec.KeyKind) {
        precondition(kind != .bytes, "OrdinalIndexBuilder needs integer table keys")
        self.kind = kind
    }

    /// Adds the object `key` with value `text` (`nil`: none), after every key added before.
    ///
    /// - Throws: ``ObjDBError/corruptRecord(path:type:reason:)`` when `key` is not an integer key.
    mutating func add(key: UnsafeRawBufferPointer, text: UnsafeRawBufferPointer?, path: String, type: String) throws {
        guard let text else { return }
        guard let ordinal = PostingCodec.ordinal(key, kind: kind) else {
            throw ObjDBError.corruptRecord(path: path, type: type, reason: "a table key is not an integer key")
        }
        scratch.removeAll(keepingCapacity: true)
        TextTokenizer.forEachToken(in: text) { token, position, _ in
            let id = intern(token)
            scratch.append((id, position))
        }
        documents += 1
        tokens += scratch.count
        let length = scratch.count
        // By token, each token's positions ascending (they came ascending).
        scratch.sort { $0.id != $1.id ? $0.id < $1.id : $0.position < $1.position }
        var start = 0
        while start < scratch.count {
            let id = Int(scratch[start].id)
            var end = start + 1
            while end < scratch.count, scratch[end].id == scratch[start].id { end += 1 }
            let tf = end - start
            let delta = postingCounts[id] == 0 ? ordinal : ordinal &- lastOrdinals[id]
            PostingCodec.appendVarUInt64(delta, to: &streams[id])
            VarUInt.append(length * 4 + Swift.min(tf, 3), to: &streams[id])
            if tf >= 3 { VarUInt.append(tf - 3, to: &streams[id]) }
            var previous = 0
            for pair in start..<end {
                let position = scratch[pair].position
                VarUInt.append(position - previous, to: &streams[id])
                previous = position
            }
            postingCounts[id] += 1
            lastOrdinals[id] = ordinal
            start = end
        }
    }

    /// Puts the statistics and every chunk, in key order, with `MDB_APPEND`.
    func write(to writer: FullTextIndexWriter) throws {
        try writer.writeStatistics(documents: documents, tokens: tokens, recentBytes: 0)
        let order = arena.withUnsafeBytes { arena in
            (0..<streams.count).sorted { left, right in
                PostingCodec.compare(
                    UnsafeRawBufferPointer(rebasing: arena[starts[left]..<starts[left + 1]]),
                    UnsafeRawBufferPointer(rebasing: arena[starts[right]..<starts[right + 1]])) < 0
            }
        }
        var cutter = ChunkCutter(kind: kind)
        for id in order {
            let token = Array(arena[starts[id]..<starts[id + 1]])
            try streams[id].withUnsafeBytes { stream in
                try cutter.cut(stream, postings: postingCounts[id]) { firstOrdinal, value in
                    var key = token
                    key.append(0)
                    PostingCodec.appendKey(ordinal: firstOrdinal, kind: kind, to: &key)
                    try Self.put(value, forKey: key, writer)
                }
            }
        }
    }

    private static func put(_ value: [UInt8], forKey key: [UInt8], _ writer: FullTextIndexWriter) throws {
        try key.withUnsafeBytes { key in
            try value.withUnsafeBytes {
                _ = try writer.transaction.put($0, forKey: key, in: writer.index, options: .append)
            }
        }
    }

    // MARK: Interning

    /// The id of `token`, added when new.
    private mutating func intern(_ token: UnsafeRawBufferPointer) -> Int32 {
        let hash = Self.hash(token)
        var mask = table.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while table[slot] != 0 {
            let id = Int(table[slot] - 1)
            if hashes[id] == hash, arena.withUnsafeBytes({ token.elementsEqual($0[starts[id]..<starts[id + 1]]) }) {
                return Int32(id)
            }
            slot = (slot + 1) & mask
        }
        let id = hashes.count
        arena.append(contentsOf: token)
        starts.append(arena.count)
        hashes.append(hash)
        streams.append([])
        postingCounts.append(0)
        lastOrdinals.append(0)
        table[slot] = Int32(id + 1)
        if hashes.count * 2 > table.count {
            // Grow at half full, placing every token again.
            table = [Int32](repeating: 0, count: table.count * 2)
            mask = table.count - 1
            for (existing, existingHash) in hashes.enumerated() {
                var place = Int(truncatingIfNeeded: existingHash) & mask
                while table[place] != 0 { place = (place + 1) & mask }
                table[place] = Int32(existing + 1)
            }
        }
        return Int32(id)
    }

    /// FNV-1a, then a final mix so the low bits (the slot) depend on every byte.
    private static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        hash ^= hash >> 29
        hash = hash &* 0xbf58_476d_1ce4_e5b9
        return hash ^ (hash >> 32)
    }
}

/// Cuts a token's posting stream (``OrdinalIndexBuilder``'s encoding) into chunk values: at most
/// ``PostingCodec/maximumPostings`` postings and about ``FullTextIndexWriter/maximumChunkBytes``
/// bytes each, as ``FullTextIndexBuilder/chunks(of:kind:)`` cuts them. Its buffers are reused.
struct ChunkCutter {
    let kind: PostingCodec.KeyKind
    private var docs: [UInt8] = []
    private var stats: [UInt8] = []
    private var positions: [UInt8] = []
    private var value: [UInt8] = []

    init(kind: PostingCodec.KeyKind) { self.kind = kind }

    /// Hands `body` each chunk's first ordinal and value, in order.
    mutating func cut(
        _ stream: UnsafeRawBufferPointer, postings: Int, _ body: (UInt64, [UInt8]) throws -> Void
    ) throws {
        var offset = 0
        var ordinal: UInt64 = 0
        var first: UInt64 = 0
        var count = 0
        var estimate = 0
        for _ in 0..<postings {
            guard let delta = PostingCodec.readVarUInt64(stream, at: &offset) else { break }
            let deltaEnd = offset
            let deltaStart = offset - Self.varIntLength(delta)
            guard let lengthAndCount = VarUInt.read(stream, at: &offset) else { break }
            var tf = lengthAndCount & 3
            if tf == 3, let extra = VarUInt.read(stream, at: &offset) { tf += extra }
            let statsEnd = offset
            for _ in 0..<tf { _ = VarUInt.read(stream, at: &offset) }
            let size = 4 + 2 * tf + 3
            if count == PostingCodec.maximumPostings
                || (count > 0 && estimate + size > FullTextIndexWriter.maximumChunkBytes)
            {
                try finish(first: first, count: count, body)
                count = 0
                estimate = 0
            }
            ordinal &+= delta
            if count == 0 {
                first = ordinal
            } else {
                docs.append(contentsOf: UnsafeRawBufferPointer(rebasing: stream[deltaStart..<deltaEnd]))
            }
            stats.append(contentsOf: UnsafeRawBufferPointer(rebasing: stream[deltaEnd..<statsEnd]))
            positions.append(contentsOf: UnsafeRawBufferPointer(rebasing: stream[statsEnd..<offset]))
            count += 1
            estimate += size
        }
        if count > 0 { try finish(first: first, count: count, body) }
    }

    private mutating func finish(first: UInt64, count: Int, _ body: (UInt64, [UInt8]) throws -> Void) throws {
        value.removeAll(keepingCapacity: true)
        value.append(PostingCodec.format)
        VarUInt.append(count, to: &value)
        VarUInt.append(docs.count, to: &value)
        VarUInt.append(stats.count, to: &value)
        value += docs
        value += stats
        value += positions
        docs.removeAll(keepingCapacity: true)
        stats.removeAll(keepingCapacity: true)
        positions.removeAll(keepingCapacity: true)
        try body(first, value)
    }

    /// The bytes of `value` in LEB128.
    private static func varIntLength(_ value: UInt64) -> Int {
        var length = 1
        var rest = value >> 7
        while rest > 0 {
            length += 1
            rest >>= 7
        }
        return length
    }
}
