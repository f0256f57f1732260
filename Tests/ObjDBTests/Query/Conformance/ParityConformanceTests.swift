import Foundation
import Testing

// Realm's answers for the classes of issue #30, each checked against realm-core's query engine
// (src/realm/parser/driver.cpp and query_ast.cpp, query_expression.hpp, query_conditions.hpp) and
// its parser tests (test/test_parser.cpp), as named per suite. Expected results are computed from
// ``ParitySeed`` by those rules written out in Swift, never by running a query.

extension ParitySeed.Drinker {
    var photoValues: [ParitySeed.Photo] { photos.map(ParitySeed.photo) }
    var favoriteValues: [ParitySeed.Beer] { favorites.map(ParitySeed.beer) }
    var localBrewery: ParitySeed.Brewery? { local.map(ParitySeed.brewery) }
}

extension ParitySeed.Brewery {
    var beerValues: [ParitySeed.Beer] { beers.map(ParitySeed.beer) }
}

extension ParitySeed.Beer {
    var breweryValue: ParitySeed.Brewery? { brewery.map(ParitySeed.brewery) }
}

/// The average of integers; `nil` for none (Realm's `@avg` of an empty list is null).
func mean(_ values: [Int]) -> Double? {
    values.isEmpty ? nil : Double(values.reduce(0, +)) / Double(values.count)
}

/// Realm's length of a string in a list: its UTF-8 bytes, and 0 for `nil`
/// (`ColumnListElementLength` reads `StringData().size()`).
func elementLength(_ text: String?) -> Int { text?.utf8.count ?? 0 }

/// An aggregate of a list of values reached through a list of objects is worked out per object
/// (realm-core's `CollectionColumnAggregate` and `ColumnListSize` evaluate one value per link and
/// compare them as `ANY`); `ALL`, `NONE` and `ANY` over the values themselves range over every
/// value of every object (`ColumnsCollection::evaluate` gathers them into one list).
@Suite("Query conformance: values through a list of objects")
struct ValuesThroughObjectsConformanceTests {
    static let aggregates: [ParityCase] = [
        .drinker("photos.ratings.@count == 1") { $0.photoValues.contains { $0.ratings.count == 1 } },
        .drinker("photos.ratings.@count == 0") { $0.photoValues.contains { $0.ratings.isEmpty } },
        .drinker("photos.ratings.@count >= 3") { $0.photoValues.contains { $0.ratings.count >= 3 } },
        .drinker("photos.ratings.@size == 2") { $0.photoValues.contains { $0.ratings.count == 2 } },
        .drinker("photos.ratings.@sum > 8") { $0.photoValues.contains { $0.ratings.reduce(0, +) > 8 } },
        .drinker("photos.ratings.@sum == 0") { $0.photoValues.contains { $0.ratings.reduce(0, +) == 0 } },
        .drinker("photos.ratings.@max == 5") { $0.photoValues.contains { $0.ratings.max() == 5 } },
        .drinker("photos.ratings.@min < 2") { $0.photoValues.contains { ($0.ratings.min() ?? .max) < 2 } },
        .drinker("photos.ratings.@min == nil") { $0.photoValues.contains { $0.ratings.isEmpty } },
        .drinker("photos.ratings.@avg > 4.5") { $0.photoValues.contains { (mean($0.ratings) ?? 0) > 4.5 } },
        .drinker("photos.ratings.@avg == 3.5") { $0.photoValues.contains { mean($0.ratings) == 3.5 } },
        .drinker("1 == photos.ratings.@count") { $0.photoValues.contains { $0.ratings.count == 1 } },
        .drinker("photos.ratings.@count == $0", .int(2)) { $0.photoValues.contains { $0.ratings.count == 2 } },
        .brewery("beers.ratings.@count == 0") { $0.beerValues.contains { $0.ratings.isEmpty } },
        .brewery("beers.ratings.@sum >= 9") { $0.beerValues.contains { $0.ratings.reduce(0, +) >= 9 } },
        .brewery("beers.ratings.@max == 5") { $0.beerValues.contains { $0.ratings.max() == 5 } },
        .brewery("beers.brewery.ratings.@count == 1") {
            $0.beerValues.contains { $0.breweryValue?.ratings.count == 1 }
        },
        .beer("brewery.ratings.@count == 3") { $0.breweryValue?.ratings.count == 3 },
        .beer("brewery.ratings.@sum == 12") { $0.breweryValue.map { $0.ratings.reduce(0, +) == 12 } ?? false },
    ]

