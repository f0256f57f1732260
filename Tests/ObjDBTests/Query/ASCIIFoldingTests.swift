import Foundation
import TestSupport
import Testing

@testable import ObjDB

/// `CONTAINS[c]`'s byte scan answers as Foundation's folding does, at every offset and length,
/// or leaves the answer to it.
@Suite("CONTAINS[c]: the ASCII scan")
struct ASCIIFoldingTests {
    static let pieces = [
        "swift", "SWIFT", "Swi", "ft", "s", "w", " ", "#", "@", "x", "café", "\u{212A}elvin", "straße", "😀", "é", "K",
        "ſ", "ﬁ", "İ", "ẞ", "ŉ", "𝐀", "Ꭰ", "ǰ", "ẗ", "𠀀", "Ω", "ＳＷ",
    ]

    @Test func theScanAgreesWithFoundationsFolding() {
        var random = SeededGenerator(seed: 29)
        for _ in 0..<4000 {
            let value = (0..<Int.random(in: 0...24, using: &random)).map { _ in
                Self.pieces.randomElement(using: &random)!
            }.joined()
            let needle = [
                "swift", "sw", "s", "ft s", "#s", "@x", "kelvin", "ss", "xx", "t#", "fi", "n", "j", "t", "i",
                "swift swift", "ft swi", "kelvin sw", "abcdefghij s",
            ].randomElement(using: &random)!
            var bytes = value
            let answer = bytes.withUTF8 {
                ASCIIFolding.contains(UnsafeRawBufferPointer($0), caseInsensitively: Array(needle.utf8))
            }
            let expected = QueryText.fold(value, .caseInsensitive).contains(needle)
            if let answer {
                #expect(answer == expected, "'\(value)' CONTAINS[c] '\(needle)'")
            } else {
                #expect(value.unicodeScalars.contains { !$0.isASCII }, "'\(value)': only a non-ASCII value defers")
            }
        }
    }

    /// Values of every length up to 40 with one scalar that folds into ASCII at every place.
    static func valuesWithOneScalar(_ scalar: String) -> [String] {
        (0...40).flatMap { length in
            let filler = String(repeating: "abcdefghij", count: 5).prefix(length)
            return (0...length).map { place in
                String(filler.prefix(place)) + scalar + String(filler.dropFirst(place))
            }
        }
    }

    @Test(arguments: [("ſwift", "swift"), ("wiſ", "wis"), ("abﬁ", "abfi"), ("a\u{212A}", "ak"), ("ßt", "sst")])
    func aScalarThatFoldsIntoTheNeedleDefersWhereverItStands(text: String, needle: String) {
        // `ſ` folds to `s`, `ﬁ` to `fi`, the Kelvin sign to `k`, `ß` to `ss`: every value below
        // holds the needle once folded, the scalar at its start, its middle or its end.
        for value in Self.valuesWithOneScalar(text) {
            var bytes = value
            let answer = bytes.withUTF8 {
                ASCIIFolding.contains(UnsafeRawBufferPointer($0), caseInsensitively: Array(needle.utf8))
            }
            #expect(answer != false, "'\(value)' CONTAINS[c] '\(needle)' must not answer false")
        }
    }

    @Test(arguments: ["é", "😀", "ñ", "€"])
    func anAccentedLetterOrEmojiBesideAHazardsLeadIsAnsweredWithoutFoundation(scalar: String) {
        // `é` shares its lead byte with `ß` (which folds to `ss`), `😀` its with the scalars
        // beyond the first two planes: neither can meet `swift`, at any place of any length.
        for value in Self.valuesWithOneScalar(scalar) + Self.valuesWithOneScalar(scalar + "Swift") {
            var bytes = value
            let answer = bytes.withUTF8 {
                ASCIIFolding.contains(UnsafeRawBufferPointer($0), caseInsensitively: Array("swift".utf8))
            }
            #expect(answer == value.lowercased().contains("swift"), "'\(value)' CONTAINS[c] 'swift'")
        }
    }

