import CLMDB
import Foundation

/// New entries of a table that was empty when its write transaction first inserted into it,
/// held back and put in key order when the transaction next needs the table.
///
/// Why: LMDB splits a full leaf in half, so keys that arrive in random order (tweets by id, say)
/// leave the leaves about two-thirds full. Put in key order with `MDB_APPEND`, each leaf fills
/// before the next begins: the table takes about a third less space, and the puts need no search.
///
/// The table was empty, so a key is stored exactly when it is held here: gets are answered from
/// the held entries, and a key inserted twice is refused at once, as `MDB_NOOVERWRITE` would.
/// ``Transaction`` decides when to hold and when to put; this type only keeps the entries.
final class BulkLoad {
    /// The database the entries go to.
    let dbi: MDB_dbi
    /// The memory the load holds: keys, values, and each entry's bookkeeping.
    private(set) var heldBytes = 0

    private var entries: [Entry] = []
    private var slots: UnsafeMutablePointer<UInt64>
    private var slotMask: Int
    private var chunks: [UnsafeMutableRawBufferPointer] = []
    private var chunkUsed = 0

    /// Bytes of bookkeeping per entry: its `Entry`, two hash slots, and its sort key at the put.
    private static let entryOverhead = MemoryLayout<Entry>.stride + 2 * 8 + 16

    init(dbi: MDB_dbi) {
        self.dbi = dbi
        slotMask = 63
        slots = .allocate(capacity: slotMask + 1)
        slots.initialize(repeating: 0, count: slotMask + 1)
    }

    deinit {
        slots.deallocate()
        for chunk in chunks { chunk.deallocate() }
    }

    /// The value held under `key`, or `nil` when the key is not held (so not in the table).
    func value(forKey key: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        let hash = Self.hash(key)
        guard let index = slot(of: key, hash: hash).entry else { return nil }
        return entries[index].value
    }

    /// Holds an entry of `valueCount` bytes under `key`, written by `fill`, in place of the one
    /// held when `replacing`. `fill` runs before the key is looked up: for a key already held and
    /// not `replacing`, what it wrote is dropped.
    ///
    /// - Returns: `false`, holding nothing new, when `key` is already held and not `replacing`.
    func insert(
        key: UnsafeRawBufferPointer, valueCount: Int, replacing: Bool,
        fill: (UnsafeMutableRawBufferPointer) throws -> Void
    ) rethrows -> Bool {
        let hash = Self.hash(key)
        // The key's slot is a cache miss in a large load (W1's one hot spot, BENCHMARKS.md): ask for
        // it now and fill the value meanwhile; a key already held gives its space back below.
        objdb_prefetch(slots + (Int(hash) & slotMask), 8)
        let space = allocate(key.count + valueCount)
        space.copyMemory(from: key)
        do {
            try fill(UnsafeMutableRawBufferPointer(rebasing: space[key.count...]))
        } catch {
            chunkUsed -= space.count
            throw error
        }
        let found = slot(of: key, hash: hash)
        if let index = found.entry {
            guard replacing else {
                chunkUsed -= space.count
                return false
            }
            // The old value's bytes stay where they are (still valid for a reader): only the
            // entry moves to the new ones.
            entries[index] = Entry(start: space.baseAddress!, keyCount: key.count, valueCount: valueCount)
            heldBytes += space.count
            return true
        }
        entries.append(Entry(start: space.baseAddress!, keyCount: key.count, valueCount: valueCount))
        slots[found.position] = UInt64(truncatingIfNeeded: hash) << 32 | UInt64(entries.count)
        heldBytes += space.count + Self.entryOverhead
        if entries.count * 2 > slotMask { growSlots() }
        return true
    }