    static let quantified: [ParityCase] = [
        .drinker("ALL photos.ratings == 5") { $0.photoValues.flatMap(\.ratings).allSatisfy { $0 == 5 } },
        .drinker("ALL photos.ratings >= 3") { $0.photoValues.flatMap(\.ratings).allSatisfy { $0 >= 3 } },
        .drinker("NONE photos.ratings > 3") { !$0.photoValues.flatMap(\.ratings).contains { $0 > 3 } },
        .drinker("NONE photos.ratings == 2") { !$0.photoValues.flatMap(\.ratings).contains(2) },
        .drinker("ANY photos.ratings < 2") { $0.photoValues.flatMap(\.ratings).contains { $0 < 2 } },
        .drinker("photos.ratings == 4") { $0.photoValues.flatMap(\.ratings).contains(4) },
        .drinker("5 IN photos.ratings") { $0.photoValues.flatMap(\.ratings).contains(5) },
        .drinker("NOT ALL photos.ratings == 5") { !$0.photoValues.flatMap(\.ratings).allSatisfy { $0 == 5 } },
        .brewery("ALL beers.ratings > 2") { $0.beerValues.flatMap(\.ratings).allSatisfy { $0 > 2 } },
        .brewery("NONE beers.ratings == 1") { !$0.beerValues.flatMap(\.ratings).contains(1) },
        .drinker("ALL favorites.brewery.ratings >= 4") {
            $0.favoriteValues.compactMap(\.breweryValue).flatMap(\.ratings).allSatisfy { $0 >= 4 }
        },
    ]

    @Test(arguments: aggregates) func aggregatesAreWorkedOutPerObject(query: ParityCase) throws { try query.check() }
    @Test(arguments: quantified) func quantifiersRangeOverEveryValue(query: ParityCase) throws { try query.check() }
}

/// `.length` of a list of strings gives each element's length, a `nil` string's being 0 (realm-core's
/// `ColumnListElementLength` reads `StringData::size()`, 0 for null), compared as `ANY` unless
/// quantified; one optional string's length is `nil` when it is (`SizeOperator` sets null).
@Suite("Query conformance: lengths of lists of strings")
struct ListLengthConformanceTests {
    static let lengths: [ParityCase] = [
        .drinker("aliases.length == 0") { $0.aliases.contains { elementLength($0) == 0 } },
        .drinker("0 IN aliases.length") { $0.aliases.contains { elementLength($0) == 0 } },
        .drinker("aliases.length == 1") { $0.aliases.contains { elementLength($0) == 1 } },
        .drinker("aliases.length > 3") { $0.aliases.contains { elementLength($0) > 3 } },
        .drinker("ALL aliases.length > 0") { $0.aliases.allSatisfy { elementLength($0) > 0 } },
        .drinker("NONE aliases.length == 0") { !$0.aliases.contains { elementLength($0) == 0 } },
        .drinker("ANY aliases.length BETWEEN {1, 2}") { $0.aliases.contains { (1...2).contains(elementLength($0)) } },
        .drinker("aliases.length == $0", .int(0)) { $0.aliases.contains { elementLength($0) == 0 } },
        .drinker("aliases.@count == 2") { $0.aliases.count == 2 },
        .drinker("nickname.length == 0") { $0.nickname == "" },
        .drinker("nickname.length > 3") { ($0.nickname?.utf8.count ?? 0) > 3 },
        .photo("captions.length == 0") { $0.captions.contains { elementLength($0) == 0 } },
        .photo("ALL captions.length >= 4") { $0.captions.allSatisfy { elementLength($0) >= 4 } },
        .drinker("photos.captions.length == 0") {
            $0.photoValues.flatMap(\.captions).contains { elementLength($0) == 0 }
        },
    ]

