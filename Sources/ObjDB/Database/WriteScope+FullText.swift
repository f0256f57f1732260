/// Full-text indexes: the postings of a `String` property's tokens (``PostingCodec``), kept in the
/// same transaction as the records.
extension WriteScope {
    /// The writer of `property`'s full-text index in this transaction.
    func fullTextWriter(for property: BoundProperty, in binding: TypeBinding) throws -> FullTextIndexWriter? {
        guard let index = property.index, let segment = property.fullTextSegment else { return nil }
        return FullTextIndexWriter(
            transaction: try writeTransaction("full-text index"), index: index, segment: segment,
            kind: PostingCodec.KeyKind.forPrimaryKey(binding.primaryKey?.schema.type), path: catalog.path,
            typeName: binding.schema.name, propertyName: property.schema.name)
    }

    /// Moves the object `key`'s postings from the tokens of `before` to those of `after` (`nil`:
    /// no value, or no object). An object whose postings are in the recent segment
    /// (``PostingCodec/recentKey(_:)``), or who has none, gets a recent entry; one whose postings
    /// are in the chunks has them changed there, token by token.
    func updateFullText(
        _ property: BoundProperty, from before: StoredValue?, to after: StoredValue?, key: [UInt8],
        in binding: TypeBinding
    ) throws {
        guard let writer = try fullTextWriter(for: property, in: binding) else { return }
        let longest = catalog.maxKeySize - TextTokenizer.maximumLength - 1
        if key.count > longest {
            throw ObjDBError.keyTooLarge(
                size: key.count, maximum: longest,
                operation: "primary key of \(binding.schema.name), whose \(property.schema.name) has a full-text index")
        }
        let old = DocumentTokens(before)
        let new = DocumentTokens(after)
        let oldTokens = old ?? DocumentTokens()
        let newTokens = new ?? DocumentTokens()
        let stored = try writer.fullStatistics()
        var statistics = stored
        // An object with no old tokens holds no postings anywhere: no recent entry to look for.
        let recentSize = oldTokens.count == 0 ? nil : try writer.recentEntrySize(of: key)
        if let recentSize {
            statistics.recentBytes -= recentSize
            if newTokens.count > 0 {
                statistics.recentBytes += try writer.putRecent(key: key, tokens: newTokens)
            } else {
                try writer.removeRecent(key: key)
            }
        } else if oldTokens.count > 0 {
            try updateChunks(writer, from: oldTokens, to: newTokens, key: key)
        } else if newTokens.count > 0 {
            statistics.recentBytes += try writer.putRecent(key: key, tokens: newTokens)
        }
        statistics.documents += (new == nil ? 0 : 1) - (old == nil ? 0 : 1)
        statistics.tokens += newTokens.length - oldTokens.length
        if statistics != stored {
            try writer.writeStatistics(
                documents: statistics.documents, tokens: statistics.tokens, recentBytes: statistics.recentBytes)
        }
        if statistics.recentBytes > database.configuration.fullTextRecentLimit { try writer.foldRecent() }
        didWrite()
    }

    /// Moves the object `key`'s postings in the chunks from `oldTokens` to `newTokens`: each token
    /// that differs (or every one, when the value's length changed).
    private func updateChunks(
        _ writer: FullTextIndexWriter, from oldTokens: DocumentTokens, to newTokens: DocumentTokens, key: [UInt8]
    ) throws {
        let sameLength = oldTokens.length == newTokens.length
        var oldIndex = 0
        var newIndex = 0
        while oldIndex < oldTokens.count || newIndex < newTokens.count {
            let order: Int
            if oldIndex == oldTokens.count {
                order = 1
            } else if newIndex == newTokens.count {
                order = -1
            } else {
                order = oldTokens.token(at: oldIndex).withUnsafeBytes { left in
                    newTokens.token(at: newIndex).withUnsafeBytes { PostingCodec.compare(left, $0) }
                }
            }
            if order < 0 {
                try writer.remove(token: Array(oldTokens.token(at: oldIndex)), key: key)
                oldIndex += 1
            } else if order > 0 {
                try writer.put(
                    token: Array(newTokens.token(at: newIndex)), key: key, length: newTokens.length,
                    positions: Array(newTokens.positions(at: newIndex)))
                newIndex += 1
            } else {
                if !sameLength || oldTokens.positions(at: oldIndex) != newTokens.positions(at: newIndex) {
                    try writer.put(
                        token: Array(newTokens.token(at: newIndex)), key: key, length: newTokens.length,
                        positions: Array(newTokens.positions(at: newIndex)))
                }
                oldIndex += 1
                newIndex += 1
            }
        }
    }

    /// Fills `property`'s full-text index from every stored object (a migration added it): the
    /// postings are gathered in memory in table-key order, then put token by token with
    /// `MDB_APPEND`, which fills every leaf page.
    func buildFullTextIndex(of property: BoundProperty, in binding: TypeBinding) throws {
        guard let writer = try fullTextWriter(for: property, in: binding), let table = binding.table else { return }
        let transaction = writer.transaction
        try transaction.removeAll(in: writer.index)
        if !writer.segment.isInChunks(of: writer.index) { try transaction.removeAll(in: writer.segment.database) }
        var builder = FullTextIndexBuilder(kind: writer.kind)
        // Integer keys (the usual case) take the interned builder: no allocation per token.
        var ordinalBuilder = writer.kind == .bytes ? nil : OrdinalIndexBuilder(kind: writer.kind)
        let cursor = try transaction.cursor(table)
        var entry = try cursor.first()
        while let current = entry {
            guard let reader = RecordReader(header: current.value) else {
                throw ObjDBError.corruptRecord(
                    path: catalog.path, type: binding.schema.name, reason: "its slot table is inconsistent")
            }
            let text = Self.fullTextValue(reader.field(property.slot), of: property.schema)
            if ordinalBuilder != nil {
                try ordinalBuilder!.add(key: current.key, text: text, path: catalog.path, type: binding.schema.name)
            } else {
                builder.add(key: current.key, text: text)
            }
            entry = try cursor.next()
        }
        if let ordinalBuilder { try ordinalBuilder.write(to: writer) } else { try builder.write(to: writer) }
        didWrite()
    }

