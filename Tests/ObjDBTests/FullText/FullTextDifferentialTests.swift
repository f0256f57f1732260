import Foundation
import ObjDBInspection
import TestSupport
import Testing

@testable import ObjDB

/// Full-text search against a naive evaluator written without the tokenizer, on random documents
/// and queries; mutants of the evaluator (a changed tokenizer rule or operator) must disagree, so
/// the comparison is shown to catch such a change. And the index equals a rebuild after any
/// random sequence of writes.
@Suite("Full-text search: differential and property tests")
struct FullTextDifferentialTests {
    let directory = TemporaryDirectory()

    static let words = [
        "Swift", "swift", "SWIFT", "café", "Cafe", "CAFÉ", "naïve", "naive", "Zoë", "zoe", "ZOË", "actor", "actors",
        "async", "await", "concurrency", "Concurrent", "objc", "rust", "tea", "#swift", "#Swift", "@joe", "@Joe_x",
        "2024", "x",
    ]
    static let separators = [" ", " ", " ", ", ", "! ", " - ", " 🔥 ", "’s "]

    static func document(_ random: inout SeededGenerator) -> String {
        var text = ""
        for _ in 0..<Int.random(in: 0...9, using: &random) {
            text += words.randomElement(using: &random)! + separators.randomElement(using: &random)!
        }
        return text
    }