    @Test(arguments: lengths) func aNilStringInAListHasLengthZero(query: ParityCase) throws { try query.check() }
}

/// `@links.@count` after a key path through links is one number: the links to every object the
/// path reaches, added up (realm-core's `BacklinkCount` evaluates `LinkMap::count_all_backlinks`,
/// which sums `Obj::get_backlink_count()` over the path's links, each list entry once).
@Suite("Query conformance: @links.@count through links")
struct BacklinkCountConformanceTests {
    static let counts: [ParityCase] = [
        .beer("@links.@count == 2") { ParitySeed.backlinkCount(ofBeer: $0.name) == 2 },
        .beer("@links.@count == 0") { ParitySeed.backlinkCount(ofBeer: $0.name) == 0 },
        .brewery("beers.@links.@count == 0") { $0.beers.map(ParitySeed.backlinkCount(ofBeer:)).reduce(0, +) == 0 },
        .brewery("beers.@links.@count == 9") { $0.beers.map(ParitySeed.backlinkCount(ofBeer:)).reduce(0, +) == 9 },
        .brewery("beers.@links.@count > 6") { $0.beers.map(ParitySeed.backlinkCount(ofBeer:)).reduce(0, +) > 6 },
        .brewery("beers.@links.@count == 3") { $0.beers.map(ParitySeed.backlinkCount(ofBeer:)).reduce(0, +) == 3 },
        .brewery("flagship.@links.@count >= 6") {
            ($0.flagship.map(ParitySeed.backlinkCount(ofBeer:)) ?? 0) >= 6
        },
        .drinker("favorites.@links.@count > 8") {
            $0.favorites.map(ParitySeed.backlinkCount(ofBeer:)).reduce(0, +) > 8
        },
        .drinker("favorites.@links.@count == 0") {
            $0.favorites.map(ParitySeed.backlinkCount(ofBeer:)).reduce(0, +) == 0
        },
        .drinker("local.@links.@count == 2") { ($0.local.map(ParitySeed.backlinkCount(ofBrewery:)) ?? 0) == 2 },
        .drinker("local.@links.@count == 0") { ($0.local.map(ParitySeed.backlinkCount(ofBrewery:)) ?? 0) == 0 },
        .drinker("photos.@links.@count == 4") { $0.photos.map(ParitySeed.backlinkCount(ofPhoto:)).reduce(0, +) == 4 },
        .drinker("photos.@links.@count >= $0", .int(3)) {
            $0.photos.map(ParitySeed.backlinkCount(ofPhoto:)).reduce(0, +) >= 3
        },
    ]

    @Test(arguments: counts) func theCountsOfTheObjectsReachedAddUp(query: ParityCase) throws { try query.check() }
}

