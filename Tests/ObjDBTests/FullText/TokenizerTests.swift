import Foundation
import Testing

@testable import ObjDB

/// What a full-text token is (docs/FORMAT.md, "Full-text tokens").
@Suite("Full-text tokens")
struct TokenizerTests {
    @Test func wordsAreFoldedToLowercaseWithoutDiacritics() {
        #expect(tokens("Café ZOË naïve Über façade") == ["cafe", "zoe", "naive", "uber", "facade"])
        #expect(tokens("Ελλάδα ΟΔΟΣ") == ["ελλαδα", "οδοσ"])
        #expect(tokens("Straße") == ["strasse"])
        #expect(tokens("e\u{301}te\u{301}") == ["ete"])
    }

    @Test func wordsFollowUnicodeWordBoundaries() {
        #expect(
            tokens("Hello, world! 3.14 1,000 foo_bar e.g.") == ["hello", "world", "3.14", "1,000", "foo_bar", "e.g"])
        #expect(tokens("state-of-the-art") == ["state", "of", "the", "art"])
        #expect(tokens("swift5 5g") == ["swift5", "5g"])
    }

    @Test func apostrophesSplitWords() {
        #expect(tokens("Swift’s don't") == ["swift", "s", "don", "t"])
    }

    @Test func hashtagsAndMentionsKeepTheirSigil() {
        #expect(tokens("#SwiftLang by @jack_d, #東京") == ["#swiftlang", "by", "@jack_d", "#東京"])
        #expect(tokens("joe@example.com a#b # @") == ["joe", "example.com", "a", "b"])
    }

    @Test func linksAreOneToken() {
        #expect(
            tokens("see https://t.co/AbC123, and www.Swift.org/blog.") == [
                "see", "https://t.co/abc123", "and", "www.swift.org/blog",
            ])
        #expect(tokens("(http://x.io/a?b=1&c=2)") == ["http://x.io/a?b=1&c=2"])
        #expect(tokens("http:// nothing") == ["http", "nothing"])
    }

    @Test func emojiAndSymbolsAreNotTokens() {
        #expect(tokens("🔥🔥 swift🚀 ❤️ 👩‍💻 $100 %") == ["swift", "100"])
    }

    @Test func cjkRunsArePairsWithTheirLastCharacter() {
        #expect(tokens("東京都に行く") == ["東京", "京都", "都に", "に行", "行く", "く"])
        #expect(tokens("東京都", forQuery: true) == ["東京", "京都"])
        #expect(tokens("東 tower") == ["東", "tower"])
        #expect(tokens("한국어 텍스트") == ["한국", "국어", "어", "텍스", "스트", "트"])
        #expect(tokens("ภาษาไทย").count == 7)
    }

    @Test func positionsCountTokensAndTheTrailingCharacterSharesThePairs() {
        var positions: [Int] = []
        var copy = "a 東京都 b"
        copy.withUTF8 { bytes in
            TextTokenizer.forEachToken(in: UnsafeRawBufferPointer(bytes)) { _, position, _ in positions.append(position)
            }
        }
        #expect(positions == [0, 1, 2, 2, 3])
    }

    @Test func longTokensAreCutAtAScalarBoundary() {
        let long = String(repeating: "é", count: 100)
        let token = tokens(long)[0]
        #expect(token.utf8.count <= TextTokenizer.maximumLength)
        #expect(token == String(repeating: "e", count: 100))
        let wide = String(repeating: "ж", count: 100)
        #expect(tokens(wide)[0] == String(repeating: "ж", count: 64))
    }

    @Test func malformedUTF8NeverCrashes() {
        let bytes: [UInt8] = [0x61, 0xFF, 0xC3, 0x28, 0xE2, 0x82, 0x62, 0xF0, 0x9F, 0x63]
        var found: [String] = []
        bytes.withUnsafeBytes { buffer in
            TextTokenizer.forEachToken(in: buffer) { token, _, _ in found.append(String(decoding: token, as: UTF8.self))
            }
        }
        #expect(found == ["a", "b", "c"] || !found.isEmpty)
    }

    @Test func searchTextParsesRealmsSyntaxAndPhrases() {
        let search = TextSearch("Swift -objc conc* \"exact  Phrase\" -\"old stuff\" 東")
        #expect(
            search.required.map { $0.terms.map { String(decoding: $0.token, as: UTF8.self) } } == [
                ["swift"], ["conc"], ["exact", "phrase"], ["東"],
            ])
        #expect(search.required.map { $0.terms.map(\.isPrefix) } == [[false], [true], [false, false], [true]])
        #expect(
            search.excluded.map { $0.terms.map { String(decoding: $0.token, as: UTF8.self) } } == [
                ["objc"], ["old", "stuff"],
            ])
        #expect(TextSearch("  - * !!").matchesNothing)
    }
}
