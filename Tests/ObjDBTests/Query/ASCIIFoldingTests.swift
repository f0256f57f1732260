import Foundation
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
            let needle = ["swift", "sw", "s", "ft s", "#s", "@x", "kelvin", "ss", "xx", "t#", "fi", "n", "j", "t", "i"]
                .randomElement(
                    using: &random)!
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
}
