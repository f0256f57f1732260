/// The search text of a `TEXT` query, parsed: what every match must hold and what none may.
///
/// As in realm-core, the words are separated by spaces and all must be present (in any case, with
/// any diacritics); `-word` excludes; `word*` matches any word starting so. Beyond Realm,
/// `"several words"` must appear together, in that order. Each word is split into tokens as the
/// indexed text is (``TextTokenizer``): `full-text` is the phrase `full text`, `Swift’s` is `swift s`,
/// and a run of CJK characters is the phrase of its pairs (one character alone is a prefix).
///
/// Search text never fails to parse: an unclosed quote runs to the end, a lone `-` or `*` is
/// ignored. Text with nothing to search for matches nothing; with exclusions only, it matches
/// every value that has none of them.
struct TextSearch: Hashable, Sendable {
    /// One term of a phrase: a token, or any token starting with it.
    struct Term: Hashable, Sendable {
        var token: [UInt8]
        var isPrefix: Bool
    }

    /// Tokens that must appear at consecutive positions (one term: anywhere).
    struct Phrase: Hashable, Sendable {
        var terms: [Term]
    }

    /// The phrases every match holds.
    private(set) var required: [Phrase] = []
    /// The phrases no match holds.
    private(set) var excluded: [Phrase] = []
    /// The search text as written.
    let text: String

    /// The search as `explain()` shows it.
    var summary: String { "'\(text)'" }

    /// Whether the search matches nothing at all.
    var matchesNothing: Bool { required.isEmpty && excluded.isEmpty }

    init(_ text: String) {
        self.text = text
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            if Self.isSpace(scalars[index]) {
                index += 1
                continue
            }
            var isExcluded = false
            if scalars[index] == "-", index + 1 < scalars.count, !Self.isSpace(scalars[index + 1]) {
                isExcluded = true
                index += 1
            }
            var item = ""
            var isPrefix = false
            if scalars[index] == "\"" {
                index += 1
                while index < scalars.count, scalars[index] != "\"" {
                    item.unicodeScalars.append(scalars[index])
                    index += 1
                }
                index += 1
                if index < scalars.count, scalars[index] == "*" {
                    isPrefix = true
                    index += 1
                }
            } else {
                while index < scalars.count, !Self.isSpace(scalars[index]), scalars[index] != "\"" {
                    item.unicodeScalars.append(scalars[index])
                    index += 1
                }
                if item.unicodeScalars.last == "*" {
                    isPrefix = true
                    item.unicodeScalars.removeLast()
                }
            }
            guard let phrase = Self.phrase(item, isPrefix: isPrefix) else { continue }
            if isExcluded { excluded.append(phrase) } else { required.append(phrase) }
        }
    }

    /// The tokens of one search word or quoted phrase; `nil` when it has none.
    private static func phrase(_ text: String, isPrefix: Bool) -> Phrase? {
        var terms: [Term] = []
        var copy = text
        copy.withUTF8 { bytes in
            TextTokenizer.forEachToken(in: UnsafeRawBufferPointer(bytes), forQuery: true) { token, _, kind in
                terms.append(Term(token: Array(token), isPrefix: kind == .single))
            }
        }
        guard !terms.isEmpty else { return nil }
        // One CJK character alone is a prefix of the pairs it starts; inside a phrase it is itself.
        if terms.count > 1 { for index in terms.indices { terms[index].isPrefix = false } }
        // A prefix search cut at the longest token would match more than asked: it stays exact.
        if isPrefix, terms[terms.count - 1].token.count < TextTokenizer.maximumLength {
            terms[terms.count - 1].isPrefix = true
        }
        return Phrase(terms: terms)
    }

    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace
    }

    // MARK: Matching one value

    /// Whether the text `value` (UTF-8) matches: the evaluation of a record, without the index.
    func matches(_ value: UnsafeRawBufferPointer) -> Bool {
        if required.isEmpty && excluded.isEmpty { return false }
        let tokens = TokenList(value)
        for phrase in required where !tokens.contains(phrase) { return false }
        for phrase in excluded where tokens.contains(phrase) { return false }
        return true
    }
}

/// The tokens of one value, in order, for matching phrases against it.
struct TokenList {
    private var bytes: [UInt8] = []
    private var tokens: [(start: Int, count: Int, position: Int)] = []

    init(_ text: UnsafeRawBufferPointer) {
        TextTokenizer.forEachToken(in: text) { token, position, _ in
            tokens.append((bytes.count, token.count, position))
            bytes.append(contentsOf: token)
        }
    }

    /// The number of tokens (the value's length for ranking).
    var count: Int { tokens.count }

    /// Whether the phrase occurs: its first term somewhere, each next term one position further.
    func contains(_ phrase: TextSearch.Phrase) -> Bool {
        occurrences(of: phrase, stoppingAtFirst: true) > 0
    }

    /// How often the phrase occurs (its term frequency, as the index counts it).
    func occurrences(of phrase: TextSearch.Phrase, stoppingAtFirst: Bool = false) -> Int {
        guard let first = phrase.terms.first else { return 0 }
        var found = 0
        for token in tokens where matches(token, first) {
            var position = token.position
            var aligned = true
            for term in phrase.terms.dropFirst() {
                position += 1
                guard tokens.contains(where: { $0.position == position && matches($0, term) }) else {
                    aligned = false
                    break
                }
            }
            if aligned {
                found += 1
                if stoppingAtFirst { return found }
            }
        }
        return found
    }

    private func matches(_ token: (start: Int, count: Int, position: Int), _ term: TextSearch.Term) -> Bool {
        if term.isPrefix {
            guard token.count >= term.token.count else { return false }
        } else {
            guard token.count == term.token.count else { return false }
        }
        for offset in 0..<term.token.count where bytes[token.start + offset] != term.token[offset] { return false }
        return true
    }
}
