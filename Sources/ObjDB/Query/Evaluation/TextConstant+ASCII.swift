import Foundation

/// `CONTAINS[c]` with an ASCII constant, without folding the value: a scan that lowercases ASCII
/// bytes as it compares. Bytes of other scalars cannot match an ASCII constant, unless folding
/// turns the scalar into ASCII (the Kelvin sign is `k`, `ß` is `ss`): a value holding one of
/// those takes Foundation's folding instead, so the answer is always Foundation's.
enum ASCIIFolding {
    /// A constant checked once for the byte scan: ASCII without uppercase letters, and
    /// Foundation folds ASCII as ASCII lowercase.
    struct Needle {
        /// The constant with the folding hazards that can matter to it, in one buffer (laid out
        /// as ``EncodedNeedle`` reads it) that a filter program copies into its constant pool.
        let encoded: [UInt8]

        /// `nil` when the scan cannot answer for `bytes`.
        init?(_ bytes: [UInt8]) {
            guard ASCIIFolding.agrees, !bytes.isEmpty, bytes.allSatisfy({ $0 < 0x80 && !($0 >= 0x41 && $0 <= 0x5A) })
            else { return nil }
            // A scalar whose folding yields none of the constant's bytes cannot be part of a
            // match: only the others send a value to Foundation (for `swift`, not the Kelvin
            // sign, nor the curly quotes that share its lead byte).
            let needed = Set(bytes)
            let scalars = ASCIIFolding.hazardFolds.filter { $0.ascii.contains(where: needed.contains) }.map(\.scalar)
            var leads = [UInt8](repeating: 0, count: 256)
            var pairs: [[UInt8]] = []
            for scalar in scalars {
                guard let value = Unicode.Scalar(scalar) else { continue }
                let utf8 = Array(String(Character(value)).utf8)
                leads[Int(utf8[0])] = 1
                if !pairs.contains(Array(utf8.prefix(2))) { pairs.append(Array(utf8.prefix(2))) }
            }
            var encoded: [UInt8] = []
            withUnsafeBytes(of: UInt32(bytes.count).littleEndian) { encoded += $0 }
            withUnsafeBytes(of: UInt32(scalars.count).littleEndian) { encoded += $0 }
            withUnsafeBytes(of: UInt32(pairs.count).littleEndian) { encoded += $0 }
            encoded += leads
            for scalar in scalars { withUnsafeBytes(of: scalar.littleEndian) { encoded += $0 } }
            encoded += pairs.joined()
            encoded += bytes
            self.encoded = encoded
        }
    }

    /// A ``Needle``'s buffer, read in place: the constant's length, the number of hazards and the
    /// number of distinct first two bytes of their UTF-8 (`UInt32` each), a table of 256 bytes
    /// marking the UTF-8 lead bytes of those hazards, the hazards (`UInt32` scalars), their first
    /// two bytes (two bytes each), then the constant's bytes.
    struct EncodedNeedle {
        let buffer: UnsafeRawBufferPointer

        @inline(__always)
        init(_ buffer: UnsafeRawBufferPointer) { self.buffer = buffer }

