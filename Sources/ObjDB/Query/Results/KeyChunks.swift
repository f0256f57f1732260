/// The table keys of a result list, in order, stored in chunks that versions share.
///
/// A live ``Results`` and the notifier each hold the list; after a commit the notifier edits
/// its copy (a few keys removed, a few inserted). In one flat array that edit copies every key
/// (copy-on-write, because the view still holds the old list); here it copies the chunks it
/// touches and the chunk index: O(k · chunk + n / chunk) for k edits, instead of O(n).
struct KeyChunks: RandomAccessCollection, Sendable {
    /// Keys per chunk when built; a chunk splits at twice this.
    static let chunkSize = 256

    private var chunks: [[[UInt8]]] = []
    /// The number of keys up to and including each chunk.
    private var ends: [Int] = []
    /// A query's answer as it came, end to end in one buffer; `chunks` is empty meanwhile. The
    /// first edit turns it into chunks.
    private(set) var flat: FlatKeys?

    init() {}

    /// A query's answer, kept in its buffer: no array per key until the list is edited.
    init(_ keys: FlatKeys) {
        if !keys.isEmpty { flat = keys }
    }

    /// The keys as one chunk, without copying them: a query's answer costs nothing more. The
    /// first edit splits the chunk it touches into regular ones (once, O(n)).
    init(_ keys: [[UInt8]]) {
        if !keys.isEmpty {
            chunks = [keys]
            ends = [keys.count]
        }
    }

    /// The number of chunks, and each chunk: for walking the keys without a search per key.
    /// (The flat buffer, when there is one, reads as a single chunk.)
    var chunkCount: Int { flat == nil ? chunks.count : 1 }
    func chunk(_ index: Int) -> [[UInt8]] {
        if let flat { return flat.keys(0..<flat.count) }
        return chunks[index]
    }

    var startIndex: Int { 0 }
    var endIndex: Int { flat?.count ?? ends.last ?? 0 }

    subscript(position: Int) -> [UInt8] {
        if let flat {
            precondition(position >= 0 && position < flat.count, "Key position out of range.")
            return flat[position]
        }
        let (chunk, offset) = locate(position)
        return chunks[chunk][offset]
    }

    /// Removes the key at `position`.
    mutating func remove(at position: Int) {
        unflatten()
        splitIfOversized(at: position)
        let (chunk, offset) = locate(position)
        chunks[chunk].remove(at: offset)
        if chunks[chunk].isEmpty {
            chunks.remove(at: chunk)
            ends.remove(at: chunk)
        }
        for index in chunk..<ends.count { ends[index] -= 1 }
    }

    /// Inserts `key` so that it ends up at `position`.
    mutating func insert(_ key: [UInt8], at position: Int) {
        precondition(position >= 0 && position <= endIndex, "Key position out of range.")
        unflatten()
        if chunks.isEmpty {
            chunks = [[key]]
            ends = [1]
            return
        }
        // Append to the chunk holding the key before `position` (or the first chunk).
        splitIfOversized(at: Swift.max(position - 1, 0))
        var (chunk, offset) = (0, 0)
        if position > 0 {
            (chunk, offset) = locate(position - 1)
            offset += 1
        }
        chunks[chunk].insert(key, at: offset)
        for index in chunk..<ends.count { ends[index] += 1 }
        if chunks[chunk].count >= 2 * Self.chunkSize {
            let upper = Array(chunks[chunk][Self.chunkSize...])
            chunks[chunk].removeLast(upper.count)
            chunks.insert(upper, at: chunk + 1)
            ends.insert(ends[chunk], at: chunk + 1)
            ends[chunk] -= upper.count
        }
    }

    /// Turns the flat buffer into regular chunks, before an edit.
    private mutating func unflatten() {
        guard let keys = flat else { return }
        flat = nil
        var start = 0
        while start < keys.count {
            let stop = Swift.min(start + Self.chunkSize, keys.count)
            chunks.append(keys.keys(start..<stop))
            ends.append(stop)
            start = stop
        }
    }

    /// Splits the chunk holding `position` into regular chunks if it is a whole query's answer.
    private mutating func splitIfOversized(at position: Int) {
        let (chunk, _) = locate(position)
        let keys = chunks[chunk]
        guard keys.count > 2 * Self.chunkSize else { return }
        var pieces: [[[UInt8]]] = []
        var pieceEnds: [Int] = []
        var end = chunk == 0 ? 0 : ends[chunk - 1]
        var start = 0
        while start < keys.count {
            let stop = Swift.min(start + Self.chunkSize, keys.count)
            pieces.append(Array(keys[start..<stop]))
            end += stop - start
            pieceEnds.append(end)
            start = stop
        }
        chunks.replaceSubrange(chunk...chunk, with: pieces)
        ends.replaceSubrange(chunk...chunk, with: pieceEnds)
    }

    /// The chunk holding `position`, and where in it.
    private func locate(_ position: Int) -> (Int, Int) {
        precondition(position >= 0 && position < endIndex, "Key position out of range.")
        var low = 0
        var high = ends.count - 1
        while low < high {
            let middle = (low + high) / 2
            if ends[middle] > position { high = middle } else { low = middle + 1 }
        }
        return (low, position - (low == 0 ? 0 : ends[low - 1]))
    }
}

extension KeyChunks: Equatable {
    static func == (left: KeyChunks, right: KeyChunks) -> Bool {
        left.elementsEqual(right)
    }
}
