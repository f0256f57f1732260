import Foundation
import TestSupport
import Testing

@testable import ObjDB

/// `../shared/fixtures` beside the checkout: real API payloads, never copied into the repository.
private let fixtureRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/fixtures")
private let fixturesPresent = FileManager.default.fileExists(atPath: fixtureRoot.path)

/// The tokenizer on the text of real Twitter, X v2 and NYT payloads, script by script.
@Suite(
    "Full-text tokens: real payloads",
    .enabled(if: fixturesPresent, "../shared/fixtures is absent: the real-payload tokenizer tests are skipped"))
struct FullTextFixtureTests {
    /// Every text of the payloads (tweets, bios, headlines, abstracts, lead paragraphs), with the
    /// hashtags, mentions and links their entities list.
    struct Sample {
        var text: String
        var hashtags: [String] = []
        var mentions: [String] = []
        var links: [String] = []
    }

    static func samples() throws -> [Sample] {
        var samples: [Sample] = []
        let files = FileManager.default.enumerator(atPath: fixtureRoot.path)?.compactMap { $0 as? String } ?? []
        for file in files.sorted() where file.hasSuffix(".json") {
            let data = try Data(contentsOf: fixtureRoot.appendingPathComponent(file))
            guard let root = try? JSONSerialization.jsonObject(with: data) else { continue }
            collect(root, into: &samples)
        }
        return samples
    }

    private static func collect(_ value: Any, into samples: inout [Sample]) {
        if let object = value as? [String: Any] {
            for key in ["full_text", "text", "description", "headline", "abstract", "lead_paragraph", "main"] {
                guard let text = object[key] as? String, !text.isEmpty else { continue }
                var sample = Sample(text: text)
                if let entities = object["entities"] as? [String: Any], key != "description" {
                    sample.hashtags = (entities["hashtags"] as? [[String: Any]] ?? []).compactMap {
                        $0["text"] as? String ?? $0["tag"] as? String
                    }
                    sample.mentions =
                        (entities["user_mentions"] as? [[String: Any]] ?? entities["mentions"] as? [[String: Any]] ?? [])
                        .compactMap { $0["screen_name"] as? String ?? $0["username"] as? String }
                    sample.links = (entities["urls"] as? [[String: Any]] ?? []).compactMap { $0["url"] as? String }
                }
                samples.append(sample)
            }
            for child in object.values { collect(child, into: &samples) }
        } else if let array = value as? [Any] {
            for child in array { collect(child, into: &samples) }
        }
    }

    /// The script of a letter, as far as these tests tell scripts apart.
    static func script(_ scalar: Unicode.Scalar) -> String? {
        guard scalar.properties.isAlphabetic else { return nil }
        switch scalar.value {
        case 0x41...0x24F, 0x1E00...0x1EFF: return "Latin"
        case 0x370...0x3FF, 0x1F00...0x1FFF: return "Greek"
        case 0x400...0x52F: return "Cyrillic"
        case 0x0F00...0x0FFF: return "Tibetan"
        case 0x0C80...0x0CFF: return "Kannada"
        case 0x1400...0x167F: return "Canadian syllabics"
        case 0x3040...0x30FF, 0x3400...0x9FFF: return "CJK"
        default: return "other"
        }
    }

    /// What the tokenizer must give for a word of letters (and marks) only.
    static func expectedToken(_ word: String, script: String) -> String {
        guard ["Latin", "Greek", "Cyrillic"].contains(script) else { return word.lowercased() }
        let folded = word.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
        return folded.replacingOccurrences(of: "ς", with: "σ").replacingOccurrences(of: "ß", with: "ss")
    }

