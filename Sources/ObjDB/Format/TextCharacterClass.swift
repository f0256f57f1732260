import Foundation

/// What a Unicode scalar is to the full-text tokenizer: its UAX #29 word-break class, narrowed to
/// the classes that decide where a token starts and ends, and how it folds.
///
/// The classes come from the standard library's Unicode properties (so they follow the toolchain's
/// Unicode version), worked out once per process for the Basic Multilingual Plane into a 64 KiB
/// table, and on the fly above it.
enum TextCharacterClass: UInt8 {
    /// Not part of a token: spaces, punctuation, symbols, emoji.
    case other = 0
    /// A letter (UAX #29 `ALetter`, `Hebrew_Letter`): Latin, Greek, Cyrillic, Arabic, Indic, …
    case letter
    /// A decimal digit (`Numeric`).
    case numeric
    /// `_` and other connector punctuation (`ExtendNumLet`): joins what it touches.
    case extendNumLet
    /// `:` `·` (`MidLetter`): inside a word between two letters.
    case midLetter
    /// `.` (`MidNumLet`): inside a word between two letters or two digits.
    case midNumLet
    /// `,` `;` (`MidNum`): inside a number between two digits.
    case midNum
    /// Combining marks, format characters, ZWJ (`Extend`, `Format`): belong to what precedes them.
    case extend
    /// Ideographs, Hiragana, Katakana, Hangul and the scripts written without spaces (Thai, Lao,
    /// Khmer, Myanmar): indexed as overlapping pairs of characters.
    case cjk

    /// Whether the class starts or continues a word.
    @inline(__always)
    var isWordCharacter: Bool { self == .letter || self == .numeric || self == .extendNumLet }

    /// The class of `value` (a Unicode scalar value).
    @inline(__always)
    static func of(_ value: UInt32) -> TextCharacterClass {
        if value < 0x10000 { return TextCharacterClass(rawValue: basicPlane[Int(value)])! }
        return compute(value)
    }

    /// The classes of the Basic Multilingual Plane, worked out once.
    nonisolated(unsafe) private static let basicPlane: UnsafeMutablePointer<UInt8> = {
        let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 0x10000)
        for value in 0..<UInt32(0x10000) { table[Int(value)] = compute(value).rawValue }
        return table
    }()

    /// The class of one scalar, from its Unicode properties.
    static func compute(_ value: UInt32) -> TextCharacterClass {
        switch value {
        case 0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39: return .numeric
        case 0x41...0x5A, 0x61...0x7A: return .letter
        case 0x5F, 0x202F: return .extendNumLet
        case 0x3A, 0xB7, 0x387, 0x55F, 0x5F4, 0x2027, 0xFE13, 0xFE55, 0xFF1A: return .midLetter
        case 0x2E, 0x2024, 0xFE52, 0xFF0E: return .midNumLet
        case 0x2C, 0x3B, 0x37E, 0x589, 0x60C, 0x60D, 0x66C, 0x7F8, 0x2044, 0xFE10, 0xFE14, 0xFE50, 0xFE54, 0xFF0C,
            0xFF1B:
            return .midNum
        // Apostrophes split words, as in SQLite's unicode61 and Realm: "Swift’s" is "swift", "s".
        case 0x27, 0x2018, 0x2019, 0xFF07: return .other
        case 0x200B, 0x200C: return .other
        default: break
        }
        if value < 0x80 { return .other }
        guard let scalar = Unicode.Scalar(value) else { return .other }
        let properties = scalar.properties
        if isSpacelessScript(value) || properties.isIdeographic {
            // Marks of these scripts stay with their base character, as any mark does.
            if properties.isGraphemeExtend || properties.generalCategory == .spacingMark { return .extend }
            return .cjk
        }
        let category = properties.generalCategory
        if properties.isGraphemeExtend || category == .spacingMark || properties.isEmojiModifier || category == .format
        {
            return .extend
        }
        switch category {
        case .connectorPunctuation: return .extendNumLet
        case .decimalNumber: return .numeric
        default: break
        }
        return properties.isAlphabetic ? .letter : .other
    }

    /// Hiragana, Katakana, Hangul, CJK ideographs and the scripts written without spaces
    /// between words (UAX #29's `Complex_Context`).
    private static func isSpacelessScript(_ value: UInt32) -> Bool {
        switch value {
        case 0x0E00...0x0EFF,  // Thai, Lao
            0x1000...0x109F,  // Myanmar
            0x1780...0x17FF, 0x19E0...0x19FF,  // Khmer
            0x1100...0x11FF,  // Hangul Jamo
            0x2E80...0x2FDF,  // CJK radicals
            0x3005...0x3007, 0x3021...0x3029, 0x3031...0x3035, 0x303B, 0x303C,
            0x3040...0x30FF,  // Hiragana, Katakana
            0x3130...0x318F,  // Hangul compatibility Jamo
            0x31F0...0x31FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA960...0xA97F, 0xAC00...0xD7FF,  // Hangul
            0xF900...0xFAFF, 0xFF66...0xFF9F, 0xFFA0...0xFFDC,
            0x1B000...0x1B16F, 0x20000...0x3FFFF:
            return true
        default:
            return false
        }
    }
}
