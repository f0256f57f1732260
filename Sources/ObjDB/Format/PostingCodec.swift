import Foundation

/// The bytes of a full-text index (`fts.<Type>.<id>`): per token, its postings in chunks. The
/// statistics live in the index's segment database (`fts.<Type>.<id>.recent`, key
/// ``segmentStatisticsKey``); a store of format 2 or 3 kept them here, under ``statisticsKey``.
///
/// | Key | Value |
/// |---|---|
/// | token (UTF-8, 1–128 bytes) `00` first table key | a chunk of up to 128 postings, the first one for that table key |
///
/// A chunk (``encode(_:kind:)``), all integers unsigned LEB128 (``VarUInt``):
///
/// | Field | |
/// |---|---|
/// | `01` | chunk format |
/// | n | postings, 1…128 |
/// | docs length, stats length | bytes of the next two sections |
/// | docs | postings 2…n's table keys, each after the one before: for integer keys the difference of their order-preserving values; for string and UUID keys the length shared with the previous key, then the rest's length and bytes |
/// | stats | per posting, `length × 4 + min(tf, 3)`, then `tf − 3` when tf ≥ 3: the document's token count and the token's count in it |
/// | positions | per posting, its tf positions: the first, then each one's distance from the one before |
///
/// Keys sort by token, then by table key, so a token's chunks are together and in object order, and
/// a prefix's tokens are one key range.
package enum PostingCodec {
    /// How a type's table keys are written in chunks.
    package enum KeyKind: UInt8, Sendable {
        /// An integer primary key (`OrderedVarInt`, signed).
        case signed
        /// An internal ID (`OrderedVarInt`, unsigned).
        case unsigned
        /// A string or UUID primary key: bytes, front-coded.
        case bytes

        /// The kind for a type whose primary key has type `type` (`nil`: no primary key).
        package static func forPrimaryKey(_ type: PropertyType?) -> KeyKind {
            guard let type else { return .unsigned }
            return type.isInteger ? .signed : .bytes
        }
    }

    /// The chunk format byte.
    static let format: UInt8 = 1
    /// The most postings a chunk holds.
    static let maximumPostings = 128
    /// The key of the statistics entry in the chunks' database of a store of format 2 or 3.
    package static let statisticsKey: [UInt8] = [0]
    /// The key of the statistics entry in the segment database: after every recent entry
    /// (``recentPrefix``), so it shares a leaf page with the newest ones.
    package static let segmentStatisticsKey: [UInt8] = [2]

    /// The entry key of a chunk of `token` starting at `firstKey`.
    static func entryKey(token: UnsafeRawBufferPointer, firstKey: UnsafeRawBufferPointer) -> [UInt8] {
        var key: [UInt8] = []
        key.reserveCapacity(token.count + 1 + firstKey.count)
        key.append(contentsOf: token)
        key.append(0)
        key.append(contentsOf: firstKey)
        return key
    }

    /// The token and first table key of a chunk's entry key; `nil` for the statistics key or a damaged one.
    package static func splitEntryKey(_ key: UnsafeRawBufferPointer) -> (
        token: UnsafeRawBufferPointer, firstKey: UnsafeRawBufferPointer
    )? {
        guard let separator = key.firstIndex(of: 0), separator > 0, separator < key.count - 1 else { return nil }
        return (
            UnsafeRawBufferPointer(rebasing: key[0..<separator]),
            UnsafeRawBufferPointer(rebasing: key[(separator + 1)...])
        )
    }

    /// The statistics entry's value: the documents, their tokens and (only when not 0) the bytes
    /// of the recent segment's values (``recentKey(_:)``).
    static func encodeStatistics(documents: Int, tokens: Int, recentBytes: Int = 0) -> [UInt8] {
        var bytes: [UInt8] = []
        VarUInt.append(documents, to: &bytes)
        VarUInt.append(tokens, to: &bytes)
        if recentBytes > 0 { VarUInt.append(recentBytes, to: &bytes) }
        return bytes
    }

    /// The statistics in `value`; `nil` when damaged.
    package static func decodeStatistics(_ value: UnsafeRawBufferPointer) -> (documents: Int, tokens: Int)? {
        decodeFullStatistics(value).map { ($0.documents, $0.tokens) }
    }

    /// The statistics in `value` with the recent segment's size; `nil` when damaged.
    package static func decodeFullStatistics(_ value: UnsafeRawBufferPointer) -> (
        documents: Int, tokens: Int, recentBytes: Int
    )? {
        var offset = 0
        guard let documents = VarUInt.read(value, at: &offset), let tokens = VarUInt.read(value, at: &offset)
        else { return nil }
        var recentBytes = 0
        if offset < value.count {
            guard let bytes = VarUInt.read(value, at: &offset), bytes > 0 else { return nil }
            recentBytes = bytes
        }
        guard offset == value.count else { return nil }
        return (documents, tokens, recentBytes)
    }

    // MARK: Chunks

    /// A chunk's postings, decoded.
    package struct Chunk: Equatable {
        /// The table keys, end to end.
        var keyBytes: [UInt8] = []
        /// Where each key ends in ``keyBytes``.
        var keyEnds: [Int] = []
        /// Each document's token count.
        package var lengths: [Int] = []
        /// Each posting's positions, end to end; ``positionEnds`` says where each ends.
        var positions: [Int] = []
        var positionEnds: [Int] = []

        package var count: Int { keyEnds.count }

        package init() {}

        package func key(_ index: Int) -> ArraySlice<UInt8> {
            keyBytes[(index == 0 ? 0 : keyEnds[index - 1])..<keyEnds[index]]
        }

        package func positions(_ index: Int) -> ArraySlice<Int> {
            positions[(index == 0 ? 0 : positionEnds[index - 1])..<positionEnds[index]]
        }

        /// Appends a posting (its key must sort after the last one).
        package mutating func append(key: some Collection<UInt8>, length: Int, positions: some Collection<Int>) {
            keyBytes.append(contentsOf: key)
            keyEnds.append(keyBytes.count)
            lengths.append(length)
            self.positions.append(contentsOf: positions)
            positionEnds.append(self.positions.count)
        }

        /// The postings `range`, as a chunk of their own.
        func slice(_ range: Range<Int>) -> Chunk {
            var chunk = Chunk()
            for index in range { chunk.append(key: key(index), length: lengths[index], positions: positions(index)) }
            return chunk
        }

        /// The position of `key`, or where it would go (`found` false).
        func search(_ key: UnsafeRawBufferPointer) -> (index: Int, found: Bool) {
            var low = 0
            var high = count
            while low < high {
                let middle = (low + high) / 2
                let order = self.key(middle).withUnsafeBytes { PostingCodec.compare($0, key) }
                if order == 0 { return (middle, true) }
                if order < 0 { low = middle + 1 } else { high = middle }
            }
            return (low, false)
        }
    }

    /// The value of a chunk (its first key goes in the entry key).
    static func encode(_ chunk: Chunk, kind: KeyKind) -> [UInt8] {
        var docs: [UInt8] = []
        var stats: [UInt8] = []
        var positions: [UInt8] = []
        var previousOrdinal: UInt64 = 0
        for index in 0..<chunk.count {
            let key = chunk.key(index)
            if kind == .bytes {
                if index > 0 {
                    let previous = chunk.key(index - 1)
                    var shared = 0
                    while shared < previous.count, shared < key.count,
                        previous[previous.startIndex + shared] == key[key.startIndex + shared]
                    {
                        shared += 1
                    }
                    VarUInt.append(shared, to: &docs)
                    VarUInt.append(key.count - shared, to: &docs)
                    docs.append(contentsOf: key.dropFirst(shared))
                }
            } else {
                let ordinal = key.withUnsafeBytes { Self.ordinal($0, kind: kind) } ?? 0
                if index > 0 { appendVarUInt64(ordinal &- previousOrdinal, to: &docs) }
                previousOrdinal = ordinal
            }
            let tokenPositions = chunk.positions(index)
            let tf = tokenPositions.count
            VarUInt.append(chunk.lengths[index] * 4 + Swift.min(tf, 3), to: &stats)
            if tf >= 3 { VarUInt.append(tf - 3, to: &stats) }
            var previousPosition = 0
            for (offset, position) in tokenPositions.enumerated() {
                VarUInt.append(offset == 0 ? position : position - previousPosition, to: &positions)
                previousPosition = position
            }
        }
        var value: [UInt8] = [format]
        VarUInt.append(chunk.count, to: &value)
        VarUInt.append(docs.count, to: &value)
        VarUInt.append(stats.count, to: &value)
        value += docs
        value += stats
        value += positions
        return value
    }

    /// Reads the front-coded key at `offset` of a chunk of byte keys into `key`, which holds the
    /// key before it: the count of bytes the two share, then the rest. `false` when the bytes are
    /// damaged (sharing more than the previous key holds, or running past `end`).
    @inline(__always)
    static func readNextKey(
        _ value: UnsafeRawBufferPointer, at offset: inout Int, before end: Int, into key: inout [UInt8]
    ) -> Bool {
        guard let shared = VarUInt.read(value, at: &offset), let rest = VarUInt.read(value, at: &offset),
            shared <= key.count, rest <= end - offset
        else { return false }
        key.removeLast(key.count - shared)
        key.append(contentsOf: UnsafeRawBufferPointer(rebasing: value[offset..<offset + rest]))
        offset += rest
        return true
    }

    /// The chunk in `value` whose first key is `firstKey`; `nil` when damaged.
    package static func decode(
        _ value: UnsafeRawBufferPointer, firstKey: UnsafeRawBufferPointer, kind: KeyKind
    ) -> Chunk? {
        guard let header = ChunkHeader(value) else { return nil }
        var chunk = Chunk()
        chunk.keyBytes.reserveCapacity(header.count * (firstKey.count + 1))
        var docs = header.docsStart
        var stats = header.statsStart
        var positions = header.positionsStart
        var key = Array(firstKey)
        var ordinal = kind == .bytes ? 0 : (Self.ordinal(firstKey, kind: kind) ?? 0)
        for index in 0..<header.count {
            if index > 0 {
                if kind == .bytes {
                    guard Self.readNextKey(value, at: &docs, before: header.statsStart, into: &key) else { return nil }
                } else {
                    guard let delta = readVarUInt64(value, at: &docs), delta > 0 else { return nil }
                    ordinal &+= delta
                    key.removeAll(keepingCapacity: true)
                    appendKey(ordinal: ordinal, kind: kind, to: &key)
                }
            }
            guard let lengthAndCount = VarUInt.read(value, at: &stats) else { return nil }
            var tf = lengthAndCount & 3
            if tf == 3 {
                guard let extra = VarUInt.read(value, at: &stats) else { return nil }
                tf += extra
            }
            guard tf > 0 else { return nil }
            chunk.keyBytes += key
            chunk.keyEnds.append(chunk.keyBytes.count)
            chunk.lengths.append(lengthAndCount >> 2)
            var position = 0
            for offset in 0..<tf {
                guard let step = VarUInt.read(value, at: &positions), offset == 0 || step > 0 else { return nil }
                position += step
                chunk.positions.append(position)
            }
            chunk.positionEnds.append(chunk.positions.count)
        }
        guard docs == header.statsStart, stats == header.positionsStart, positions == value.count else { return nil }
        return chunk
    }

    /// Where a chunk's sections start.
    struct ChunkHeader {
        let count: Int
        let docsStart: Int
        let statsStart: Int
        let positionsStart: Int

        init?(_ value: UnsafeRawBufferPointer) {
            guard value.count >= 4, value[0] == PostingCodec.format else { return nil }
            var offset = 1
            guard let count = VarUInt.read(value, at: &offset), count >= 1, count <= PostingCodec.maximumPostings,
                let docsLength = VarUInt.read(value, at: &offset), let statsLength = VarUInt.read(value, at: &offset),
                docsLength <= value.count - offset, statsLength <= value.count - offset - docsLength
            else { return nil }
            self.count = count
            docsStart = offset
            statsStart = offset + docsLength
            positionsStart = offset + docsLength + statsLength
        }
    }

    /// LMDB's order of keys: bytes, then the shorter first.
    @inline(__always)
    package static func compare(_ left: UnsafeRawBufferPointer, _ right: UnsafeRawBufferPointer) -> Int {
        let common = Swift.min(left.count, right.count)
        if common > 0, let a = left.baseAddress, let b = right.baseAddress {
            let order = memcmp(a, b, common)
            if order != 0 { return Int(order) }
        }
        return left.count - right.count
    }

    // MARK: Integer keys

    /// The order-preserving unsigned value of an integer table key.
    @inline(__always)
    static func ordinal(_ key: UnsafeRawBufferPointer, kind: KeyKind) -> UInt64? {
        switch kind {
        case .signed: return OrderedVarInt.decode(key).map { UInt64(bitPattern: $0) ^ (1 << 63) }
        case .unsigned: return OrderedVarInt.decodeUnsigned(key)
        case .bytes: return nil
        }
    }

    /// Appends the table key whose order-preserving value is `ordinal`.
    @inline(__always)
    static func appendKey<Sink: ByteSink>(ordinal: UInt64, kind: KeyKind, to sink: inout Sink) {
        if kind == .signed {
            OrderedVarInt.append(Int64(bitPattern: ordinal ^ (1 << 63)), to: &sink)
        } else {
            OrderedVarInt.appendUnsigned(ordinal, to: &sink)
        }
    }

    @inline(__always)
    static func appendVarUInt64(_ value: UInt64, to bytes: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    @inline(__always)
    static func readVarUInt64(_ bytes: UnsafeRawBufferPointer, at offset: inout Int) -> UInt64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        var position = offset
        while position < bytes.count, shift < 70 {
            let byte = bytes[position]
            value |= UInt64(byte & 0x7F) << shift
            position += 1
            if byte < 0x80 {
                offset = position
                return value
            }
            shift += 7
        }
        return nil
    }
}