/// Two lists compared without a quantifier on either side compare element by element, in order
/// (realm-core's `ValueBase::compare`: "Both lists and no ANY, NONE, ALL specified"), and `IN` is
/// `==` (`EqualityNode` compiles both to `Compare<Equal>`): `{4.5, 6.0} IN beers.abv` holds when the
/// beers' strengths are exactly those two, in that order. With `!=`, lists of one size must differ
/// at every position; lists of two sizes always differ.
@Suite("Query conformance: lists compared with constant lists")
struct ListEqualityConformanceTests {
    static let lists: [ParityCase] = [
        .brewery("{4.5, 5.6, 6.0} IN beers.abv") { $0.beerValues.map(\.abv) == [4.5, 5.6, 6.0] },
        .brewery("{4.5, 6.0} IN beers.abv") { $0.beerValues.map(\.abv) == [4.5, 6.0] },
        .brewery("{5.2, 5.2} IN beers.abv") { $0.beerValues.map(\.abv) == [5.2, 5.2] },
        .brewery("{3, 4, 5} IN ratings") { $0.ratings == [3, 4, 5] },
        .brewery("ratings == {3, 4, 5}") { $0.ratings == [3, 4, 5] },
        .brewery("ratings = {5, 4, 3}") { $0.ratings == [5, 4, 3] },
        .brewery("ratings IN {3, 4, 5}") { $0.ratings == [3, 4, 5] },
        .brewery("{3, 4, 5} == ratings") { $0.ratings == [3, 4, 5] },
        .brewery("ratings == {}") { $0.ratings.isEmpty },
        .brewery("ratings != {3, 4, 5}") {
            $0.ratings.count != 3 || zip($0.ratings, [3, 4, 5]).allSatisfy { $0 != $1 }
        },
        .brewery("ratings == $0", .list([.int(5), .int(4), .int(3)])) { $0.ratings == [5, 4, 3] },
        .brewery("ANY {4.5, 6.0} IN beers.abv") { $0.beerValues.contains { [4.5, 6.0].contains($0.abv) } },
        .brewery("ALL {3, 5} IN ratings") { [3, 5].allSatisfy($0.ratings.contains) },
        .brewery("NONE {1, 2} IN ratings") { ![1, 2].contains(where: $0.ratings.contains) },
        .brewery("ANY ratings IN {1, 3}") { $0.ratings.contains { [1, 3].contains($0) } },
        .beer("brewery.ratings = {3, 4, 5}") { $0.breweryValue?.ratings == [3, 4, 5] },
        // Through a nil link the list is empty (realm-core finds no list, so no values).
        .beer("brewery.ratings == {}") { ($0.breweryValue?.ratings ?? []).isEmpty },
        .beer("{5, 4, 3} IN brewery.ratings") { $0.breweryValue?.ratings == [5, 4, 3] },
        .drinker("favorites.abv == {4.5, 5.2}") { $0.favoriteValues.map(\.abv) == [4.5, 5.2] },
        .drinker("aliases == {'A', ''}") { $0.aliases == ["A", ""] },
        .drinker("aliases == {nil}") { $0.aliases == [nil] },
    ]

    @Test(arguments: lists) func twoListsCompareElementByElement(query: ParityCase) throws { try query.check() }
}

/// `NULL` in a string operator is the null string (realm-core's `StringConstantNode` with a string
/// hint). On a property of the object itself (`StringNode`), `BEGINSWITH`, `ENDSWITH` and `CONTAINS`
/// of the null string hold for every value, `nil` included, and `LIKE` only for `nil`; binary data
/// alike, except `CONTAINS[c]`, which holds for every value but `nil`. With the null string on the
/// left, or through a link or a list (`Compare` of `QueryValue`s), `LIKE` holds for `nil` only,
/// `CONTAINS` for every value but `nil`, and `BEGINSWITH` and `ENDSWITH` for none
/// (test_parser.cpp, Parser_StringOperations and Parser_NullableBinaries; query_conditions.hpp).
@Suite("Query conformance: string operators with NULL")
struct NullStringOperandConformanceTests {
    static let direct: [ParityCase] = [
        .drinker("nickname BEGINSWITH NULL") { _ in true },
        .drinker("nickname ENDSWITH NULL") { _ in true },
        .drinker("nickname CONTAINS NULL") { _ in true },
        .drinker("nickname LIKE NULL") { $0.nickname == nil },
        .drinker("nickname BEGINSWITH[c] NULL") { _ in true },
        .drinker("nickname CONTAINS[c] nil") { _ in true },
        .drinker("nickname LIKE[c] NULL") { $0.nickname == nil },
        .drinker("NOT nickname CONTAINS NULL") { _ in false },
        .drinker("nickname LIKE NULL OR nickname == 'evie'") { $0.nickname == nil || $0.nickname == "evie" },
        .drinker("avatar CONTAINS NULL") { _ in true },
        .drinker("avatar BEGINSWITH NULL") { _ in true },
        .drinker("avatar ENDSWITH[c] NULL") { _ in true },
        .drinker("avatar LIKE NULL") { $0.avatar == nil },
        .drinker("avatar CONTAINS[c] NULL") { $0.avatar != nil },
    ]

