/// What kind of text a full-text token came from.
enum TextTokenKind: UInt8 {
    /// A word (UAX #29): `swift`, `cafe`, `3.14`, `foo_bar`.
    case word
    /// A hashtag or a mention, with its sigil: `#swiftlang`, `@jack`.
    case tag
    /// A link, whole: `https://t.co/abc123`.
    case url
    /// Two neighbouring characters of a CJK (or Thai, …) run: `東京`.
    case pair
    /// A run of one CJK character: `東`.
    case single
    /// The last character of a run of two or more, at the position of the run's last pair, so a
    /// one-character search finds it as a prefix.
    case trailing
}

/// Splits text into the tokens of a full-text index (see docs/FORMAT.md, "Full-text tokens").
///
/// The tokenizer works on UTF-8 bytes and scalar values, with a stack buffer for each token: no
/// allocation per token. Each token is folded (lowercase, generic diacritics dropped: ``TextFolding``),
/// cut at ``maximumLength`` bytes on a scalar boundary, and numbered by position (a run's trailing
/// single character shares the position of the run's last pair).
///
/// - Words follow UAX #29's word boundaries (`don` `t` aside: apostrophes split words).
/// - `#` or `@` not inside a word, followed by letters, digits, `_` or CJK, is a hashtag or mention.
/// - `http://`, `https://` and `www.` not inside a word start a link, which runs to the next space
///   (or `<`, `>`, `"`), less trailing punctuation.
/// - Runs of CJK and other spaceless scripts are indexed as overlapping pairs.
enum TextTokenizer {
    /// The longest token, in bytes of UTF-8; longer ones are cut at a scalar boundary.
    static let maximumLength = 128