    /// The UTF-8 a full-text index reads from a record's field; `nil` for a `nil` value.
    static func fullTextValue(_ field: RecordField, of schema: PropertySchema) -> UnsafeRawBufferPointer? {
        switch field {
        case .bytes(let bytes): return bytes
        case .null: return nil
        case .absent: return schema.isOptional ? nil : UnsafeRawBufferPointer(start: nil, count: 0)
        }
    }
}

/// Gathers a whole index's postings in memory, in table-key order, and writes them in key order.
struct FullTextIndexBuilder {
    let kind: PostingCodec.KeyKind
    /// Per token, its postings as they came: key length, key, document length, tf, positions.
    private var postings: [[UInt8]: [UInt8]] = [:]
    private(set) var documents = 0
    private(set) var tokens = 0

    init(kind: PostingCodec.KeyKind) {
        self.kind = kind
    }

    /// Adds the object `key` with value `text` (`nil`: none), after every key added before.
    mutating func add(key: UnsafeRawBufferPointer, text: UnsafeRawBufferPointer?) {
        guard let text else { return }
        let document = DocumentTokens(text)
        documents += 1
        tokens += document.length
        for index in 0..<document.count {
            let positions = document.positions(at: index)
            postings[Array(document.token(at: index)), default: []].withAppended { stream in
                VarUInt.append(key.count, to: &stream)
                stream.append(contentsOf: key)
                VarUInt.append(document.length, to: &stream)
                VarUInt.append(positions.count, to: &stream)
                for position in positions { VarUInt.append(position, to: &stream) }
            }
        }
    }

    /// The tokens gathered, sorted bytewise (key order).
    func sortedTokens() -> [[UInt8]] {
        postings.keys.sorted { left, right in
            left.withUnsafeBytes { left in right.withUnsafeBytes { PostingCodec.compare(left, $0) < 0 } }
        }
    }

    /// Every posting of `token`, in table-key order, as one chunk (of any length).
    func postings(of token: [UInt8]) -> PostingCodec.Chunk {
        var chunk = PostingCodec.Chunk()
        postings[token]?.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let keyLength = VarUInt.read(bytes, at: &offset)!
                let key = UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + keyLength])
                offset += keyLength
                let length = VarUInt.read(bytes, at: &offset)!
                let count = VarUInt.read(bytes, at: &offset)!
                var positions: [Int] = []
                positions.reserveCapacity(count)
                for _ in 0..<count { positions.append(VarUInt.read(bytes, at: &offset)!) }
                chunk.append(key: key, length: length, positions: positions)
            }
        }
        return chunk
    }

    /// Puts the statistics and every chunk, in key order, with `MDB_APPEND`.
    func write(to writer: FullTextIndexWriter) throws {
        for token in sortedTokens() {
            for chunk in Self.chunks(of: postings(of: token), kind: kind) { try putChunk(chunk, of: token, writer) }
        }
        try writer.writeStatistics(documents: documents, tokens: tokens, recentBytes: 0)
    }

    /// `postings` cut into chunks as the index keeps them: full ones, each at most
    /// ``PostingCodec/maximumPostings`` postings and about ``FullTextIndexWriter/maximumChunkBytes`` bytes.
    static func chunks(of postings: PostingCodec.Chunk, kind: PostingCodec.KeyKind) -> [PostingCodec.Chunk] {
        var chunks: [PostingCodec.Chunk] = []
        var start = 0
        var estimate = 0
        for index in 0..<postings.count {
            let size = 4 + 2 * postings.positions(index).count + (kind == .bytes ? postings.key(index).count : 3)
            if index - start == PostingCodec.maximumPostings || estimate + size > FullTextIndexWriter.maximumChunkBytes
            {
                chunks.append(postings.slice(start..<index))
                start = index
                estimate = 0
            }
            estimate += size
        }
        if start < postings.count { chunks.append(postings.slice(start..<postings.count)) }
        return chunks
    }

    private func putChunk(_ chunk: PostingCodec.Chunk, of token: [UInt8], _ writer: FullTextIndexWriter) throws {
        let key = token.withUnsafeBytes { token in
            Array(chunk.key(0)).withUnsafeBytes { PostingCodec.entryKey(token: token, firstKey: $0) }
        }
        try put(PostingCodec.encode(chunk, kind: kind), forKey: key, writer)
    }

    private func put(_ value: [UInt8], forKey key: [UInt8], _ writer: FullTextIndexWriter) throws {
        try key.withUnsafeBytes { key in
            try value.withUnsafeBytes {
                _ = try writer.transaction.put($0, forKey: key, in: writer.index, options: .append)
            }
        }
    }
}

extension Array where Element == UInt8 {
    /// Runs `body` on the array in place (no copy of a dictionary's value).
    fileprivate mutating func withAppended(_ body: (inout [UInt8]) -> Void) {
        body(&self)
    }
}
