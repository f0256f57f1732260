/// The tokens of one value, as a full-text index stores them: each distinct token with its
/// positions, sorted by token, and the value's token count.
///
/// The tokens and positions sit in flat arrays: a tweet's twenty tokens cost a handful of
/// allocations, not two or three each (a dictionary of arrays was 41% of the samples of a
/// single indexed write not durable; BENCHMARKS.md).
struct DocumentTokens {
    /// The distinct tokens' bytes, back to back, in bytewise order of the tokens.
    private var bytes: [UInt8] = []
    /// Where each token ends in ``bytes``.
    private var tokenEnds: [Int] = []
    /// Every token's positions, ascending, token after token.
    private var allPositions: [Int] = []
    /// Where each token's positions end in ``allPositions``.
    private var positionEnds: [Int] = []
    /// How many tokens the value has (its length for ranking).
    private(set) var length = 0

    /// The tokens of `text` (UTF-8).
    init(_ text: UnsafeRawBufferPointer) {
        // Each occurrence as the tokenizer gives it, then sorted by token and position.
        var found: [UInt8] = []
        var occurrences: [Occurrence] = []
        TextTokenizer.forEachToken(in: text) { token, position, _ in
            occurrences.append(Occurrence(start: found.count, count: token.count, position: position))
            found.append(contentsOf: token)
        }
        length = occurrences.count
        guard !occurrences.isEmpty else { return }
        found.withUnsafeBytes { found in
            @inline(__always)
            func token(_ occurrence: Occurrence) -> UnsafeRawBufferPointer {
                UnsafeRawBufferPointer(rebasing: found[occurrence.start..<occurrence.start + occurrence.count])
            }
            occurrences.sort { left, right in
                let order = PostingCodec.compare(token(left), token(right))
                return order != 0 ? order < 0 : left.position < right.position
            }
            bytes.reserveCapacity(found.count)
            allPositions.reserveCapacity(occurrences.count)
            var previous: UnsafeRawBufferPointer?
            for occurrence in occurrences {
                let current = token(occurrence)
                if let previous, PostingCodec.compare(previous, current) == 0 {
                    allPositions.append(occurrence.position)
                    positionEnds[positionEnds.count - 1] += 1
                    continue
                }
                bytes.append(contentsOf: current)
                tokenEnds.append(bytes.count)
                allPositions.append(occurrence.position)
                positionEnds.append(allPositions.count)
                previous = current
            }
        }
    }

    init() {}

    /// How many distinct tokens the value has.
    var count: Int { tokenEnds.count }

    /// The `index`th distinct token, in bytewise order.
    func token(at index: Int) -> ArraySlice<UInt8> {
        bytes[(index == 0 ? 0 : tokenEnds[index - 1])..<tokenEnds[index]]
    }

    /// The positions of the `index`th distinct token, ascending.
    func positions(at index: Int) -> ArraySlice<Int> {
        allPositions[(index == 0 ? 0 : positionEnds[index - 1])..<positionEnds[index]]
    }

    /// One token as the tokenizer gave it: where its bytes are, and its position.
    private struct Occurrence {
        let start: Int
        let count: Int
        let position: Int
    }
}
