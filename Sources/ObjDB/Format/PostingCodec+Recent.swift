/// The recent segment of a full-text index: the postings of objects written since the last fold,
/// one entry per object, so that a write puts one small entry next to the statistics instead of
/// rewriting a chunk per token all over the index's B-tree.
///
/// | Key | Value |
/// |---|---|
/// | `01` table key | `01`, `VarUInt` the object's token count, `VarUInt` n, then n tokens in bytewise order, each `VarUInt` its length, its bytes, `VarUInt` tf and its tf positions (the first, then each one's distance from the one before) |
///
/// The segment has a database of its own, `fts.<Type>.<id>.recent`, with the statistics after
/// its entries (``segmentStatisticsKey``). A store of format 3 kept it in the chunks' database: a
/// token never starts with `01`, so there it is one key range between the statistics entry and the
/// first chunk. An object's postings are in its segment entry or in the chunks, never both.
extension PostingCodec {
    /// The first byte of a recent entry's key, and the format byte of its value.
    package static let recentPrefix: UInt8 = 1

    /// The key of the recent entry of the object whose table key is `key`.
    static func recentKey(_ key: some Collection<UInt8>) -> [UInt8] {
        var bytes: [UInt8] = [recentPrefix]
        bytes.append(contentsOf: key)
        return bytes
    }

    /// Whether an entry key is a recent entry's (not a chunk's, nor the statistics').
    @inline(__always)
    package static func isRecentKey(_ key: UnsafeRawBufferPointer) -> Bool {
        key.count > 1 && key[0] == recentPrefix
    }

    /// The value of a recent entry: the object's token count, and its distinct tokens (sorted
    /// bytewise) with their positions.
    static func encodeRecent(_ document: DocumentTokens) -> [UInt8] {
        var bytes: [UInt8] = [recentPrefix]
        VarUInt.append(document.length, to: &bytes)
        VarUInt.append(document.count, to: &bytes)
        for index in 0..<document.count {
            let token = document.token(at: index)
            let places = document.positions(at: index)
            VarUInt.append(token.count, to: &bytes)
            bytes += token
            VarUInt.append(places.count, to: &bytes)
            var previous = 0
            for position in places {
                VarUInt.append(position - previous, to: &bytes)
                previous = position
            }
        }
        return bytes
    }

    /// Reads a recent entry's value in place.
    package struct RecentEntry {
        /// The object's token count.
        package let length: Int
        /// How many distinct tokens follow.
        package let count: Int
        private let bytes: UnsafeRawBufferPointer
        private let start: Int

        /// `nil` when the header does not decode (``forEachToken(_:)`` checks the rest).
        package init?(_ value: UnsafeRawBufferPointer) {
            guard value.count >= 3, value[0] == PostingCodec.recentPrefix else { return nil }
            var offset = 1
            guard let length = VarUInt.read(value, at: &offset), let count = VarUInt.read(value, at: &offset),
                count >= 1
            else { return nil }
            self.length = length
            self.count = count
            bytes = value
            start = offset
        }

        /// Calls `body` with each token, its tf and where its positions start (in place: `tf`
        /// LEB128 distances, as ``PositionReader`` reads them); `body` returns `false` to stop.
        /// `false` when the value is damaged: out of bounds, tokens out of order, a tf of 0.
        @discardableResult
        package func forEachToken(
            _ body: (_ token: UnsafeRawBufferPointer, _ tf: Int, _ positions: UnsafeRawPointer) -> Bool
        ) -> Bool {
            var offset = start
            var previous = UnsafeRawBufferPointer(start: nil, count: 0)
            for index in 0..<count {
                guard let tokenLength = VarUInt.read(bytes, at: &offset), tokenLength >= 1,
                    tokenLength <= bytes.count - offset
                else { return false }
                let token = UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + tokenLength])
                offset += tokenLength
                guard token[0] > PostingCodec.recentPrefix, index == 0 || PostingCodec.compare(previous, token) < 0,
                    let tf = VarUInt.read(bytes, at: &offset), tf >= 1
                else { return false }
                let positions = bytes.baseAddress! + offset
                var remaining = tf
                while remaining > 0 {
                    guard offset < bytes.count else { return false }
                    if bytes[offset] < 0x80 { remaining -= 1 }
                    offset += 1
                }
                if !body(token, tf, positions) { return true }
                previous = token
            }
            return offset == bytes.count
        }

        /// Every token with its positions, decoded; `nil` when damaged.
        package func decoded() -> [(token: [UInt8], positions: [Int])]? {
            var found: [(token: [UInt8], positions: [Int])] = []
            let end = bytes.baseAddress.map { $0 + bytes.count }
            let complete = forEachToken { token, tf, start in
                let rest = UnsafeRawBufferPointer(start: start, count: end! - start)
                var offset = 0
                var position = 0
                var positions: [Int] = []
                for _ in 0..<tf {
                    position += VarUInt.read(rest, at: &offset) ?? 0
                    positions.append(position)
                }
                found.append((Array(token), positions))
                return true
            }
            return complete ? found : nil
        }
    }
}