    /// Calls `body` with each token of `text` (UTF-8), its position and its kind. With `forQuery`, a
    /// CJK run gives its pairs only (a one-character run still gives its single character).
    static func forEachToken(
        in text: UnsafeRawBufferPointer, forQuery: Bool = false,
        _ body: (_ token: UnsafeRawBufferPointer, _ position: Int, _ kind: TextTokenKind) throws -> Void
    ) rethrows {
        guard let base = text.baseAddress?.assumingMemoryBound(to: UInt8.self), !text.isEmpty else { return }
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximumLength + 2 * unitLength) { scratch in
            var scanner = Scanner(
                bytes: base, count: text.count, output: scratch.baseAddress!, forQuery: forQuery)
            try scanner.run(body)
        }
    }

    /// The most bytes one CJK character with its marks keeps.
    static let unitLength = 32

    /// The scan over one text.
    private struct Scanner {
        let bytes: UnsafePointer<UInt8>
        let count: Int
        /// The token being built, then the two CJK characters of a pair.
        let output: UnsafeMutablePointer<UInt8>
        let forQuery: Bool
        var position = 0

        init(bytes: UnsafePointer<UInt8>, count: Int, output: UnsafeMutablePointer<UInt8>, forQuery: Bool) {
            self.bytes = bytes
            self.count = count
            self.output = output
            self.forQuery = forQuery
        }

        typealias Body = (UnsafeRawBufferPointer, Int, TextTokenKind) throws -> Void

        mutating func run(_ body: Body) rethrows {
            var index = 0
            // Whether the scalar before `index` (marks aside) belonged to a token: a sigil or a link
            // there is inside a word (`joe@example.com`).
            var afterWord = false
            while index < count {
                let (value, length) = decode(at: index)
                let kind = TextCharacterClass.of(value)
                switch kind {
                case .letter, .numeric, .extendNumLet:
                    if !afterWord, value | 0x20 == 0x68 || value | 0x20 == 0x77, let end = try link(at: index, body) {
                        index = end
                    } else {
                        index = try word(at: index, body)
                    }
                    afterWord = true
                case .cjk:
                    index = try run(at: index, body)
                    afterWord = true
                case .extend:
                    index += length
                default:
                    if !afterWord, value == 0x23 || value == 0x40, let end = try tag(at: index, body) {
                        index = end
                        afterWord = true
                    } else {
                        index += length
                        afterWord = false
                    }
                }
            }
        }

        // MARK: Words

        /// A word from `start`, by UAX #29's rules WB4–WB13b; emitted when it holds a letter or digit.
        private mutating func word(at start: Int, _ body: Body) rethrows -> Int {
            var index = start
            var written = 0
            var full = false
            var last = TextCharacterClass.other
            var hasLetterOrDigit = false
            while index < count {
                let (value, length) = decode(at: index)
                let kind = TextCharacterClass.of(value)
                switch kind {
                case .extend:
                    append(value, &written, &full)
                case .letter, .numeric, .extendNumLet:
                    append(value, &written, &full)
                    if kind != .extendNumLet { hasLetterOrDigit = true }
                    last = kind
                case .midLetter, .midNumLet, .midNum:
                    let next = significantClass(after: index + length)
                    let joinsLetters = last == .letter && next == .letter && kind != .midNum
                    let joinsDigits = last == .numeric && next == .numeric && kind != .midLetter
                    guard joinsLetters || joinsDigits else {
                        return try finishWord(index, written, hasLetterOrDigit, body)
                    }
                    append(value, &written, &full)
                default:
                    return try finishWord(index, written, hasLetterOrDigit, body)
                }
                index += length
            }
            return try finishWord(index, written, hasLetterOrDigit, body)
        }

        private mutating func finishWord(_ end: Int, _ written: Int, _ hasLetterOrDigit: Bool, _ body: Body) rethrows
            -> Int
        {
            if hasLetterOrDigit, written > 0 {
                try body(UnsafeRawBufferPointer(start: output, count: written), position, .word)
                position += 1
            }
            return end
        }

        /// The class of the first scalar at or after `index` that is not a mark.
        private func significantClass(after index: Int) -> TextCharacterClass {
            var index = index
            while index < count {
                let (value, length) = decode(at: index)
                let kind = TextCharacterClass.of(value)
                if kind != .extend { return kind }
                index += length
            }
            return .other
        }

        // MARK: Hashtags, mentions and links

        /// A hashtag or mention whose sigil is at `start`, or `nil` when none starts there.
        private mutating func tag(at start: Int, _ body: Body) rethrows -> Int? {
            var index = start + 1
            guard index < count else { return nil }
            var written = 1
            var full = false
            output[0] = bytes[start]
            var hasLetterOrDigit = false
            while index < count {
                let (value, length) = decode(at: index)
                let kind = TextCharacterClass.of(value)
                guard kind.isWordCharacter || kind == .cjk || (kind == .extend && index > start + 1) else { break }
                if kind != .extendNumLet && kind != .extend { hasLetterOrDigit = true }
                append(value, &written, &full)
                index += length
            }
            guard hasLetterOrDigit else { return nil }
            try body(UnsafeRawBufferPointer(start: output, count: written), position, .tag)
            position += 1
            return index
        }

        /// A link starting at `start` (`http://`, `https://` or `www.`, in any case), or `nil`.
        private mutating func link(at start: Int, _ body: Body) rethrows -> Int? {
            let prefix: Int
            if hasPrefix("https://", at: start) {
                prefix = 8
            } else if hasPrefix("http://", at: start) {
                prefix = 7
            } else if hasPrefix("www.", at: start) {
                prefix = 4
            } else {
                return nil
            }
            var end = start + prefix
            while end < count {
                let (value, length) = decode(at: end)
                if value <= 0x20 || value == 0x3C || value == 0x3E || value == 0x22 || value == 0x7F
                    || Self.isSpace(value)
                {
                    break
                }
                end += length
            }
            let stop = end
            // Trailing punctuation belongs to the sentence, not the link.
            while end > start + prefix {
                var last = end - 1
                while last > start, bytes[last] & 0xC0 == 0x80 { last -= 1 }
                let (value, _) = decode(at: last)
                guard Self.isTrailingPunctuation(value) else { break }
                end = last
            }
            guard end > start + prefix else { return nil }
            var written = 0
            var full = false
            var index = start
            while index < end {
                let (value, length) = decode(at: index)
                append(value, &written, &full)
                index += length
            }
            try body(UnsafeRawBufferPointer(start: output, count: written), position, .url)
            position += 1
            return stop
        }

        private func hasPrefix(_ prefix: StaticString, at start: Int) -> Bool {
            let length = prefix.utf8CodeUnitCount
            guard count - start >= length else { return false }
            let expected = prefix.utf8Start
            for offset in 0..<length {
                let byte = bytes[start + offset]
                let folded = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
                if folded != expected[offset] { return false }
            }
            return true
        }

        private static func isSpace(_ value: UInt32) -> Bool {
            switch value {
            case 0x85, 0xA0, 0x1680, 0x2000...0x200B, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF: return true
            default: return false
            }
        }

        private static func isTrailingPunctuation(_ value: UInt32) -> Bool {
            switch value {
            case 0x2E, 0x2C, 0x3B, 0x3A, 0x21, 0x3F, 0x29, 0x5D, 0x7D, 0x27, 0x2019, 0x201D, 0x2026, 0x3001, 0x3002,
                0xFF0C, 0xFF01, 0xFF1F:
                return true
            default: return false
            }
        }

        // MARK: CJK runs

        /// A run of CJK (and other spaceless) characters from `start`, as overlapping pairs.
        private mutating func run(at start: Int, _ body: Body) rethrows -> Int {
            let previous = output + TextTokenizer.maximumLength
            var previousLength = 0
            var units = 0
            var index = start
            while index < count {
                let (value, length) = decode(at: index)
                guard TextCharacterClass.of(value) == .cjk else { break }
                // The character and the marks that follow it, folded into the pair's second half.
                let current = output + previousLength
                var written = 0
                var full = false
                appendUnit(value, current, &written, &full)
                index += length
                while index < count {
                    let (mark, markLength) = decode(at: index)
                    guard TextCharacterClass.of(mark) == .extend else { break }
                    appendUnit(mark, current, &written, &full)
                    index += markLength
                }
                units += 1
                if units >= 2 {
                    try body(UnsafeRawBufferPointer(start: output, count: previousLength + written), position, .pair)
                    position += 1
                    // The second half becomes the next pair's first (a forward copy: `current` lies after `output`).
                    for offset in 0..<written { output[offset] = current[offset] }
                }
                previous.update(from: output, count: written)
                previousLength = written
            }
            if units == 1 {
                try body(UnsafeRawBufferPointer(start: output, count: previousLength), position, .single)
                position += 1
            } else if units > 1, !forQuery {
                try body(UnsafeRawBufferPointer(start: previous, count: previousLength), position - 1, .trailing)
            }
            return index
        }

        private func appendUnit(
            _ value: UInt32, _ unit: UnsafeMutablePointer<UInt8>, _ written: inout Int, _ full: inout Bool
        ) {
            guard !full else { return }
            if let next = TextFolding.append(value, to: unit, count: written, limit: TextTokenizer.unitLength) {
                written = next
            } else {
                full = true
            }
        }

        // MARK: Bytes

        /// Appends `value`'s folding to the token, unless the token is full.
        @inline(__always)
        private func append(_ value: UInt32, _ written: inout Int, _ full: inout Bool) {
            guard !full else { return }
            if value < 0x80 {
                guard written < TextTokenizer.maximumLength else {
                    full = true
                    return
                }
                let byte = UInt8(truncatingIfNeeded: value)
                output[written] = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
                written += 1
                return
            }
            if let next = TextFolding.append(value, to: output, count: written, limit: TextTokenizer.maximumLength) {
                written = next
            } else {
                full = true
            }
        }

        /// The scalar value at `index` and its length in bytes; a malformed sequence reads as
        /// U+FFFD, one byte long.
        @inline(__always)
        func decode(at index: Int) -> (UInt32, Int) {
            let first = UInt32(bytes[index])
            if first < 0x80 { return (first, 1) }
            let rest = count - index
            if first >= 0xC2, first < 0xE0, rest >= 2 {
                let second = UInt32(bytes[index + 1])
                if second & 0xC0 == 0x80 { return ((first & 0x1F) << 6 | (second & 0x3F), 2) }
            } else if first >= 0xE0, first < 0xF0, rest >= 3 {
                let second = UInt32(bytes[index + 1])
                let third = UInt32(bytes[index + 2])
                if second & 0xC0 == 0x80, third & 0xC0 == 0x80 {
                    let value = (first & 0x0F) << 12 | (second & 0x3F) << 6 | (third & 0x3F)
                    if value >= 0x800, value < 0xD800 || value > 0xDFFF { return (value, 3) }
                }
            } else if first >= 0xF0, first < 0xF5, rest >= 4 {
                let second = UInt32(bytes[index + 1])
                let third = UInt32(bytes[index + 2])
                let fourth = UInt32(bytes[index + 3])
                if second & 0xC0 == 0x80, third & 0xC0 == 0x80, fourth & 0xC0 == 0x80 {
                    let value = (first & 0x07) << 18 | (second & 0x3F) << 12 | (third & 0x3F) << 6 | (fourth & 0x3F)
                    if value >= 0x10000, value < 0x110000 { return (value, 4) }
                }
            }
            return (0xFFFD, 1)
        }
    }
}