    @Test func everyWordOfEveryScriptIsAToken() throws {
        var checked: [String: Int] = [:]
        for sample in try Self.samples() {
            let found = Set(tokens(sample.text))
            for raw in sample.text.split(whereSeparator: { $0.isWhitespace }) {
                let word = raw.trimmingCharacters(in: CharacterSet(charactersIn: ".,!?:;\"()[]«»“”…'’‘-—"))
                let scalars = word.unicodeScalars
                guard let first = scalars.first, let script = Self.script(first), script != "CJK", script != "other",
                    scalars.allSatisfy({
                        Self.script($0) == script || $0.properties.generalCategory == .nonspacingMark
                            || $0.properties.generalCategory == .spacingMark
                    }), word.utf8.count < TextTokenizer.maximumLength
                else { continue }
                let expected = Self.expectedToken(word, script: script)
                #expect(found.contains(expected), "\(script) word '\(word)' in: \(sample.text)")
                checked[script, default: 0] += 1
            }
        }
        #expect(checked["Latin", default: 0] > 100)
        #expect(checked["Cyrillic", default: 0] > 0)
        print("full-text tokens: words checked per script: \(checked.sorted { $0.key < $1.key })")
    }

    @Test func cjkRunsGiveEveryNeighbouringPair() throws {
        var pairs = 0
        for sample in try Self.samples() {
            let found = Set(tokens(sample.text))
            // A hashtag or mention is one token, whatever its script.
            var scalars: [Unicode.Scalar] = []
            var inTag = false
            for scalar in sample.text.unicodeScalars {
                if scalar == "#" || scalar == "@" { inTag = true }
                if scalar.properties.isWhitespace { inTag = false }
                scalars.append(inTag ? " " : scalar)
            }
            for index in scalars.indices.dropLast() {
                let first = scalars[index]
                let second = scalars[index + 1]
                guard Self.script(first) == "CJK", Self.script(second) == "CJK" else { continue }
                let pair = String(String.UnicodeScalarView([first, second]))
                #expect(found.contains(pair), "pair '\(pair)' in: \(sample.text)")
                pairs += 1
            }
        }
        #expect(pairs > 50)
    }

    @Test func hashtagsMentionsAndLinksAreTokensAsTheEntitiesListThem() throws {
        var checked = 0
        for sample in try Self.samples() {
            let found = Set(tokens(sample.text))
            for tag in sample.hashtags where sample.text.contains("#" + tag) {
                #expect(
                    found.contains("#" + Self.expectedToken(tag, script: "Latin"))
                        || tag.unicodeScalars.contains { Self.script($0) != "Latin" }, "#\(tag)")
                checked += 1
            }
            for mention in sample.mentions where sample.text.contains("@" + mention) {
                #expect(found.contains("@" + mention.lowercased()), "@\(mention) in: \(sample.text)")
                checked += 1
            }
            for link in sample.links where sample.text.contains(link) {
                #expect(found.contains(link.lowercased()), "\(link) in: \(sample.text)")
                checked += 1
            }
        }
        #expect(checked > 20)
    }

    @Test func everyTokenIsFoldedAndShortEnough() throws {
        for sample in try Self.samples() {
            for token in tokens(sample.text) {
                #expect(!token.isEmpty && token.utf8.count <= TextTokenizer.maximumLength)
                #expect(token == token.lowercased() || token.contains("ς") == false, "\(token)")
                #expect(!token.unicodeScalars.contains { TextFolding.isGenericDiacritic($0.value) }, "\(token)")
            }
        }
    }

    @Test func aStoreOfThePayloadsFindsTheirWords() throws {
        let directory = TemporaryDirectory()
        let db = try fullTextStore(directory)
        let samples = try Self.samples()
        try db.write { transaction in
            for (offset, sample) in samples.enumerated() {
                let snippet = Snippet()
                snippet.id = Int64(offset)
                snippet.text = sample.text
                snippet.plain = sample.text
                try transaction.add(snippet)
            }
        }
        #expect(try StoreCheck(database: db).problems() == [])
        let snippets = try db.view().objects(Snippet.self)
        for (offset, sample) in samples.enumerated().filter({ $0.offset % 17 == 0 }) {
            guard let word = tokens(sample.text).first(where: { $0.count > 3 }) else { continue }
            let found = try snippets.filter("text TEXT %@", word).map(\.id)
            #expect(found.contains(Int64(offset)), "'\(word)'")
            #expect(try snippets.filter("plain TEXT %@", word).map(\.id) == found, "'\(word)'")
        }
    }
}