    static let leftOrThroughLinks: [ParityCase] = [
        .drinker("NULL LIKE nickname") { $0.nickname == nil },
        .drinker("NULL LIKE[c] nickname") { $0.nickname == nil },
        .drinker("NULL BEGINSWITH nickname") { _ in false },
        .drinker("NULL CONTAINS nickname") { _ in false },
        .drinker("NULL ENDSWITH[c] nickname") { _ in false },
        .drinker("NULL LIKE avatar") { $0.avatar == nil },
        .drinker("NULL CONTAINS avatar") { _ in false },
        .drinker("local.name CONTAINS NULL") { $0.local != nil },
        .drinker("local.name BEGINSWITH NULL") { _ in false },
        .drinker("local.name LIKE NULL") { $0.local == nil },
        .drinker("aliases CONTAINS NULL") { $0.aliases.contains { $0 != nil } },
        .drinker("aliases LIKE NULL") { $0.aliases.contains(nil) },
        .drinker("aliases BEGINSWITH NULL") { _ in false },
        .drinker("ALL aliases CONTAINS NULL") { $0.aliases.allSatisfy { $0 != nil } },
    ]

    @Test(arguments: direct) func onTheObjectsOwnString(query: ParityCase) throws { try query.check() }
    @Test(arguments: leftOrThroughLinks) func onTheLeftOrThroughLinks(query: ParityCase) throws { try query.check() }
}

/// A map key is any string, spaces included (realm-core's `path_elem: id '[' STRING ']'`, or a name
/// with `\ ` for each space); a missing key reads as `nil`.
@Suite("Query conformance: map keys")
struct MapKeyConformanceTests {
    static let keys: [ParityCase] = [
        .drinker("scores['second try'] == 42") { $0.scores["second try"] == 42 },
        .drinker("scores[\"second try\"] == 42") { $0.scores["second try"] == 42 },
        .drinker("scores['second  try'] == 42") { $0.scores["second  try"] == 42 },
        // Realm's names take `\ ` for a space (query_flex.ll's `ws`), so the key may follow a dot.
        .drinker("scores.second\\ try == 42") { $0.scores["second try"] == 42 },
        .drinker("scores.first\\ try >= 40 OR scores.math == 75") {
            ($0.scores["first try"] ?? 0) >= 40 || $0.scores["math"] == 75
        },
        .drinker("scores['second try'] != 42") { $0.scores["second try"] != 42 },
        .drinker("scores['first try'] < 20") { ($0.scores["first try"] ?? .max) < 20 },
        .drinker("scores['second try'] == nil") { $0.scores["second try"] == nil },
        .drinker("scores['math'] > 80") { ($0.scores["math"] ?? 0) > 80 },
        .drinker("scores['second try'] > scores['first try']") {
            guard let second = $0.scores["second try"], let first = $0.scores["first try"] else { return false }
            return second > first
        },
        .drinker("ANY scores.@keys == 'second try'") { $0.scores.keys.contains("second try") },
        .drinker("scores[$0] == 42", .string("second try")) { $0.scores["second try"] == 42 },
        .drinker("scores[$1] > $0", .int(50), .string("math")) { ($0.scores["math"] ?? 0) > 50 },
    ]

    @Test(arguments: keys) func mapKeysMayHoldSpaces(query: ParityCase) throws { try query.check() }
}

