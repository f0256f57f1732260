import Foundation

/// How the full-text tokenizer folds a scalar that is not ASCII: lowercased, decomposed, with the
/// generic combining diacritics dropped, so `É` is `e`, `Ö` is `o`, `ß` is `ss` and `ς` is `σ`.
///
/// Only the combining marks of the generic blocks (U+0300–036F, 1AB0–1AFF, 1DC0–1DFF, 20D0–20FF,
/// FE20–FE2F: the accents of Latin, Greek and Cyrillic) are dropped; the marks that spell a letter
/// in Thai, Devanagari, Hebrew or Arabic stay. Fullwidth forms (U+FF00–FFEF) fold to their ASCII
/// and Katakana counterparts. Scalars from U+0080 to U+2FFF and the fullwidth forms are looked up
/// in a table built once per process; CJK and Hangul are left as they are; anything else is
/// lowercased as the standard library lowercases it.
enum TextFolding {
    /// Appends the UTF-8 of `value`'s folding to `output` at `count`, writing at most up to
    /// `limit`; returns the new count, or `nil` when it would pass the limit (nothing written).
    @inline(__always)
    static func append(
        _ value: UInt32, to output: UnsafeMutablePointer<UInt8>, count: Int, limit: Int
    ) -> Int? {
        if value < 0x3000 || (value >= 0xFF00 && value < 0xFFF0) {
            let index = value < 0x3000 ? Int(value) : Int(value - 0xFF00) + 0x3000
            let entry = table.entries[index]
            if entry & 0x8000_0000 == 0 {
                return entry == 0 ? count : appendScalar(entry, to: output, count: count, limit: limit)
            }
            var written = count
            let start = Int((entry >> 8) & 0xFFFF)
            for offset in 0..<Int(entry & 0xFF) {
                guard let next = appendScalar(table.pool[start + offset], to: output, count: written, limit: limit)
                else { return nil }
                written = next
            }
            return written
        }
        if (value >= 0x3040 && value < 0xA000) || (value >= 0xAC00 && value < 0xD800) || value >= 0x20000 {
            return appendScalar(value, to: output, count: count, limit: limit)
        }
        guard let scalar = Unicode.Scalar(value) else { return count }
        let lower = scalar.properties.lowercaseMapping.unicodeScalars
        var written = count
        for folded in lower {
            guard let next = appendScalar(folded.value, to: output, count: written, limit: limit) else { return nil }
            written = next
        }
        return written
    }

    /// Appends the UTF-8 of one scalar value.
    @inline(__always)
    static func appendScalar(_ value: UInt32, to output: UnsafeMutablePointer<UInt8>, count: Int, limit: Int) -> Int? {
        switch value {
        case 0..<0x80:
            guard count + 1 <= limit else { return nil }
            output[count] = UInt8(value)
            return count + 1
        case 0x80..<0x800:
            guard count + 2 <= limit else { return nil }
            output[count] = UInt8(0xC0 | (value >> 6))
            output[count + 1] = UInt8(0x80 | (value & 0x3F))
            return count + 2
        case 0x800..<0x10000:
            guard count + 3 <= limit else { return nil }
            output[count] = UInt8(0xE0 | (value >> 12))
            output[count + 1] = UInt8(0x80 | ((value >> 6) & 0x3F))
            output[count + 2] = UInt8(0x80 | (value & 0x3F))
            return count + 3
        default:
            guard count + 4 <= limit else { return nil }
            output[count] = UInt8(0xF0 | (value >> 18))
            output[count + 1] = UInt8(0x80 | ((value >> 12) & 0x3F))
            output[count + 2] = UInt8(0x80 | ((value >> 6) & 0x3F))
            output[count + 3] = UInt8(0x80 | (value & 0x3F))
            return count + 4
        }
    }

    /// The folding of one scalar, as scalar values (empty: the scalar is dropped). What the table holds.
    static func fold(_ value: UInt32) -> [UInt32] {
        guard let scalar = Unicode.Scalar(value) else { return [] }
        if isGenericDiacritic(value) { return [] }
        switch value {
        case 0xDF, 0x1E9E: return [0x73, 0x73]  // ß, ẞ: ss, as case folding has it
        case 0x3C2: return [0x3C3]  // final sigma
        default: break
        }
        let lower = scalar.properties.lowercaseMapping
        let decomposed =
            value >= 0xFF00
            ? lower.decomposedStringWithCompatibilityMapping : lower.decomposedStringWithCanonicalMapping
        var result: [UInt32] = []
        for folded in decomposed.unicodeScalars where !isGenericDiacritic(folded.value) {
            // A compatibility decomposition may give an uppercase ASCII letter (fullwidth Ａ is A).
            result.append(folded.value >= 0x41 && folded.value <= 0x5A ? folded.value | 0x20 : folded.value)
        }
        return result
    }

    /// Whether `value` is a combining mark of the generic diacritic blocks.
    static func isGenericDiacritic(_ value: UInt32) -> Bool {
        switch value {
        case 0x300...0x36F, 0x1AB0...0x1AFF, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0xFE20...0xFE2F: return true
        default: return false
        }
    }

    /// U+0000–2FFF then U+FF00–FFEF: a scalar value (0: dropped), or with the high bit set a
    /// run of `pool` (start in bits 8–23, length in bits 0–7).
    private struct Table {
        var entries: [UInt32] = []
        var pool: [UInt32] = []
    }

    private static let table: Table = {
        var table = Table()
        table.entries.reserveCapacity(0x3000 + 0xF0)
        for value in Array(0..<UInt32(0x3000)) + Array(0xFF00..<UInt32(0xFFF0)) {
            let folded = value < 0x80 ? [value >= 0x41 && value <= 0x5A ? value | 0x20 : value] : fold(value)
            if folded.count == 1, folded[0] != 0 {
                table.entries.append(folded[0])
            } else if folded.isEmpty {
                table.entries.append(0)
            } else {
                table.entries.append(0x8000_0000 | UInt32(table.pool.count) << 8 | UInt32(folded.count))
                table.pool += folded
            }
        }
        return table
    }()
}
