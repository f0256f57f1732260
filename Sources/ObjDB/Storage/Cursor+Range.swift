/// One end of a key range: a key, and whether the range includes it.
package struct KeyBound: Sendable, Hashable {
    /// The bound's bytes.
    package var key: [UInt8]
    /// Whether an entry whose key equals ``key`` lies inside the range.
    package var isInclusive: Bool

    package init(_ key: [UInt8], inclusive: Bool = true) {
        self.key = key
        self.isInclusive = inclusive
    }
}

extension Cursor {
    /// Calls `body` with each entry whose key lies between `lower` and `upper`, in
    /// ascending key order or, when `reverse`, descending; `body` returns `false` to stop.
    ///
    /// A `nil` bound leaves that end open. Duplicate values of a key come in their sorted order.
    package func forEach(
        from lower: KeyBound? = nil, to upper: KeyBound? = nil, reverse: Bool = false,
        _ body: (CursorEntry) throws -> Bool
    ) throws {
        if reverse {
            var entry = try positionAtUpperEnd(upper)
            while let current = entry {
                if let lower, !isAbove(current.key, lower) { return }
                guard try body(current) else { return }
                entry = try previous()
            }
        } else {
            var entry = try positionAtLowerEnd(lower)
            while let current = entry {
                if let upper, !isBelow(current.key, upper) { return }
                guard try body(current) else { return }
                entry = try next()
            }
        }
    }

    private func positionAtLowerEnd(_ lower: KeyBound?) throws -> CursorEntry? {
        guard let lower else { return try first() }
        var entry = try lower.key.withUnsafeBytes { try seek(atLeast: $0) }
        if !lower.isInclusive {
            while let current = entry, lower.key.withUnsafeBytes({ compare(current.key, $0) }) == 0 {
                entry = try nextKey()
            }
        }
        return entry
    }

    private func positionAtUpperEnd(_ upper: KeyBound?) throws -> CursorEntry? {
        guard let upper else { return try last() }
        guard let atOrAbove = try upper.key.withUnsafeBytes({ try seek(atLeast: $0) }) else { return try last() }
        let order = upper.key.withUnsafeBytes { compare(atOrAbove.key, $0) }
        if order > 0 || (order == 0 && !upper.isInclusive) {
            return try previous()
        }
        // Stand on the last value of a duplicate key, so reverse order includes them all.
        if database.options.contains(.duplicateSort) {
            // MDB_LAST_DUP moves to the value but does not return the key.
            guard try lastValueOfKey() != nil else { return atOrAbove }
            return try current()
        }
        return atOrAbove
    }

    private func isAbove(_ key: UnsafeRawBufferPointer, _ lower: KeyBound) -> Bool {
        let order = lower.key.withUnsafeBytes { compare(key, $0) }
        return order > 0 || (order == 0 && lower.isInclusive)
    }

    private func isBelow(_ key: UnsafeRawBufferPointer, _ upper: KeyBound) -> Bool {
        let order = upper.key.withUnsafeBytes { compare(key, $0) }
        return order < 0 || (order == 0 && upper.isInclusive)
    }
}
