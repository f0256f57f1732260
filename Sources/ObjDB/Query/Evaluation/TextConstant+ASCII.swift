import Foundation

/// `CONTAINS[c]` with an ASCII constant, without folding the value: a scan that lowercases ASCII
/// bytes as it compares. Bytes of other scalars cannot match an ASCII constant, unless folding
/// turns the scalar into ASCII (the Kelvin sign is `k`, `ß` is `ss`): a value holding one of
/// those takes Foundation's folding instead, so the answer is always Foundation's.
enum ASCIIFolding {
    /// A constant checked once for the byte scan: ASCII without uppercase letters, and
    /// Foundation folds ASCII as ASCII lowercase.
    struct Needle {
        let bytes: [UInt8]

        /// `nil` when the scan cannot answer for `bytes`.
        init?(_ bytes: [UInt8]) {
            guard ASCIIFolding.agrees, !bytes.isEmpty, bytes.allSatisfy({ $0 < 0x80 && !($0 >= 0x41 && $0 <= 0x5A) })
            else { return nil }
            self.bytes = bytes
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
        let needle = checked.bytes
        let first = needle[0]
        guard value.count >= needle.count, let base = value.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            return containsFoldingHazard(value) ? nil : false
        }
        // One pass, eight bytes at a time: the places where the first byte (either case of a
        // letter) stands, each compared folded; and whether any byte is not ASCII.
        let fold: UInt8 = first >= 0x61 && first <= 0x7A ? 0x20 : 0
        let last = value.count - needle.count
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let pattern = UInt64(first) &* ones
        let folds = UInt64(fold) &* ones
        var nonASCII: UInt64 = 0
        let found = needle.withUnsafeBufferPointer { needle -> Bool in
            @inline(__always)
            func matches(at index: Int) -> Bool {
                guard base[index] | fold == first else { return false }
                for offset in 1..<needle.count {
                    let byte = base[index + offset]
                    if (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) != needle[offset] { return false }
                }
                return true
            }
            var index = 0
            while index + 8 <= last + 1 {
                let word = UInt64(littleEndian: value.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                nonASCII |= word
                let difference = (word | folds) ^ pattern
                // A high bit for each zero byte (and maybe above one): candidates, checked in full.
                var hits = (difference &- ones) & ~difference & highs
                while hits != 0 {
                    if matches(at: index + hits.trailingZeroBitCount / 8) { return true }
                    hits &= hits &- 1
                }
                index += 8
            }
            while index <= last {
                nonASCII |= UInt64(base[index])
                if matches(at: index) { return true }
                index += 1
            }
            while index < value.count {
                nonASCII |= UInt64(base[index])
                index += 1
            }
            return false
        }
        if found { return true }
        if nonASCII & highs == 0 { return false }
        return containsFoldingHazard(value) ? nil : false
    }

    /// Whether `value` holds a scalar whose case folding contains ASCII.
    private static func containsFoldingHazard(_ value: UnsafeRawBufferPointer) -> Bool {
        guard let bytes = value.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return false }
        // Most values are ASCII: eight bytes at a time.
        var word = 0
        while word + 8 <= value.count {
            if value.loadUnaligned(fromByteOffset: word, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { break }
            word += 8
        }
        let table = hazards
        let leads = hazardLeads
        var index = word
        while index < value.count {
            let byte = bytes[index]
            if byte < 0x80 {
                index += 1
                continue
            }
            let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
            // A lead byte no hazard of the first two planes starts (an emoji's F0 9F, most
            // accented letters' C3 among them only where the bitmap says): skipped undecoded.
            if leads[Int(byte)] == 0,
                byte < 0xF0 || (byte == 0xF0 && index + 1 < value.count && bytes[index + 1] < 0xA0)
            {
                index += length
                continue
            }
            // Decode the scalar (the value is a stored String: valid UTF-8).
            guard index + length <= value.count else { return true }
            var scalar = UInt32(byte) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
            for offset in 1..<length { scalar = scalar << 6 | UInt32(bytes[index + offset] & 0x3F) }
            if scalar >= 0x20000 {
                if Unicode.Scalar(scalar)?.properties.changesWhenCaseFolded ?? true { return true }
            } else if table[Int(scalar >> 6)] & (1 << (scalar & 63)) != 0 {
                return true
            }
            index += length
        }
        return false
    }

    /// For each byte, 1 when it is the UTF-8 lead byte of a scalar in ``hazards``.
    private static let hazardLeads: [UInt8] = {
        var leads = [UInt8](repeating: 0, count: 256)
        for value in UInt32(0x80)..<0x20000 where hazards[Int(value >> 6)] & (1 << (value & 63)) != 0 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            leads[Int(Array(String(Character(scalar)).utf8)[0])] = 1
        }
        return leads
    }()

    /// The scalars of the first two planes whose `[c]` folding holds an ASCII character: a bit
    /// each, so an emoji (plane 1) costs a lookup, not a Unicode property query per value.
    private static let hazards: [UInt64] = {
        var found = [UInt64](repeating: 0, count: 0x20000 / 64)
        for value in UInt32(0x80)..<0x20000 {
            guard let scalar = Unicode.Scalar(value),
                scalar.properties.changesWhenCaseFolded
                    || scalar.properties.changesWhenLowercased
            else { continue }
            if QueryText.fold(String(Character(scalar)), .caseInsensitive).utf8.contains(where: { $0 < 0x80 }) {
                found[Int(value >> 6)] |= 1 << (value & 63)
            }
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
