import Foundation
import Testing

/// Realm's string operators and their `[c]`, `[d]` and `[cd]` modifiers. Expected results come
/// from Foundation's own case and diacritic folding and a plain wildcard matcher.
@Suite("Query conformance: strings")
struct StringConformanceTests {
    static let equality: [ConformanceCase] = [
        .person("name == 'Ann'") { $0.name == "Ann" },
        .person("name == \"Ann\"") { $0.name == "Ann" },
        .person("name = 'Ann'") { $0.name == "Ann" },
        .person("name == 'ann'") { $0.name == "ann" },
        .person("name ==[c] 'ANN'") { same($0.name, "ANN", [.caseInsensitive]) },
        .person("name ==[c] 'HANA'") { same($0.name, "HANA", [.caseInsensitive]) },
        .person("name == [c] 'hAnA'") { same($0.name, "hAnA", [.caseInsensitive]) },
        .person("name != 'Ann'") { $0.name != "Ann" },
        .person("name !=[c] 'ann'") { !same($0.name, "ann", [.caseInsensitive]) },
        .person("name <> 'Bob'") { $0.name != "Bob" },
        .person("name ==[d] 'Emile'") { same($0.name, "Emile", [.diacriticInsensitive]) },
        .person("name ==[cd] 'EMILE'") { same($0.name, "EMILE", [.caseInsensitive, .diacriticInsensitive]) },
        .person("name == 'Emile'") { $0.name == "Emile" },
        .person("name == 'Émile'") { $0.name == "Émile" },
        .person("name ==[c] 'émile'") { same($0.name, "émile", [.caseInsensitive]) },
        .person("'Ann' == name") { $0.name == "Ann" },
        .person("name IN {'Ann', 'Bob', 'Zed'}") { ["Ann", "Bob", "Zed"].contains($0.name) },
        .person("name == ''") { $0.name.isEmpty },
        .person("nickname == 'Fay'") { $0.nickname == "Fay" },
        .person("nickname != 'Fay'") { $0.nickname != "Fay" },
        .person("nickname == nil") { $0.nickname == nil },
        .person("nickname != nil") { $0.nickname != nil },
        .person("nickname ==[c] 'hana'") { $0.nickname.map { same($0, "hana", [.caseInsensitive]) } ?? false },
        .person("nickname ==[c] 'EMILE'") { $0.nickname.map { same($0, "EMILE", [.caseInsensitive]) } ?? false },
        .dog("breed ==[c] 'husky'") { $0.breed.map { same($0, "husky", [.caseInsensitive]) } ?? false },
        .dog("breed == 'Husky'") { $0.breed == "Husky" },
        .item("assignee ==[c] 'mia'") { $0.assignee.map { same($0, "mia", [.caseInsensitive]) } ?? false },
        .item("assignee == 'Ali'") { $0.assignee == "Ali" },
        .item("assignee != 'Ali'") { $0.assignee != "Ali" },
        .item("assignee == $0", .string("Sam")) { $0.assignee == "Sam" },
    ]

    static let substrings: [ConformanceCase] = [
        .person("name BEGINSWITH 'A'") { $0.name.hasPrefix("A") },
        .person("name BeGiNsWiTh 'A'") { $0.name.hasPrefix("A") },
        .person("name beginswith 'A'") { $0.name.hasPrefix("A") },
        .person("name BEGINSWITH[c] 'h'") { fold($0.name, [.caseInsensitive]).hasPrefix("h") },
        .person("name BEGINSWITH 'h'") { $0.name.hasPrefix("h") },
        .person("name BEGINSWITH[d] 'Em'") { fold($0.name, [.diacriticInsensitive]).hasPrefix("Em") },
        .person("name BEGINSWITH[cd] 'em'") {
            fold($0.name, [.caseInsensitive, .diacriticInsensitive]).hasPrefix("em")
        },
        .person("name BEGINSWITH 'Émi'") { $0.name.hasPrefix("Émi") },
        .person("name BEGINSWITH ''") { _ in true },
        .person("name ENDSWITH 'o'") { $0.name.hasSuffix("o") },
        .person("name ENDSWITH[c] 'N'") { fold($0.name, [.caseInsensitive]).hasSuffix("n") },
        .person("name ENDSWITH 'a'") { $0.name.hasSuffix("a") },
        .person("name CONTAINS 'mi'") { $0.name.contains("mi") },
        .person("name CONTAINS[c] 'MI'") { fold($0.name, [.caseInsensitive]).contains("mi") },
        .person("name contains 'n'") { $0.name.contains("n") },
        .person("name CONTAINS[d] 'Emi'") { fold($0.name, [.diacriticInsensitive]).contains("Emi") },
        .person("name CONTAINS 'zz'") { _ in false },
        .person("name CONTAINS ''") { _ in true },
        .person("name BEGINSWITH 'A' OR name ENDSWITH 'a'") { $0.name.hasPrefix("A") || $0.name.hasSuffix("a") },
        .person("NOT name CONTAINS 'i'") { !$0.name.contains("i") },
        .person("nickname BEGINSWITH 'A'") { $0.nickname?.hasPrefix("A") ?? false },
        .person("nickname CONTAINS[c] 'an'") {
            $0.nickname.map { fold($0, [.caseInsensitive]).contains("an") } ?? false
        },
        .person("nickname ENDSWITH[c] 'A'") {
            $0.nickname.map { fold($0, [.caseInsensitive]).hasSuffix("a") } ?? false
        },
        .dog("breed BEGINSWITH 'Lab'") { $0.breed?.hasPrefix("Lab") ?? false },
        .dog("breed CONTAINS ' '") { $0.breed?.contains(" ") ?? false },
        .dog("breed ENDSWITH[c] 'MIX'") { $0.breed.map { fold($0, [.caseInsensitive]).hasSuffix("mix") } ?? false },
        .item("name CONTAINS 'Write'") { $0.name.contains("Write") },
        .item("name BEGINSWITH[c] 'write'") { fold($0.name, [.caseInsensitive]).hasPrefix("write") },
        .item("assignee BEGINSWITH 'M'") { $0.assignee?.hasPrefix("M") ?? false },
        .person("best.name BEGINSWITH 'L'") { $0.best?.hasPrefix("L") ?? false },
        .person("best.breed CONTAINS[c] 'lab'") {
            $0.bestDog?.breed.map { fold($0, [.caseInsensitive]).contains("lab") } ?? false
        },
        .person("home.city BEGINSWITH 'L'") { $0.city?.hasPrefix("L") ?? false },
    ]

