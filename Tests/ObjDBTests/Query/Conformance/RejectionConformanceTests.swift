import Foundation
import Testing

/// Queries Realm rejects: ObjDB rejects them too, with a thrown error naming the problem and,
/// for a syntax error, its position (in Unicode scalars) in the predicate.
@Suite("Query conformance: rejected queries")
struct RejectionConformanceTests {
    static let syntax: [RejectedQuery] = [
        RejectedQuery("", at: 0, mentioning: "end of the predicate"),
        RejectedQuery("   ", at: 3, mentioning: "end of the predicate"),
        RejectedQuery("age >", at: 5, mentioning: "end of the predicate"),
        RejectedQuery("age > 30 AND", at: 12, mentioning: "end of the predicate"),
        RejectedQuery("(age > 30", at: 9, mentioning: "closing parenthesis"),
        RejectedQuery("age > 30)", at: 8, mentioning: "unexpected ')'"),
        RejectedQuery("((age > 30)", at: 11, mentioning: "closing parenthesis"),
        RejectedQuery("age > 30 & age < 40", at: 9, mentioning: "unexpected character '&'"),
        RejectedQuery("age > 30 | age < 40", at: 9, mentioning: "unexpected character '|'"),
        RejectedQuery("name == 'Ann", at: 8, mentioning: "unterminated string"),
        RejectedQuery("name == \"Ann", at: 8, mentioning: "unterminated string"),
        RejectedQuery("name CONTAINS[x] 'a'", at: 14, mentioning: "unknown modifier 'x'"),
        RejectedQuery("name CONTAINS[c 'a'", at: 16, mentioning: "']'"),
        RejectedQuery("age BETWEEN {1}", at: 0, mentioning: "BETWEEN needs a list of two values"),
        RejectedQuery("age BETWEEN {1, 2, 3}", at: 0, mentioning: "BETWEEN needs a list of two values"),
        RejectedQuery("age BETWEEN 5", at: 0, mentioning: "BETWEEN needs a list of two values"),
        RejectedQuery("age > %@", at: 6, mentioning: "%@ has no argument"),
        RejectedQuery("age > $1", .int(30), at: 6, mentioning: "$1 has no argument"),
        RejectedQuery("%K > 1", .int(5), at: 0, mentioning: "%K needs a key path"),
        RejectedQuery("$K0 > 1", .int(5), at: 0, mentioning: "needs a key path"),
        RejectedQuery("dogs.@foo > 1", at: 0, mentioning: "unknown aggregate @foo"),
        RejectedQuery("age === 30", at: 6, mentioning: "expected a key path or a value"),
        RejectedQuery("age >> 30", at: 5, mentioning: "expected a key path or a value"),
        RejectedQuery("age ! 3", at: 4, mentioning: "expected an operator"),
        RejectedQuery("age > 30 AND OR age < 40", at: 16, mentioning: "expected an operator"),
        RejectedQuery("NOTNOT(age > 1)", at: 6, mentioning: "expected an operator"),
        RejectedQuery("age > 30 age < 40", at: 9, mentioning: "unexpected 'age'"),
        RejectedQuery("'a' == 'b'", at: 0, mentioning: "needs a key path"),
        RejectedQuery("1 == 1", at: 0, mentioning: "needs a key path"),
        RejectedQuery("a..b == 1", at: 2, mentioning: "a property name after '.'"),
        RejectedQuery("name LIKE", at: 9, mentioning: "end of the predicate"),
        RejectedQuery("name BEGINSWITH", at: 15, mentioning: "end of the predicate"),
        RejectedQuery("age > {1, age}", at: 6, mentioning: "a list holds values"),
        RejectedQuery(
            String(repeating: "(", count: 101) + "age > 1" + String(repeating: ")", count: 101), at: 100,
            mentioning: "nests deeper than 100"),
        RejectedQuery(
            String(repeating: "NOT ", count: 101) + "age > 1", at: 400, mentioning: "nests deeper than 100"),
    ]

