extension PostingCodec {
    /// The chunk `value` (whose first key is `firstKey`) with a posting appended, spliced in its
    /// bytes without decoding the others: the write path's common case, a new object's key above
    /// every key of the token's last chunk. `nil` when `key` is not above the chunk's last key, the
    /// chunk would pass `maximumBytes` or ``maximumPostings``, or the chunk does not decode.
    static func appending(
        to value: UnsafeRawBufferPointer, firstKey: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer,
        length: Int, positions: [Int], kind: KeyKind, maximumBytes: Int
    ) -> [UInt8]? {
        guard let header = ChunkHeader(value), header.count < maximumPostings, !positions.isEmpty else { return nil }
        var added: [UInt8] = []
        var offset = header.docsStart
        if kind == .bytes {
            var last = Array(firstKey)
            for _ in 1..<header.count {
                guard Self.readNextKey(value, at: &offset, before: header.statsStart, into: &last) else { return nil }
            }
            guard last.withUnsafeBytes({ compare($0, key) }) < 0 else { return nil }
            var shared = 0
            while shared < last.count, shared < key.count, last[shared] == key[shared] { shared += 1 }
            VarUInt.append(shared, to: &added)
            VarUInt.append(key.count - shared, to: &added)
            added.append(contentsOf: UnsafeRawBufferPointer(rebasing: key[shared...]))
        } else {
            guard var last = ordinal(firstKey, kind: kind), let new = ordinal(key, kind: kind) else { return nil }
            for _ in 1..<header.count {
                guard let delta = readVarUInt64(value, at: &offset) else { return nil }
                last &+= delta
            }
            guard new > last else { return nil }
            appendVarUInt64(new - last, to: &added)
        }
        guard offset == header.statsStart else { return nil }
        var stats: [UInt8] = []
        VarUInt.append(length * 4 + Swift.min(positions.count, 3), to: &stats)
        if positions.count >= 3 { VarUInt.append(positions.count - 3, to: &stats) }
        var places: [UInt8] = []
        var previous = 0
        for (index, position) in positions.enumerated() {
            VarUInt.append(index == 0 ? position : position - previous, to: &places)
            previous = position
        }
        let docsLength = header.statsStart - header.docsStart + added.count
        let statsLength = header.positionsStart - header.statsStart + stats.count
        var result: [UInt8] = [format]
        VarUInt.append(header.count + 1, to: &result)
        VarUInt.append(docsLength, to: &result)
        VarUInt.append(statsLength, to: &result)
        let size = result.count + docsLength + statsLength + (value.count - header.positionsStart) + places.count
        guard size <= maximumBytes else { return nil }
        result.reserveCapacity(size)
        result.append(contentsOf: UnsafeRawBufferPointer(rebasing: value[header.docsStart..<header.statsStart]))
        result += added
        result.append(contentsOf: UnsafeRawBufferPointer(rebasing: value[header.statsStart..<header.positionsStart]))
        result += stats
        result.append(contentsOf: UnsafeRawBufferPointer(rebasing: value[header.positionsStart...]))
        result += places
        return result
    }
}