    @Test func aScalarThatCannotFoldIntoTheNeedleIsAnsweredWithoutFoundation() {
        // The Kelvin sign folds to `k`, which `swift` lacks: the scan answers alone.
        for value in Self.valuesWithOneScalar("\u{212A}") {
            var bytes = value
            let answer = bytes.withUTF8 {
                ASCIIFolding.contains(UnsafeRawBufferPointer($0), caseInsensitively: Array("swift".utf8))
            }
            #expect(answer == false, "'\(value)' CONTAINS[c] 'swift'")
        }
        // `İ` folds to `i` and a combining dot: only a needle holding `i` can meet it.
        for value in Self.valuesWithOneScalar("İ") {
            var bytes = value
            let answer = bytes.withUTF8 {
                ASCIIFolding.contains(UnsafeRawBufferPointer($0), caseInsensitively: Array("abc".utf8))
            }
            #expect(answer == QueryText.fold(value, .caseInsensitive).contains("abc"), "'\(value)' CONTAINS[c] 'abc'")
        }
        var kelvin = "\u{212A}elvin"
        let answer = kelvin.withUTF8 {
            ASCIIFolding.contains(UnsafeRawBufferPointer($0), caseInsensitively: Array("kelvin".utf8))
        }
        #expect(answer == nil, "the Kelvin sign folds into `kelvin`: Foundation answers")
    }

    @Test func aFilterOfOneContainsAnswersAsTheSameTestBesideAnother() throws {
        // `text CONTAINS[c] 'x'` alone is scanned without the filter program's loop; beside
        // another test it runs in the loop. Both answer as Foundation's folding does.
        let directory = TemporaryDirectory()
        let db = try makeDatabase(directory)
        var random = SeededGenerator(seed: 31)
        let values = (0..<800).map { _ in
            (0..<Int.random(in: 0...30, using: &random)).map { _ in Self.pieces.randomElement(using: &random)! }
                .joined()
        }
        try db.write { transaction in
            for (index, value) in values.enumerated() { try transaction.add(makeTweet(Int64(index + 1), value)) }
        }
        let tweets = try db.view().objects(Tweet.self)
        for needle in ["swift", "sw", "s", "ft s", "kelvin", "ss", "fi", "swift swift", "ft swi"] {
            let expected = values.indices.filter { QueryText.fold(values[$0], .caseInsensitive).contains(needle) }
            let alone = try tweets.filter("text CONTAINS[c] %@", needle).map { Int($0.id) - 1 }
            let beside = try tweets.filter("text CONTAINS[c] %@ AND retweetCount >= 0", needle).map { Int($0.id) - 1 }
            #expect(alone == expected, "'\(needle)' alone")
            #expect(beside == expected, "'\(needle)' beside another test")
            #expect(try tweets.filter("text CONTAINS[c] %@", needle).count == expected.count)
        }
    }

    @Test func aFilterOfOneContainsOnAnOptionalStringFindsNoNil() throws {
        let directory = TemporaryDirectory()
        let db = try makeDatabase(directory)
        let values: [String?] = [nil, "Swift on Linux, a long enough value", "swift", nil, "no match here at all", ""]
        try db.write { transaction in
            for (index, value) in values.enumerated() {
                let object = Everything()
                object.int = index
                object.optionalString = value
                try transaction.add(object)
            }
        }
        let found = try db.view().objects(Everything.self).filter("optionalString CONTAINS[c] 'swift'")
            .sorted(byKeyPath: "int").map(\.int)
        #expect(found == [1, 2])
    }

    @Test func aQueryFindsTheNeedleFoldedFromAnyScalarAtAnyPlace() throws {
        let directory = TemporaryDirectory()
        let db = try makeDatabase(directory)
        let values = Self.valuesWithOneScalar("ſwift") + Self.valuesWithOneScalar("\u{212A}")
        try db.write { transaction in
            for (index, value) in values.enumerated() {
                try transaction.add(makeTweet(Int64(index + 1), value, by: nil))
            }
        }
        let expected = values.indices.filter { QueryText.fold(values[$0], .caseInsensitive).contains("swift") }
        let found = try db.view().objects(Tweet.self).filter("text CONTAINS[c] 'swift'").map { Int($0.id) - 1 }
        #expect(found == expected)
        #expect(!expected.isEmpty)
    }
}
