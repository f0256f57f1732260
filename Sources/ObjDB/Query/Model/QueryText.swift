import Foundation

/// String semantics shared by the evaluator and the tests' reference evaluator.
enum QueryText {
    /// `text` without the distinctions `options` ignores.
    static func fold(_ text: String, _ options: QueryStringOptions) -> String {
        var folding: String.CompareOptions = []
        if options.contains(.caseInsensitive) { folding.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { folding.insert(.diacriticInsensitive) }
        return folding.isEmpty ? text : text.folding(options: folding, locale: nil)
    }

    /// `LIKE`: `*` matches any run of characters, `?` exactly one (Unicode scalars).
    static func like(_ text: ArraySlice<Unicode.Scalar>, _ pattern: ArraySlice<Unicode.Scalar>) -> Bool {
        var text = text
        var pattern = pattern
        var star: (pattern: ArraySlice<Unicode.Scalar>, text: ArraySlice<Unicode.Scalar>)?
        while true {
            if let next = pattern.first, next == "*" {
                pattern = pattern.dropFirst()
                star = (pattern, text)
                continue
            }
            if let character = text.first {
                if let next = pattern.first, next == "?" || next == character {
                    pattern = pattern.dropFirst()
                    text = text.dropFirst()
                    continue
                }
                guard let resume = star, !resume.text.isEmpty else { return false }
                star = (resume.pattern, resume.text.dropFirst())
                pattern = resume.pattern
                text = resume.text.dropFirst()
                continue
            }
            return pattern.allSatisfy { $0 == "*" }
        }
    }
}