    static let schema: [RejectedQuery] = [
        RejectedQuery("nosuch == 1", at: nil, mentioning: "no property nosuch"),
        RejectedQuery("nosuch == 1", at: nil, mentioning: "no property nosuch (at position 0)"),
        RejectedQuery("best.nosuch == 1", at: nil, mentioning: "no property nosuch"),
        RejectedQuery("age.name == 1", at: nil, mentioning: "age is not a link"),
        RejectedQuery("ALL name == 'x'", at: nil, mentioning: "ALL needs a list"),
        RejectedQuery("NONE best.age > 3", at: nil, mentioning: "NONE needs a list"),
        RejectedQuery("age.@count > 1", at: nil, mentioning: "@count needs a"),
        RejectedQuery("tags.@sum > 1", at: nil, mentioning: "@sum needs a collection of numbers"),
        RejectedQuery("tags.@avg > 1", at: nil, mentioning: "@avg needs a collection of numbers"),
        RejectedQuery(.dog, "owners > 1", at: nil, mentioning: "compare owners.@count"),
        RejectedQuery(.dog, "owners == nil", at: nil, mentioning: "compare owners.@count"),
        RejectedQuery("5 IN age", at: nil, mentioning: "needs a collection"),
        RejectedQuery("age == 'old'", at: nil, mentioning: "age (int) cannot be compared with String"),
        RejectedQuery("name > 5", at: nil, mentioning: "name (string) cannot be compared with Int"),
        RejectedQuery("age ==[c] 3", at: nil, mentioning: "age (int) is not one"),
        RejectedQuery("dogs == 'Rex'", at: nil, mentioning: "dogs (object) cannot be compared with String"),
        RejectedQuery("isMember > true", at: nil, mentioning: "compares with == and != only"),
        RejectedQuery("best > %@", .dog("Rex"), at: nil, mentioning: "links compare with ==, != and IN only"),
        RejectedQuery("born > 5", at: nil, mentioning: "born (date) cannot be compared with Int"),
        RejectedQuery("key == 'abc'", at: nil, mentioning: "key (uuid) cannot be compared with String"),
        // Realm compares a string with data as its UTF-8 (`avatar BEGINSWITH 'a'` is accepted), not a number.
        RejectedQuery("avatar BEGINSWITH 5", at: nil, mentioning: "avatar (data) cannot be compared"),
        RejectedQuery("age LIKE '1*'", at: nil, mentioning: "age (int) cannot be compared with String"),
        RejectedQuery("best == 'Rex'", at: nil, mentioning: "best (object) cannot be compared with String"),
        RejectedQuery("home > 1", at: nil, mentioning: "home (embedded) cannot be compared"),
        // A map compares by its values (`scores == 1` is valid since #17's map queries), but not by text.
        RejectedQuery("scores BEGINSWITH 'a'", at: nil, mentioning: "BEGINSWITH compares strings"),
    ]

    /// Realm: "The keypath following 'ANY' must contain a list". A quantifier written on a key path
    /// that passes no collection (one value, or through to-one links) is rejected, on either side.
    static let quantifiedSingleValues: [RejectedQuery] = [
        RejectedQuery("ANY age > 3", at: nil, mentioning: "ANY needs a list, a set, a map or linking objects"),
        RejectedQuery("ANY age > 3", at: nil, mentioning: "but age is one value (at position 4)"),
        RejectedQuery("SOME name == 'Ann'", at: nil, mentioning: "but name is one value (at position 5)"),
        RejectedQuery("ALL age > 3", at: nil, mentioning: "ALL needs a list"),
        RejectedQuery("NONE nickname == nil", at: nil, mentioning: "NONE needs a list"),
        RejectedQuery("ANY best.name == 'Rex'", at: nil, mentioning: "but best.name is one value (at position 4)"),
        RejectedQuery("ALL best.age > 3", at: nil, mentioning: "but best.age is one value"),
        RejectedQuery("NONE home.city == 'Oslo'", at: nil, mentioning: "but home.city is one value"),
        RejectedQuery("age > 3 AND ANY isMember == true", at: nil, mentioning: "(at position 16)"),
        RejectedQuery("ANY age IN {27, 34}", at: nil, mentioning: "but age is one value"),
        RejectedQuery("ANY {27, 34} IN age", at: nil, mentioning: "age is one value"),
        RejectedQuery("NONE 'Ann' IN name", at: nil, mentioning: "but name is one value"),
        RejectedQuery("ANY name BEGINSWITH[c] 'a'", at: nil, mentioning: "but name is one value"),
        RejectedQuery("ANY name.length > 3", at: nil, mentioning: "is one value"),
        RejectedQuery("ANY best.age > age", at: nil, mentioning: "ANY needs a list"),
        RejectedQuery("ANY best.age > age", at: nil, mentioning: "but best.age is one value (at position 4)"),
        RejectedQuery("age == ANY height", at: nil, mentioning: "but height is one value (at position 11)"),
        RejectedQuery("age < ALL best.age", at: nil, mentioning: "ALL needs a list"),
        RejectedQuery("ANY 5 < age", at: nil, mentioning: "ANY needs a list"),
        RejectedQuery("ANY $0 == age", .int(34), at: nil, mentioning: "ANY needs a list"),
        RejectedQuery(.dog, "ANY owners.@count > 1", at: nil, mentioning: "ANY needs a list"),
        RejectedQuery(.item, "ANY allergens.@count > 1", at: nil, mentioning: "ANY needs a list"),
    ]

    @Test(arguments: syntax) func syntaxErrorsNameTheProblemAndPosition(query: RejectedQuery) throws {
        try query.check()
    }

    @Test(arguments: schema) func queriesThatDoNotFitTheSchemaAreRejected(query: RejectedQuery) throws {
        try query.check()
    }

    @Test(arguments: quantifiedSingleValues) func aQuantifierOnOneValueIsRejected(query: RejectedQuery) throws {
        try query.check()
    }
}
