import Foundation
import Testing

/// `SORT(…)`, `DISTINCT(…)` and `LIMIT(n)` after a predicate, applied in the order written, as
/// Realm applies them. Expected orders are written out by hand from ``Seed`` (strings sort by
/// their UTF-8 bytes, `nil` first); where a tie would leave the order to the store, a second
/// sort key breaks it.
@Suite("Query conformance: ordering clauses")
struct OrderingConformanceTests {
    static let clauses: [ConformanceCase] = [
        .names(
            .person, "TRUEPREDICATE SORT(name ASC)",
            are: ["Ann", "Bob", "Cleo", "Dmitri", "Fay", "Gus", "hana", "Émile"], ordered: true),
        .names(
            .person, "TRUEPREDICATE SORT(name DESC)",
            are: ["Émile", "hana", "Gus", "Fay", "Dmitri", "Cleo", "Bob", "Ann"], ordered: true),
        .names(
            .person, "age > 20 SORT(age ASC, name ASC)", are: ["Bob", "hana", "Ann", "Émile", "Cleo", "Fay"],
            ordered: true),
        .names(
            .person, "age > 20 SORT(age DESC, name DESC)", are: ["Fay", "Cleo", "Émile", "Ann", "hana", "Bob"],
            ordered: true),
        .names(
            .person, "age > 20 sort(age ascending, name ASCENDING)",
            are: ["Bob", "hana", "Ann", "Émile", "Cleo", "Fay"], ordered: true),
        .names(
            .person, "age > 20 Sort(age Descending, name desc)", are: ["Fay", "Cleo", "Émile", "Ann", "hana", "Bob"],
            ordered: true),
        .names(
            .person, "TRUEPREDICATE SORT(height ASC, name ASC)",
            are: ["Bob", "hana", "Gus", "Fay", "Émile", "Ann", "Cleo", "Dmitri"], ordered: true),
        .names(
            .person, "TRUEPREDICATE SORT(best.age DESC, name ASC)",
            are: ["Gus", "Cleo", "hana", "Ann", "Émile", "Dmitri", "Bob", "Fay"], ordered: true),
        .names(
            .person, "TRUEPREDICATE SORT(home.city ASC, name ASC)",
            are: ["Bob", "Gus", "Cleo", "Fay", "Ann", "Dmitri", "Émile", "hana"], ordered: true),
        .names(.person, "age > 0 SORT(age ASC, name ASC) LIMIT(3)", are: ["Gus", "Dmitri", "Bob"], ordered: true),
        .names(.person, "age > 20 SORT(age ASC, name ASC) LIMIT(2)", are: ["Bob", "hana"], ordered: true),
        .names(.person, "age > 20 SORT(age ASC, name ASC) LIMIT ( 2 )", are: ["Bob", "hana"], ordered: true),
        .names(.person, "age > 20 SORT(age ASC) LIMIT(1)", are: ["Bob"], ordered: true),
        .names(.person, "TRUEPREDICATE LIMIT(4)", are: ["Ann", "Bob", "Cleo", "Dmitri"], ordered: true),
        .names(.person, "TRUEPREDICATE LIMIT(2)", are: ["Ann", "Bob"], ordered: true),
        .names(.person, "age > 20 LIMIT(0)", are: [], ordered: true),
        .names(.person, "TRUEPREDICATE LIMIT(100)", are: Seed.people.map(\.name)),
        .names(.person, "TRUEPREDICATE LIMIT(5) LIMIT(2)", are: ["Ann", "Bob"], ordered: true),
        .names(.person, "TRUEPREDICATE LIMIT(2) LIMIT(5)", are: ["Ann", "Bob"], ordered: true),
        .names(
            .person, "TRUEPREDICATE LIMIT(3) SORT(age DESC, name ASC)", are: ["Cleo", "Ann", "Bob"], ordered: true),
        .names(
            .person, "TRUEPREDICATE SORT(age ASC, name ASC) LIMIT(5) SORT(name DESC)",
            are: ["hana", "Gus", "Dmitri", "Bob", "Ann"], ordered: true),
        .names(
            .person, "TRUEPREDICATE DISTINCT(age) SORT(age ASC)",
            are: ["Gus", "Dmitri", "Bob", "Ann", "Cleo", "Fay"], ordered: true),
        .names(
            .person, "TRUEPREDICATE SORT(age ASC, name ASC) DISTINCT(age)",
            are: ["Gus", "Dmitri", "Bob", "Ann", "Cleo", "Fay"], ordered: true),
        .names(
            .person, "TRUEPREDICATE SORT(age DESC, name DESC) DISTINCT(age)",
            are: ["Fay", "Cleo", "Émile", "hana", "Dmitri", "Gus"], ordered: true),
        .names(.person, "TRUEPREDICATE DISTINCT(isMember) SORT(name ASC)", are: ["Ann", "Bob"], ordered: true),
        .names(
            .person, "TRUEPREDICATE DISTINCT(age, isMember) SORT(name ASC)",
            are: ["Ann", "Bob", "Cleo", "Dmitri", "Fay", "Gus", "hana"], ordered: true),
        .names(
            .person, "TRUEPREDICATE DISTINCT(age) DISTINCT(isMember) SORT(name ASC)", are: ["Ann", "Bob"],
            ordered: true),
        .names(
            .person, "TRUEPREDICATE SORT(age ASC, name ASC) DISTINCT(age) LIMIT(2)", are: ["Gus", "Dmitri"],
            ordered: true),
        .names(
            .person, "age > 20 && isMember == true SORT(age ASC, name ASC)", are: ["hana", "Ann", "Émile", "Cleo"],
            ordered: true),
        .names(
            .person, "age > 20 AND isMember == true OR age < 10 SORT(age DESC, name ASC)",
            are: ["Cleo", "Ann", "Émile", "hana", "Gus"], ordered: true),
        .names(
            .person, "age > $0 SORT(age ASC, name ASC) LIMIT(2)", .int(30), are: ["Ann", "Émile"], ordered: true),
        .names(
            .dog, "TRUEPREDICATE SORT(weight DESC)", are: ["Rex", "Luna", "Max", "Fido", "Bolt", "Pip"], ordered: true),
        .names(
            .dog, "breed != nil SORT(breed ASC)", are: ["Luna", "Rex", "Bolt", "Max", "Pip"], ordered: true),
        .names(.dog, "TRUEPREDICATE SORT(breed ASC, name ASC) LIMIT(2)", are: ["Fido", "Luna"], ordered: true),
        .names(
            .item, "TRUEPREDICATE SORT(priority DESC) LIMIT(3)", are: ["Write tests", "Ship release", "Fix bug"],
            ordered: true),
        .names(
            .item, "isComplete == true SORT(progressMinutes ASC)", are: ["Review PR", "Fix bug", "Write docs"],
            ordered: true),
        .names(
            .item, "TRUEPREDICATE SORT(name ASC) DISTINCT(assignee)",
            are: ["Fix bug", "Plan sprint", "Review PR", "Ship release", "Write docs"], ordered: true),
        .names(
            .project, "TRUEPREDICATE SORT(quota DESC) LIMIT(2)", are: ["Mercury", "Apollo"], ordered: true),
    ]