    static func query(_ random: inout SeededGenerator) -> String {
        var items: [String] = []
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let word = words.randomElement(using: &random)!
            switch Int.random(in: 0..<10, using: &random) {
            case 0, 1: items.append("-" + word)
            case 2, 3:
                let folded = Naive.fold(word)
                items.append(String(folded.prefix(Int.random(in: 1...max(1, folded.count), using: &random))) + "*")
            case 4: items.append("\"\(word) \(words.randomElement(using: &random)!)\"")
            default: items.append(word)
            }
        }
        return items.joined(separator: " ")
    }

    /// The evaluator the index is compared with: tokens by splitting on this alphabet's separators,
    /// folded by Foundation; each switch turns one rule off (a mutant).
    struct Naive {
        var foldsDiacritics = true
        var foldsCase = true
        var keepsSigils = true
        var excludes = true
        var prefixes = true
        var phrases = true
        var splitsApostrophes = true

        static func fold(_ text: String) -> String {
            text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
        }

        func normalize(_ word: String) -> String {
            var word = word
            if foldsDiacritics { word = word.folding(options: .diacriticInsensitive, locale: nil) }
            if foldsCase { word = word.lowercased() }
            if !keepsSigils, word.first == "#" || word.first == "@" { word.removeFirst() }
            return word
        }

        func tokens(_ text: String) -> [String] {
            let spaced = splitsApostrophes ? text.replacingOccurrences(of: "’", with: " ") : text
            return spaced.split { " ,!-🔥".contains($0) }.map { normalize(String($0)) }
                .filter { $0.contains { $0.isLetter || $0.isNumber } }
        }

        /// The search's items: (exclude, prefix, words).
        func items(_ query: String) -> [(excluded: Bool, prefix: Bool, words: [String])] {
            var result: [(Bool, Bool, [String])] = []
            var rest = Substring(query)
            while let first = rest.first {
                if first == " " {
                    rest = rest.dropFirst()
                    continue
                }
                var excluded = false
                if first == "-" {
                    excluded = true
                    rest = rest.dropFirst()
                }
                var item: Substring
                if rest.first == "\"" {
                    rest = rest.dropFirst()
                    item = rest.prefix { $0 != "\"" }
                    rest = rest.dropFirst(item.count + 1)
                } else {
                    item = rest.prefix { $0 != " " }
                    rest = rest.dropFirst(item.count)
                }
                var prefix = false
                if item.last == "*" {
                    prefix = prefixes
                    item = item.dropLast()
                }
                let words = tokens(String(item))
                if words.isEmpty { continue }
                result.append((excluded && excludes, prefix, words))
            }
            return result
        }

        func matches(_ query: String, _ text: String) -> Bool {
            let found = tokens(text)
            let items = self.items(query)
            if items.isEmpty { return false }
            func holds(_ item: (excluded: Bool, prefix: Bool, words: [String])) -> Bool {
                if item.words.count == 1 {
                    return found.contains { item.prefix ? $0.hasPrefix(item.words[0]) : $0 == item.words[0] }
                }
                if !phrases { return item.words.allSatisfy(found.contains) }
                guard found.count >= item.words.count else { return false }
                return (0...(found.count - item.words.count)).contains { start in
                    item.words.indices.allSatisfy { found[start + $0] == item.words[$0] }
                }
            }
            for item in items where !item.excluded && !holds(item) { return false }
            for item in items where item.excluded && holds(item) { return false }
            return true
        }
    }

    func seedStore(_ db: Database, _ random: inout SeededGenerator, count: Int) throws -> [Int64: String] {
        var documents: [Int64: String] = [:]
        try db.write { transaction in
            for id in 1...Int64(count) {
                let text = Self.document(&random)
                documents[id] = text
                let snippet = Snippet()
                snippet.id = id
                snippet.text = text
                snippet.plain = text
                try transaction.add(snippet)
            }
        }
        return documents
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func theIndexAgreesWithANaiveEvaluator(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let db = try fullTextStore(directory, name: "differential-\(seed).objdb")
        let documents = try seedStore(db, &random, count: 150)
        let snippets = try db.view().objects(Snippet.self)
        let naive = Naive()
        for _ in 0..<120 {
            let query = Self.query(&random)
            let expected = documents.filter { naive.matches(query, $0.value) }.keys.sorted()
            #expect(try snippets.filter("text TEXT %@", query).map(\.id) == expected, "\(query)")
            #expect(try snippets.filter("plain TEXT %@", query).map(\.id) == expected, "scan: \(query)")
            #expect(snippets.where { $0.text.matches(query) }.map(\.id) == expected, "where: \(query)")
        }
    }

    @Test func everyMutantOfTheEvaluatorDisagreesSomewhere() throws {
        var random = SeededGenerator(seed: 7)
        let db = try fullTextStore(directory)
        let documents = try seedStore(db, &random, count: 150)
        let snippets = try db.view().objects(Snippet.self)
        let queries = (0..<300).map { _ in Self.query(&random) }
        let answers = try queries.map { try snippets.filter("text TEXT %@", $0).map(\.id) }
        let mutants: [(String, Naive)] = [
            ("no diacritic folding", Naive(foldsDiacritics: false)), ("no case folding", Naive(foldsCase: false)),
            ("sigils dropped", Naive(keepsSigils: false)), ("exclusion ignored", Naive(excludes: false)),
            ("prefix read as a word", Naive(prefixes: false)), ("phrase read as words", Naive(phrases: false)),
            ("apostrophes kept", Naive(splitsApostrophes: false)),
        ]
        for (name, mutant) in mutants {
            let disagrees = zip(queries, answers).contains { query, answer in
                documents.filter { mutant.matches(query, $0.value) }.keys.sorted() != answer
            }
            #expect(disagrees, "the mutant '\(name)' agrees with the index on every query")
        }
        let faithful = zip(queries, answers).allSatisfy { query, answer in
            documents.filter { Naive().matches(query, $0.value) }.keys.sorted() == answer
        }
        #expect(faithful)
    }

    /// Each seed with a recent-segment limit of its own: folded at every write, often, now and
    /// then, and at the default.
    @Test(arguments: [(UInt64(11), 0), (12, 256), (13, 1024), (14, nil)] as [(UInt64, Int?)])
    func theIndexEqualsARebuildAfterAnyWrites(seed: UInt64, recentLimit: Int?) throws {
        var random = SeededGenerator(seed: seed)
        let db = try fullTextStore(directory, name: "property-\(seed).objdb", recentLimit: recentLimit)
        var model: [Int64: String] = [:]
        for _ in 0..<12 {
            try db.write { transaction in
                for _ in 0..<Int.random(in: 1...25, using: &random) {
                    let id = Int64.random(in: 1...40, using: &random)
                    switch Int.random(in: 0..<10, using: &random) {
                    case 0, 1:
                        if let snippet = transaction.object(ofType: Snippet.self, forPrimaryKey: id) {
                            try transaction.delete(snippet)
                            model[id] = nil
                        }
                    case 2, 3:
                        if let snippet = transaction.object(ofType: Snippet.self, forPrimaryKey: id) {
                            let text = Self.document(&random)
                            snippet.text = text
                            snippet.summary = Bool.random(using: &random) ? nil : Self.document(&random)
                            model[id] = text
                        }
                    case 4:
                        let page = Page()
                        page.slug = "page-\(id)"
                        page.body = Self.document(&random)
                        try transaction.add(page, update: .modified)
                    case 5:
                        if let page = transaction.object(ofType: Page.self, forPrimaryKey: "page-\(id)") {
                            try transaction.delete(page)
                        }
                    case 6:
                        let memo = Memo()
                        memo.body = Self.document(&random)
                        try transaction.add(memo)
                    default:
                        let snippet = Snippet()
                        snippet.id = id
                        snippet.text = Self.document(&random)
                        snippet.summary = Self.document(&random)
                        try transaction.add(snippet, update: .all)
                        model[id] = snippet.text
                    }
                }
            }
            #expect(try StoreCheck(database: db).problems() == [], "seed \(seed)")
        }
        let snippets = try db.view().objects(Snippet.self)
        for _ in 0..<40 {
            let query = Self.query(&random)
            let expected = model.filter { Naive().matches(query, $0.value) }.keys.sorted()
            #expect(try snippets.filter("text TEXT %@", query).map(\.id) == expected, "\(query)")
        }
    }

    @Test func theCheckFindsAPostingTheRecordsDoNotHold() throws {
        let db = try fullTextStore(directory)
        var random = SeededGenerator(seed: 5)
        _ = try seedStore(db, &random, count: 20)
        // Rewrite one record behind the index's back (an unindexed patch of the field's bytes).
        try db.write { transaction in
            let snippet = try #require(transaction.object(ofType: Snippet.self, forPrimaryKey: Int64(3)))
            snippet.text = "zebra"
        }
        let binding = try db.catalog.binding(named: "Snippet")
        let property = try #require(binding["text"])
        try db.catalog.environment.write { transaction in
            try transaction.removeAll(in: try #require(property.index))
            try transaction.removeAll(in: try #require(property.fullTextSegment?.database))
        }
        let problems = try StoreCheck(database: db).problems()
        #expect(problems.contains { $0.contains("'zebra' has no postings") })
        #expect(problems.contains { $0.contains("statistics") })
    }
}