    /// Calls `body` with every held entry, in LMDB's key order (bytewise, a prefix first).
    func forEachInKeyOrder(_ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Void) rethrows {
        let order = keyOrder()
        try entries.withUnsafeBufferPointer { entries in
            for position in order.indices {
                // Key order visits the entries, and their bytes, in random order: ask for the ones a
                // few puts ahead now, so their loads overlap the puts in between (W1 in BENCHMARKS.md).
                if position + Self.prefetchDistance < order.count {
                    let ahead = entries[Int(order[position + Self.prefetchDistance].index)]
                    // The first lines only: a large value's copy streams, and would evict what LMDB needs.
                    objdb_prefetch(ahead.start, min(ahead.keyCount + ahead.valueCount, 256))
                }
                let entry = entries[Int(order[position].index)]
                try body(entry.key, entry.value)
            }
        }
    }

    /// The held entries' positions in LMDB's key order.
    ///
    /// The first eight bytes of a key, big-endian, order most keys without touching the entries
    /// again: a radix sort of those prefixes (a byte at a time, skipping the bytes every prefix
    /// shares) makes a linear pass per byte, where a comparison sort through a closure cost W1 6%
    /// (BENCHMARKS.md). Entries whose prefixes tie are then ordered by their whole keys.
    private func keyOrder() -> [SortKey] {
        let count = entries.count
        guard count > 1 else { return entries.indices.map { SortKey(prefix: 0, index: UInt32($0)) } }
        var order = [SortKey](unsafeUninitializedCapacity: count) { buffer, initialized in
            entries.withUnsafeBufferPointer { entries in
                for index in 0..<count {
                    buffer[index] = SortKey(prefix: entries[index].prefix, index: UInt32(index))
                }
            }
            initialized = count
        }
        var spare = [SortKey](repeating: SortKey(prefix: 0, index: 0), count: count)
        // One histogram per byte of the prefix, all counted in one pass.
        var counts = [Int](repeating: 0, count: 8 * 256)
        order.withUnsafeBufferPointer { order in
            counts.withUnsafeMutableBufferPointer { counts in
                for key in order {
                    var prefix = key.prefix
                    for byte in 0..<8 {
                        counts[byte << 8 | Int(prefix & 0xFF)] += 1
                        prefix >>= 8
                    }
                }
            }
        }
        order.withUnsafeMutableBufferPointer { order in
            spare.withUnsafeMutableBufferPointer { spare in
                counts.withUnsafeMutableBufferPointer { counts in
                    var source = order
                    var target = spare
                    for byte in 0..<8 {
                        let histogram = UnsafeMutableBufferPointer(rebasing: counts[byte << 8..<(byte + 1) << 8])
                        // A byte every prefix shares orders nothing.
                        if histogram.contains(count) { continue }
                        var start = 0
                        for digit in 0..<256 {
                            let digitCount = histogram[digit]
                            histogram[digit] = start
                            start += digitCount
                        }
                        let shift = UInt64(byte * 8)
                        for key in source {
                            let digit = Int((key.prefix >> shift) & 0xFF)
                            target[histogram[digit]] = key
                            histogram[digit] += 1
                        }
                        swap(&source, &target)
                    }
                    if source.baseAddress != order.baseAddress {
                        order.baseAddress!.update(from: source.baseAddress!, count: count)
                    }
                }
            }
            // Ties: keys longer than eight bytes that share their first eight, or keys that differ
            // only by trailing zero bytes (the prefix pads with zeros).
            entries.withUnsafeBufferPointer { entries in
                var runStart = 0
                while runStart < count {
                    var runEnd = runStart + 1
                    while runEnd < count, order[runEnd].prefix == order[runStart].prefix { runEnd += 1 }
                    if runEnd - runStart > 1 {
                        var run = UnsafeMutableBufferPointer(rebasing: order[runStart..<runEnd])
                        run.sort { left, right in
                            Self.precedes(entries[Int(left.index)].key, entries[Int(right.index)].key)
                        }
                    }
                    runStart = runEnd
                }
            }
        }
        return order
    }