    static let rejected: [RejectedQuery] = [
        RejectedQuery("SORT(age ASC)", at: 4, mentioning: "expected an operator"),
        RejectedQuery("DISTINCT(age)", at: 8, mentioning: "expected an operator"),
        RejectedQuery("LIMIT(1)", at: 5, mentioning: "expected an operator"),
        RejectedQuery("age > 1 SORT(age)", at: 16, mentioning: "SORT needs ASC or DESC after age"),
        RejectedQuery("age > 1 SORT()", at: 13, mentioning: "SORT takes key paths"),
        RejectedQuery("age > 1 SORT", at: 12, mentioning: "SORT takes its arguments in parentheses"),
        RejectedQuery("age > 1 SORT age DESC", at: 13, mentioning: "SORT takes its arguments in parentheses"),
        RejectedQuery("age > 1 SORT(age ASC", at: 20, mentioning: "to close SORT(…), found the end"),
        RejectedQuery("age > 1 SORT(age ASC name DESC)", at: 21, mentioning: "expected ',' or ')' to close SORT"),
        RejectedQuery("age > 1 SORT(0 DESC)", at: 13, mentioning: "not the number 0"),
        RejectedQuery("age > 1 DISTINCT()", at: 17, mentioning: "DISTINCT takes key paths"),
        RejectedQuery("age > 1 DISTINCT", at: 16, mentioning: "DISTINCT takes its arguments in parentheses"),
        RejectedQuery("age > 1 DISTINCT(age name)", at: 21, mentioning: "to close DISTINCT"),
        RejectedQuery("age > 1 LIMIT", at: 13, mentioning: "LIMIT takes its arguments in parentheses"),
        RejectedQuery("age > 1 LIMIT()", at: 14, mentioning: "LIMIT takes a whole number"),
        RejectedQuery("age > 1 LIMIT(2", at: 15, mentioning: "to close LIMIT(…), found the end"),
        RejectedQuery("age > 1 LIMIT(-1)", at: 14, mentioning: "not the number -1"),
        RejectedQuery("age > 1 LIMIT(2.7)", at: 14, mentioning: "not the number 2.7"),
        RejectedQuery("age > 1 LIMIT(word)", at: 14, mentioning: "not 'word'"),
        RejectedQuery("age > 1 LIMIT(1, 1)", at: 15, mentioning: "to close LIMIT"),
        RejectedQuery("age > 1 SORT(nosuch ASC)", at: nil, mentioning: "cannot sort by nosuch"),
        RejectedQuery("age > 1 DISTINCT(nosuch)", at: nil, mentioning: "cannot distinct by nosuch"),
        RejectedQuery("age > 1 SORT(dogs ASC)", at: nil, mentioning: "dogs holds several values"),
    ]

    @Test(arguments: clauses) func sortDistinctAndLimitInTheString(query: ConformanceCase) throws {
        try query.check()
    }

    @Test(arguments: rejected) func badOrderingClausesAreRejected(query: RejectedQuery) throws {
        try query.check()
    }
}
