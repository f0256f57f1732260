import Foundation

/// The constants of a string test with `[c]`/`[d]` or `LIKE`, folded once when compiled.
///
/// Case- and diacritic-insensitive tests fold each value as Foundation folds text; an ASCII
/// value is folded in a stack buffer instead (ASCII lowercase for `[c]`, unchanged for `[d]`),
/// which allocates nothing. That shortcut is taken only after checking, once, that Foundation
/// folds every ASCII character the same way.
struct TextConstant {
    let options: QueryStringOptions
    /// The folded constants' UTF-8: one, two for `BETWEEN`, or several sorted for `IN`.
    let constants: [[UInt8]]
    /// A `LIKE` pattern, folded, as Unicode scalars.
    let pattern: [Unicode.Scalar]
    /// The one `CONTAINS[c]` constant, when the ASCII byte scan can answer for it.
    let asciiNeedle: ASCIIFolding.Needle?

    init(options: QueryStringOptions, constants: [String], sorted: Bool) {
        self.options = options
        let folded = constants.map { Array(QueryText.fold($0, options).utf8) }
        self.constants = sorted ? Array(Set(folded)).sorted { $0.lexicographicallyPrecedes($1) } : folded
        self.pattern = []
        self.asciiNeedle =
            options == .caseInsensitive && self.constants.count == 1 ? ASCIIFolding.Needle(self.constants[0]) : nil
    }

    init(options: QueryStringOptions, likePattern: String) {
        self.options = options
        self.constants = []
        self.pattern = Array(QueryText.fold(likePattern, options).unicodeScalars)
        self.asciiNeedle = nil
    }

    /// `value op constants` after folding `value`.
    func matches(_ value: UnsafeRawBufferPointer, _ op: FieldTest.Operator) -> Bool {
        if op == .contains, let asciiNeedle, let found = ASCIIFolding.contains(value, asciiNeedle) {
            return found
        }
        return matchesFolding(value, op)
    }

    /// `value op constants`, folding `value` (for a value the ASCII scan left to folding).
    func matchesFolding(_ value: UnsafeRawBufferPointer, _ op: FieldTest.Operator) -> Bool {
        if Self.foldsASCII(options), Self.isASCII(value) {
            let lowercase = options.contains(.caseInsensitive)
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(value.count, 1)) { buffer in
                for index in 0..<value.count {
                    let byte = value[index]
                    buffer[index] = lowercase && byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
                }
                return compare(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[0..<value.count]), op)
            }
        }
        let folded = Array(QueryText.fold(String(decoding: value, as: UTF8.self), options).utf8)
        return folded.withUnsafeBytes { compare($0, op) }
    }

    /// Whether the folded value matches the `LIKE` pattern.
    func matchesLike(_ value: UnsafeRawBufferPointer) -> Bool {
        let text = QueryText.fold(String(decoding: value, as: UTF8.self), options)
        return QueryText.like(Array(text.unicodeScalars)[...], pattern[...])
    }

    private func compare(_ folded: UnsafeRawBufferPointer, _ op: FieldTest.Operator) -> Bool {
        switch op {
        case .oneOf:
            return constants.contains { constant in constant.withUnsafeBytes { ByteOrder.equal(folded, $0) } }
        case .between:
            guard constants.count == 2 else { return false }
            return constants[0].withUnsafeBytes { ByteOrder.compare(folded, $0) >= 0 }
                && constants[1].withUnsafeBytes { ByteOrder.compare(folded, $0) <= 0 }
        default:
            guard let constant = constants.first else { return false }
            return constant.withUnsafeBytes { ByteOrder.test(folded, op, $0) }
        }
    }

    @inline(__always)
    private static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        for byte in bytes where byte >= 0x80 { return false }
        return true
    }

    /// Whether Foundation folds ASCII as the shortcut does, for each combination of options.
    private static func foldsASCII(_ options: QueryStringOptions) -> Bool {
        switch options.rawValue {
        case 1: return asciiAgreement.caseInsensitive
        case 2: return asciiAgreement.diacriticInsensitive
        default: return asciiAgreement.both
        }
    }

    private static let asciiAgreement: (caseInsensitive: Bool, diacriticInsensitive: Bool, both: Bool) = {
        let ascii = String(String.UnicodeScalarView((0..<128).compactMap(Unicode.Scalar.init)))
        let lowered = Array(ascii.utf8).map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        func agrees(_ options: QueryStringOptions, _ expected: [UInt8]) -> Bool {
            Array(QueryText.fold(ascii, options).utf8) == expected
        }
        return (
            agrees(.caseInsensitive, lowered), agrees(.diacriticInsensitive, Array(ascii.utf8)),
            agrees([.caseInsensitive, .diacriticInsensitive], lowered)
        )
    }()
}