    /// How many puts ahead ``forEachInKeyOrder(_:)`` prefetches an entry's bytes.
    private static let prefetchDistance = 8

    // MARK: - Storage

    private struct Entry {
        let start: UnsafeMutableRawPointer
        let keyCount: Int
        let valueCount: Int

        var key: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: start, count: keyCount) }
        var value: UnsafeRawBufferPointer {
            UnsafeRawBufferPointer(start: start + keyCount, count: valueCount)
        }

        var prefix: UInt64 {
            var prefix: UInt64 = 0
            let bytes = key
            for offset in 0..<8 {
                prefix <<= 8
                if offset < bytes.count { prefix |= UInt64(bytes[offset]) }
            }
            return prefix
        }
    }

    private struct SortKey {
        let prefix: UInt64
        let index: UInt32
    }

    /// Space for `count` bytes that stays where it is until the load ends: values handed out
    /// stay valid while more are held.
    private func allocate(_ count: Int) -> UnsafeMutableRawBufferPointer {
        if let last = chunks.last, last.count - chunkUsed >= count {
            defer { chunkUsed += count }
            return UnsafeMutableRawBufferPointer(rebasing: last[chunkUsed..<chunkUsed + count])
        }
        // Chunks grow with the load, so a small write allocates little and a large one few times.
        let size = max(count, min((4 << 10) << min(chunks.count, 11), 8 << 20))
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
        chunks.append(chunk)
        chunkUsed = count
        return UnsafeMutableRawBufferPointer(rebasing: chunk[0..<count])
    }

    // MARK: - Hash table

    /// Each slot holds an entry's hash (high 32 bits) and its index + 1 (low 32 bits); 0 is empty.
    private func slot(of key: UnsafeRawBufferPointer, hash: UInt32) -> (position: Int, entry: Int?) {
        var position = Int(hash) & slotMask
        while true {
            let slot = slots[position]
            if slot == 0 { return (position, nil) }
            if UInt32(truncatingIfNeeded: slot >> 32) == hash {
                let index = Int(truncatingIfNeeded: slot & 0xFFFF_FFFF) - 1
                let held = entries[index]
                if held.keyCount == key.count, memcmp(held.start, key.baseAddress!, key.count) == 0 {
                    return (position, index)
                }
            }
            position = (position + 1) & slotMask
        }
    }

    private func growSlots() {
        let oldSlots = slots
        let oldCount = slotMask + 1
        slotMask = oldCount * 2 - 1
        slots = .allocate(capacity: slotMask + 1)
        slots.initialize(repeating: 0, count: slotMask + 1)
        for position in 0..<oldCount where oldSlots[position] != 0 {
            let slot = oldSlots[position]
            var target = Int(truncatingIfNeeded: slot >> 32) & slotMask
            while slots[target] != 0 { target = (target + 1) & slotMask }
            slots[target] = slot
        }
        oldSlots.deallocate()
    }

    private static func hash(_ key: UnsafeRawBufferPointer) -> UInt32 {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(key.count)
        var offset = 0
        while offset + 8 <= key.count {
            hash = (hash ^ key.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
            hash ^= hash >> 32
            offset += 8
        }
        var tail: UInt64 = 0
        while offset < key.count {
            tail = tail << 8 | UInt64(key[offset])
            offset += 1
        }
        hash = (hash ^ tail) &* 0xC4CE_B9FE_1A85_EC53
        hash ^= hash >> 29
        return UInt32(truncatingIfNeeded: hash >> 16)
    }

    /// LMDB's default order: bytewise over the common length, then the shorter key first.
    private static func precedes(_ left: UnsafeRawBufferPointer, _ right: UnsafeRawBufferPointer) -> Bool {
        let common = min(left.count, right.count)
        let order = common == 0 ? 0 : memcmp(left.baseAddress!, right.baseAddress!, common)
        return order != 0 ? order < 0 : left.count < right.count
    }
}