/// Spellings Realm accepts that ObjDB refused before #30: arguments beyond those the query uses
/// (realm-core reads arguments by position and never counts them), `bin('…')` data literals,
/// `obj('Type', primaryKey)` links (query_bison.yy's `OBJ '(' STRING ',' primary_key ')'`; a key no
/// object has is the null link), map keys in `SORT` and `DISTINCT` (`sort_param: path direction`,
/// whose path takes `['key']`), and `SUBQUERY` variables with digits, `_` and `-` (query_flex.ll's
/// identifiers: `[a-zA-Z_$][a-zA-Z_\-$0-9]*`).
@Suite("Query conformance: spellings Realm accepts")
struct AcceptedSpellingConformanceTests {
    static let spellings: [ParityCase] = [
        .drinker("name == 'Ada'", .int(1)) { $0.name == "Ada" },
        .drinker("name == $0", .string("Cy"), .string("unused"), .int(3)) { $0.name == "Cy" },
        .drinker("TRUEPREDICATE", .null) { _ in true },
        .drinker("avatar == bin('abc')") { $0.avatar == Data("abc".utf8) },
        .drinker("avatar BEGINSWITH bin('ev')") { $0.avatar?.starts(with: Data("ev".utf8)) ?? false },
        .drinker("avatar != bin(\"abc\")") { $0.avatar != Data("abc".utf8) },
        .drinker("avatar == bin('')") { $0.avatar == Data() },
        .drinker("favorites == obj('RQLBeer', 'Lager')") { $0.favorites.contains("Lager") },
        .drinker("obj('RQLBeer', 'Steam') IN favorites") { $0.favorites.contains("Steam") },
        .drinker("local == obj('RQLBrewery', 'Anchor')") { $0.local == "Anchor" },
        .drinker("local != obj('RQLBrewery', 'Anchor')") { $0.local != "Anchor" },
        .drinker("local == obj('RQLBrewery', 'Nowhere')") { $0.local == nil },
        .drinker("local IN {obj('RQLBrewery', 'Anchor'), obj('RQLBrewery', 'Dogfish')}") {
            ["Anchor", "Dogfish"].contains($0.local)
        },
        .drinker("SUBQUERY(photos, $photo1, $photo1.ratings.@count > 1).@count > 0") {
            $0.photoValues.contains { $0.ratings.count > 1 }
        },
        .drinker("SUBQUERY(photos, $the_photo, $the_photo.ratings.@count > 1).@count >= 2") {
            $0.photoValues.filter { $0.ratings.count > 1 }.count >= 2
        },
        .drinker("SUBQUERY(favorites, $my-beer, $my-beer.abv > 5).@count >= 2") {
            $0.favoriteValues.filter { $0.abv > 5 }.count >= 2
        },
        .drinker("SUBQUERY(favorites, $_b2, $_b2.abv < 5 AND $_b2.ratings.@count > 1).@count == 1") {
            $0.favoriteValues.filter { $0.abv < 5 && $0.ratings.count > 1 }.count == 1
        },
    ]

    static let ordering: [ParityCase] = [
        .names(
            .drinker, "TRUEPREDICATE SORT(scores['math'] ASC)", are: ["Ada", "Ben", "Eve", "Fin", "Dee", "Cy"],
            ordered: true),
        .names(
            .drinker, "TRUEPREDICATE SORT(scores['math'] DESC)", are: ["Cy", "Dee", "Ada", "Ben", "Eve", "Fin"],
            ordered: true),
        .names(
            .drinker, "TRUEPREDICATE SORT(scores['second try'] DESC, name ASC)",
            are: ["Ada", "Eve", "Cy", "Ben", "Dee", "Fin"], ordered: true),
        .names(.drinker, "TRUEPREDICATE DISTINCT(scores['second try'])", are: ["Ada", "Ben", "Cy"], ordered: true),
        .names(
            .drinker, "name != 'Ada' DISTINCT(scores[\"second try\"]) SORT(name DESC)", are: ["Eve", "Cy", "Ben"],
            ordered: true),
        .names(
            .drinker, "TRUEPREDICATE SORT(local.name DESC, scores['first try'] ASC) LIMIT(3)",
            are: ["Fin", "Dee", "Cy"], ordered: true),
    ]

    @Test(arguments: spellings) func realmSpellingsAreAccepted(query: ParityCase) throws { try query.check() }
    @Test(arguments: ordering) func mapKeysSortAndDistinct(query: ParityCase) throws { try query.check() }
}