    static let patterns: [ConformanceCase] = [
        .person("name LIKE 'A*'") { like($0.name, "A*") },
        .person("name LIKE '?o?'") { like($0.name, "?o?") },
        .person("name LIKE '*i*'") { like($0.name, "*i*") },
        .person("name LIKE '*'") { like($0.name, "*") },
        .person("name LIKE '???'") { like($0.name, "???") },
        .person("name LIKE 'D*i'") { like($0.name, "D*i") },
        .person("name LIKE[c] 'H*'") { like(fold($0.name, [.caseInsensitive]), "h*") },
        .person("name LIKE '?mile'") { like($0.name, "?mile") },
        .person("name LIKE 'Ann'") { $0.name == "Ann" },
        .person("name LIKE 'an*'") { like($0.name, "an*") },
        .person("nickname LIKE '*a'") { $0.nickname.map { like($0, "*a") } ?? false },
        .dog("breed LIKE 'Lab*'") { $0.breed.map { like($0, "Lab*") } ?? false },
        .dog("breed LIKE[c] '*SKY'") { $0.breed.map { like(fold($0, [.caseInsensitive]), "*sky") } ?? false },
        .item("name LIKE '* *'") { like($0.name, "* *") },
    ]

    static let ordering: [ConformanceCase] = [
        .person("name < 'C'") { precedes($0.name, "C") },
        .person("name >= 'C'") { !precedes($0.name, "C") },
        .person("name > 'a'") { precedes("a", $0.name) },
        .person("name <= 'Bob'") { !precedes("Bob", $0.name) },
        .person("name BETWEEN {'B', 'D'}") { !precedes($0.name, "B") && !precedes("D", $0.name) },
        .dog("name > 'M'") { precedes("M", $0.name) },
    ]

    @Test(arguments: equality) func stringEquality(query: ConformanceCase) throws { try query.check() }
    @Test(arguments: substrings) func stringSubstrings(query: ConformanceCase) throws { try query.check() }
    @Test(arguments: patterns) func likePatterns(query: ConformanceCase) throws { try query.check() }
    @Test(arguments: ordering) func stringOrdering(query: ConformanceCase) throws { try query.check() }
}

/// `text` folded as Foundation folds case and diacritics.
func fold(_ text: String, _ options: String.CompareOptions) -> String {
    text.folding(options: options, locale: nil)
}

func same(_ text: String, _ other: String, _ options: String.CompareOptions) -> Bool {
    Array(fold(text, options).unicodeScalars) == Array(fold(other, options).unicodeScalars)
}

/// Whether `text` comes before `other` in the order of their UTF-8 bytes, as Realm orders strings.
func precedes(_ text: String, _ other: String) -> Bool {
    Array(text.utf8).lexicographicallyPrecedes(Array(other.utf8))
}

/// `LIKE`: `*` matches any run of characters and `?` one character.
func like(_ text: String, _ pattern: String) -> Bool {
    func match(_ text: ArraySlice<Unicode.Scalar>, _ pattern: ArraySlice<Unicode.Scalar>) -> Bool {
        guard let first = pattern.first else { return text.isEmpty }
        switch first {
        case "*":
            return (text.startIndex...text.endIndex).contains { match(text[$0...], pattern.dropFirst()) }
        case "?":
            return !text.isEmpty && match(text.dropFirst(), pattern.dropFirst())
        default:
            return text.first == first && match(text.dropFirst(), pattern.dropFirst())
        }
    }
    return match(Array(text.unicodeScalars)[...], Array(pattern.unicodeScalars)[...])
}