        private var hazardCount: Int {
            Int(UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: 4, as: UInt32.self)))
        }

        /// The constant's bytes.
        @inline(__always)
        var bytes: UnsafeRawBufferPointer {
            let count = Int(UInt32(littleEndian: buffer.loadUnaligned(as: UInt32.self)))
            return UnsafeRawBufferPointer(rebasing: buffer[(buffer.count - count)...])
        }

        /// How many distinct first two bytes the hazards' UTF-8 starts with.
        @inline(__always)
        var pairCount: Int {
            Int(UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: 8, as: UInt32.self)))
        }

        /// The first two bytes of the UTF-8 of some hazards, the `index`th of ``pairCount``.
        @inline(__always)
        func pair(_ index: Int) -> (lead: UInt8, next: UInt8) {
            let offset = 268 + 4 * hazardCount + 2 * index
            return (buffer[offset], buffer[offset + 1])
        }

        /// Whether `byte` leads the UTF-8 of a hazard that matters to the constant.
        @inline(__always)
        func isLead(_ byte: UInt8) -> Bool { buffer[12 + Int(byte)] != 0 }

        /// Whether folding `scalar` (of the first two planes) can yield one of the constant's bytes.
        func isHazard(_ scalar: UInt32) -> Bool {
            for index in 0..<hazardCount
            where UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: 268 + 4 * index, as: UInt32.self))
                == scalar
            {
                return true
            }
            return false
        }
    }

    /// An ``EncodedNeedle`` with the vectors ``containsByBlocks(_:_:)`` compares each block with:
    /// a scan builds it once, not once per value.
    struct BlockSearch {
        typealias Block = SIMD16<UInt8>
        let encoded: EncodedNeedle
        let firsts: Block
        let firstFolds: Block
        let seconds: Block
        let secondFolds: Block

        /// The vectors of `encoded`'s first two bytes: the bytes, and the bit that lowercases a
        /// letter (none for a byte that is not one). `nil` for a constant of one byte.
        @inline(__always)
        init?(_ encoded: EncodedNeedle) {
            let needle = encoded.bytes
            guard needle.count > 1 else { return nil }
            self.encoded = encoded
            firsts = Block(repeating: needle[0])
            firstFolds = Block(repeating: needle[0] >= 0x61 && needle[0] <= 0x7A ? 0x20 : 0)
            seconds = Block(repeating: needle[1])
            secondFolds = Block(repeating: needle[1] >= 0x61 && needle[1] <= 0x7A ? 0x20 : 0)
        }
    }

    /// Whether `value` contains `needle` (ASCII, lowercase) ignoring case; `nil` when only
    /// Foundation's folding can tell.
    static func contains(_ value: UnsafeRawBufferPointer, caseInsensitively needle: [UInt8]) -> Bool? {
        guard let checked = Needle(needle) else { return nil }
        return contains(value, checked)
    }

    /// Whether `value` contains `needle` ignoring case; `nil` when only Foundation's folding can tell.
    static func contains(_ value: UnsafeRawBufferPointer, _ checked: Needle) -> Bool? {
        checked.encoded.withUnsafeBytes { contains(value, EncodedNeedle($0)) }
    }

    /// Whether `value` contains a needle ignoring case; `nil` when only Foundation's folding can
    /// tell. A filter program keeps the needle in its constant pool, so a scan reaches it without
    /// retaining an array per record.
    @inline(__always)
    static func contains(_ value: UnsafeRawBufferPointer, _ encoded: EncodedNeedle) -> Bool? {
        let needle = encoded.bytes
        if value.count >= 17, let search = BlockSearch(encoded) { return containsByBlocks(value, search) }
        let first = needle[0]
        guard value.count >= needle.count, let base = value.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            return containsFoldingHazard(value, encoded) ? nil : false
        }
        // One pass, eight bytes at a time: the places where the first byte (either case of a
        // letter) stands, each compared folded; and, at each lead byte of a non-ASCII scalar
        // (rare), whether folding that scalar could yield part of the needle. A second pass for
        // the hazards cost a quarter of a scan of tweets.
        let fold: UInt8 = first >= 0x61 && first <= 0x7A ? 0x20 : 0
        let last = value.count - needle.count
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let pattern = UInt64(first) &* ones
        let folds = UInt64(fold) &* ones
        // The second byte filters the candidates too: a common first letter alone (the `s` of
        // `swift`) sent a quarter of all words to the full comparison.
        let second: UInt8 = needle.count > 1 ? needle[1] : 0
        let secondFold: UInt8 = second >= 0x61 && second <= 0x7A ? 0x20 : 0
        let secondPattern = UInt64(second) &* ones
        let secondFolds = UInt64(secondFold) &* ones
        var hazard = false
        @inline(__always)
        func matches(at index: Int) -> Bool {
            guard base[index] | fold == first else { return false }
            for offset in 1..<needle.count {
                let byte = base[index + offset]
                if (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) != needle[offset] { return false }
            }
            return true
        }
        /// Notes a hazard among the lead bytes of the eight bytes at `start`.
        @inline(__always)
        func checkLeads(at start: Int, _ word: UInt64) {
            guard word & highs != 0, !hazard else { return }
            // A lead byte is 11xxxxxx: its bit 6, shifted into bit 7, meets its own bit 7.
            var leads = word & (word &<< 1) & highs
            while leads != 0 {
                if isHazard(at: start + leads.trailingZeroBitCount / 8, in: value, encoded) {
                    hazard = true
                    return
                }
                leads &= leads &- 1
            }
        }
        /// Whether the needle starts at one of the eight places from `start` (`start + 7 <= last`).
        @inline(__always)
        func searchWord(at start: Int) -> Bool {
            let word = UInt64(littleEndian: value.loadUnaligned(fromByteOffset: start, as: UInt64.self))
            checkLeads(at: start, word)
            let difference = (word | folds) ^ pattern
            // A high bit for each zero byte (and maybe above one): candidates, checked in full.
            var hits = (difference &- ones) & ~difference & highs
            if needle.count > 1 {
                // In bounds: the needle's second byte at the word's last place is at most `last + 1`.
                let next = UInt64(littleEndian: value.loadUnaligned(fromByteOffset: start + 1, as: UInt64.self))
                let nextDifference = (next | secondFolds) ^ secondPattern
                hits &= (nextDifference &- ones) & ~nextDifference & highs
            }
            while hits != 0 {
                if matches(at: start + hits.trailingZeroBitCount / 8) { return true }
                hits &= hits &- 1
            }
            return false
        }
        var index = 0
        while index + 8 <= last + 1 {
            if searchWord(at: index) { return true }
            index += 8
        }
        // The last places as an overlapping word where the value is long enough: looking at a
        // place twice changes no answer, and costs less than a loop over bytes.
        var checked = index
        if index <= last {
            if last >= 7 {
                if searchWord(at: last - 7) { return true }
                checked = last + 1
            } else {
                while index <= last {
                    if matches(at: index) { return true }
                    index += 1
                }
            }
        }
        // The lead bytes no word above held, the same way.
        while !hazard, checked + 8 <= value.count {
            checkLeads(at: checked, UInt64(littleEndian: value.loadUnaligned(fromByteOffset: checked, as: UInt64.self)))
            checked += 8
        }
        if !hazard, checked < value.count {
            if value.count >= 8 {
                let start = value.count - 8
                checkLeads(at: start, UInt64(littleEndian: value.loadUnaligned(fromByteOffset: start, as: UInt64.self)))
            } else {
                for index in checked..<value.count where !hazard && value[index] >= 0xC0 {
                    hazard = isHazard(at: index, in: value, encoded)
                }
            }
        }
        return hazard ? nil : false
    }

    /// ``contains(_:_:)`` with a search built once for a scan of many values.
    @inline(__always)
    static func contains(_ value: UnsafeRawBufferPointer, _ search: BlockSearch) -> Bool? {
        value.count >= 17 ? containsByBlocks(value, search) : contains(value, search.encoded)
    }

    /// ``contains(_:_:)`` for a constant of two bytes or more in a value of 17 bytes or more:
    /// sixteen places a block, the last block overlapping the one before, so no place and no byte
    /// is left to a loop of words. Most blocks hold neither a place where the constant's first two
    /// bytes stand nor a byte that is not ASCII, and leave after one test. Of the others' scalars
    /// only those whose first two bytes start a hazard's UTF-8 (or beyond the first two planes) are
    /// decoded: an accented letter or an emoji costs a few vector tests, not a decode.
    @inline(__always)
    private static func containsByBlocks(_ value: UnsafeRawBufferPointer, _ search: BlockSearch) -> Bool? {
        typealias Block = SIMD16<UInt8>
        let encoded = search.encoded
        let needle = encoded.bytes
        let last = value.count - needle.count
        let (firsts, firstFolds, seconds, secondFolds) = (
            search.firsts, search.firstFolds, search.seconds, search.secondFolds
        )
        let ascii = Block(repeating: 0x80)
        let highs: UInt64 = 0x8080_8080_8080_8080
        // The block's second load reads one byte past it: the last block starts 17 bytes from the end.
        let finalStart = value.count - 17
        var hazard = false
        var start = 0
        while true {
            let block = value.loadUnaligned(fromByteOffset: start, as: Block.self)
            let next = value.loadUnaligned(fromByteOffset: start + 1, as: Block.self)
            let candidates = (block | firstFolds) .== firsts .& ((next | secondFolds) .== seconds)
            let nonASCII = block .>= ascii
            // (`any(_:)` is a call per block; two halves or'ed are two instructions.)
            let lanes = unsafeBitCast(candidates .| nonASCII, to: SIMD2<UInt64>.self)
            if lanes[0] | lanes[1] != 0 {
                let places = unsafeBitCast(candidates, to: SIMD2<UInt64>.self)
                for half in 0..<2 {
                    var bits = places[half] & highs
                    while bits != 0 {
                        let place = start + 8 * half + bits.trailingZeroBitCount / 8
                        if place <= last, matches(needle, at: place, in: value) { return true }
                        bits &= bits &- 1
                    }
                }
                if !hazard {
                    let suspects = unsafeBitCast(hazardStarts(block, next, encoded), to: SIMD2<UInt64>.self)
                    for half in 0..<2 where !hazard {
                        var bits = suspects[half] & highs
                        while bits != 0 {
                            if isHazard(at: start + 8 * half + bits.trailingZeroBitCount / 8, in: value, encoded) {
                                hazard = true
                                break
                            }
                            bits &= bits &- 1
                        }
                    }
                }
            }
            if start == finalStart { break }
            start = Swift.min(start + 16, finalStart)
        }
        return hazard ? nil : false
    }

    /// The places of `block` (`next`: the same places one byte on) where a scalar starts that
    /// ``isHazard(at:in:_:)`` must decode: the first two bytes of a hazard's UTF-8, or a scalar
    /// beyond the first two planes (lead `F1`–`F4`, or `F0` then `A0` or more).
    @inline(__always)
    private static func hazardStarts(_ block: SIMD16<UInt8>, _ next: SIMD16<UInt8>, _ encoded: EncodedNeedle)
        -> SIMDMask<SIMD16<Int8>>
    {
        typealias Block = SIMD16<UInt8>
        var found =
            block .> Block(repeating: 0xF0) .| (block .== Block(repeating: 0xF0) .& (next .>= Block(repeating: 0xA0)))
        for index in 0..<encoded.pairCount {
            let (lead, follower) = encoded.pair(index)
            found .|= block .== Block(repeating: lead) .& (next .== Block(repeating: follower))
        }
        return found
    }

    /// Whether `needle` (lowercase ASCII) stands at `place` of `value`, ignoring ASCII case.
    @inline(__always)
    private static func matches(_ needle: UnsafeRawBufferPointer, at place: Int, in value: UnsafeRawBufferPointer)
        -> Bool
    {
        for offset in 0..<needle.count {
            let byte = value[place + offset]
            if (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) != needle[offset] { return false }
        }
        return true
    }

    /// Whether `value` holds a scalar whose case folding may yield one of `needle`'s bytes.
    private static func containsFoldingHazard(_ value: UnsafeRawBufferPointer, _ needle: EncodedNeedle) -> Bool {
        for index in value.indices where value[index] >= 0xC0 && isHazard(at: index, in: value, needle) {
            return true
        }
        return false
    }

    /// Whether the scalar whose lead byte is at `index` may fold into one of `needle`'s bytes.
    private static func isHazard(at index: Int, in value: UnsafeRawBufferPointer, _ needle: EncodedNeedle) -> Bool {
        let byte = value[index]
        // A lead byte no hazard of the first two planes starts (an emoji's F0 9F, most accented
        // letters' C3 among them only where the list says): not decoded.
        guard
            needle.isLead(byte) || byte > 0xF0
                || (byte == 0xF0 && (index + 1 == value.count || value[index + 1] >= 0xA0))
        else { return false }
        let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
        // Decode the scalar (the value is a stored String: valid UTF-8).
        guard index + length <= value.count else { return true }
        var scalar = UInt32(byte) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for offset in 1..<length { scalar = scalar << 6 | UInt32(value[index + offset] & 0x3F) }
        if scalar >= 0x20000 { return changesWhenCaseFolded(scalar) }
        return needle.isHazard(scalar)
    }

    /// Whether folding `scalar` changes it. Not inlined: reading a scalar's properties asks the
    /// runtime for their type's size on entry to the function, and a scan's matcher ran that at
    /// every value.
    @inline(never)
    private static func changesWhenCaseFolded(_ scalar: UInt32) -> Bool {
        Unicode.Scalar(scalar)?.properties.changesWhenCaseFolded ?? true
    }

    /// The scalars of the first two planes whose `[c]` folding holds an ASCII character, with
    /// those characters: found once, so a needle keeps only the ones that can matter to it.
    static let hazardFolds: [(scalar: UInt32, ascii: [UInt8])] = {
        var found: [(scalar: UInt32, ascii: [UInt8])] = []
        for value in UInt32(0x80)..<0x20000 {
            guard let scalar = Unicode.Scalar(value),
                scalar.properties.changesWhenCaseFolded
                    || scalar.properties.changesWhenLowercased
            else { continue }
            let ascii = QueryText.fold(String(Character(scalar)), .caseInsensitive).utf8.filter { $0 < 0x80 }
            if !ascii.isEmpty { found.append((value, ascii)) }
        }
        return found
    }()

    /// Whether Foundation's `[c]` folds ASCII as ASCII lowercase (checked once).
    static let agrees: Bool = {
        let ascii = String(String.UnicodeScalarView((0..<128).compactMap(Unicode.Scalar.init)))
        let lowered = Array(ascii.utf8).map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        return Array(QueryText.fold(ascii, .caseInsensitive).utf8) == lowered
    }()
}
