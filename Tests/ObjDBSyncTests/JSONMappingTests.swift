import Foundation
import ObjDB
import TestSupport
import Testing

@testable import ObjDBSync

// The RestKit seed's beer catalog (BreweryDB's `{"data": [...]}`), mapped by a layer that knows
// nothing of any API.
final class Brewery: Object {
    @Persisted(primaryKey: true) var id = ""
    @Persisted var name = ""
    @Persisted var established: Int?
}

final class Beer: Object {
    @Persisted(primaryKey: true) var id = ""
    @Persisted var name = ""
    @Persisted var abv = 0.0
    @Persisted var breweries: List<Brewery>
    @Persisted var isFavorite = false  // the app's own state: never in a payload
}

let beerCatalog = #"""
    {"currentPage": 1, "status": "success", "data": [
      {"id": "oeGSxs", "name": "Naughty 90", "abv": "8", "breweries": [{"id": "jmGoBA", "name": "Flying Dog"}]},
      {"id": "c4f2KE", "name": "Witbier", "abv": 5.2, "breweries": [
        {"id": "jmGoBA", "name": "Flying Dog"}, {"id": "q6vJUK", "name": "Allagash", "established": "1995"}]}
    ]}
    """#

@Suite("JSON mapping")
struct JSONMappingTests {
    let directory = TemporaryDirectory()

    func store() throws -> Database {
        try Database(
            path: directory.store(),
            types: [Beer.self, Brewery.self, Note.self, Owner.self, Tag.self, Place.self, Point.self])
    }

    @Test func theBeerCatalogMapsInADozenLines() throws {
        let db = try store()
        let breweries = JSONMapping(Brewery.self) {
            $0.identity(\.id, "id")
            $0.map(\.name, "name")
            $0.map(\.established, "established", .integerOrString)
        }
        let beers = JSONMapping(Beer.self) {
            $0.identity(\.id, "id")
            $0.map(\.name, "name")
            $0.map(\.abv, "abv", .numberOrString)
            $0.map(\.breweries, "breweries", using: breweries)
        }
        let summary = try db.importJSON(Data(beerCatalog.utf8), at: "data", using: beers)

        #expect(summary[Beer.self].inserted == 2)
        #expect(summary[Brewery.self].inserted == 2)  // Flying Dog once, though listed twice
        let witbier = try #require(try db.view().object(ofType: Beer.self, forPrimaryKey: "c4f2KE"))
        #expect(witbier.abv == 5.2)
        #expect(witbier.breweries.map(\.name) == ["Flying Dog", "Allagash"])
        #expect(witbier.breweries[1].established == 1995)
        #expect(try db.view().object(ofType: Beer.self, forPrimaryKey: "oeGSxs")?.abv == 8)
    }

    @Test func importingTheSamePayloadAgainChangesNothing() throws {
        let db = try store()
        let data = Data(beerCatalog.utf8)
        try db.importJSON(data, at: "data", using: Beer.mapping)
        let version = try db.view().version
        let again = try db.importJSON(data, at: "data", using: Beer.mapping)
        #expect(again[Beer.self] == ImportSummary.Counts(inserted: 0, updated: 0, unchanged: 2))
        #expect(again[Brewery.self].unchanged == 2)
        #expect(!again.changedAnything)
        #expect(try db.view().version == version)
    }

    @Test func anUpdateWritesWhatThePayloadGivesAndKeepsTheRest() throws {
        let db = try store()
        try db.importJSON(Data(beerCatalog.utf8), at: "data", using: Beer.mapping)
        try db.write { _ = try $0.create(Beer.self, value: ["id": "oeGSxs", "isFavorite": true], update: .modified) }
        let renamed = #"{"data": [{"id": "oeGSxs", "name": "Naughty Ninety"}]}"#
        let summary = try db.importJSON(Data(renamed.utf8), at: "data", using: Beer.mapping)
        #expect(summary[Beer.self].updated == 1)
        let beer = try #require(try db.view().object(ofType: Beer.self, forPrimaryKey: "oeGSxs"))
        #expect(beer.name == "Naughty Ninety")
        #expect(beer.abv == 8)  // absent: kept
        #expect(beer.breweries.count == 1)  // absent: kept
        #expect(beer.isFavorite)  // not mapped: kept
    }

    @Test func keyPathsReachIntoNestedJSONAndFallbacksApplyInOrder() throws {
        let db = try store()
        let payload = #"""
            [{"id": 1, "full_text": "long", "text": "short", "meta": {"place": {"name": "Lisbon"}}, "tags": ["a", "b"]},
             {"id": 2, "full_text": null, "text": "short", "meta": null, "tags": null},
             {"id": 3, "text": "only", "meta": {}}]
            """#
        try db.importJSON(Data(payload.utf8), using: Note.mapping)
        let view = try db.view()
        #expect(view.object(ofType: Note.self, forPrimaryKey: 1)?.body == "long")
        #expect(view.object(ofType: Note.self, forPrimaryKey: 2)?.body == "short")
        #expect(view.object(ofType: Note.self, forPrimaryKey: 3)?.body == "only")
        #expect(view.object(ofType: Note.self, forPrimaryKey: 1)?.placeName == "Lisbon")
        #expect(view.object(ofType: Note.self, forPrimaryKey: 2)?.placeName == nil)
        #expect(view.object(ofType: Note.self, forPrimaryKey: 1).map { Array($0.tags) } == ["a", "b"])
        #expect(view.object(ofType: Note.self, forPrimaryKey: 2)?.tags.isEmpty == true)
    }

    @Test func nullClearsOptionalsAndAbsenceKeepsThem() throws {
        let db = try store()
        try db.importJSON(Data(#"[{"id": 1, "meta": {"place": {"name": "Lisbon"}}}]"#.utf8), using: Note.mapping)
        try db.importJSON(Data(#"[{"id": 1}]"#.utf8), using: Note.mapping)
        #expect(try db.view().object(ofType: Note.self, forPrimaryKey: 1)?.placeName == "Lisbon")
        try db.importJSON(Data(#"[{"id": 1, "meta": {"place": null}}]"#.utf8), using: Note.mapping)
        #expect(try db.view().object(ofType: Note.self, forPrimaryKey: 1)?.placeName == nil)
    }

    @Test func nullForAPropertyThatCannotBeNilIsAnErrorNamingItsPath() throws {
        let db = try store()
        let error = try #require(throws: SyncError.self) {
            try db.importJSON(
                Data(#"{"data": [{"id": "a"}, {"id": "b", "name": null}]}"#.utf8), at: "data", using: Beer.mapping)
        }
        #expect(error.code == .unexpectedValue)
        #expect(error.description == "data[1].name: expected a string, found null")
        #expect(try db.view().objects(Beer.self).isEmpty)
    }

    @Test func aValueOfTheWrongShapeNamesItsPathAndWhatWasExpected() throws {
        let db = try store()
        let cases: [(String, String)] = [
            (
                #"{"data": [{"id": "a", "abv": true}]}"#,
                "data[0].abv: expected a number (or a string of one), found true"
            ),
            (
                #"{"data": [{"id": "a", "abv": "strong"}]}"#,
                #"data[0].abv: expected a number (or a string of one), found "strong""#
            ),
            (
                #"{"data": [{"id": "a", "breweries": {"id": "x"}}]}"#,
                "data[0].breweries: expected an array, found an object"
            ),
            (#"{"data": [{"id": "a", "breweries": [42]}]}"#, "data[0].breweries[0]: expected an object, found 42"),
            (
                #"{"data": [{"id": "a", "breweries": [{"name": "x"}]}]}"#,
                "data[0].breweries[0].id: a Brewery needs id to identify it"
            ),
            (#"{"data": [{"id": 7}]}"#, "data[0].id: expected a string, found 7"),
            (#"{"data": 3}"#, "data: expected an array of objects or an object, found 3"),
        ]
        for (payload, message) in cases {
            let error = try #require(throws: SyncError.self) {
                try db.importJSON(Data(payload.utf8), at: "data", using: Beer.mapping)
            }
            #expect(error.description == message)
        }
        #expect(try db.view().objects(Beer.self).isEmpty)
        #expect(try db.view().objects(Brewery.self).isEmpty)
    }

    @Test func aFailureLateInThePayloadRollsBackEverythingBeforeIt() throws {
        let db = try store()
        try db.importJSON(Data(beerCatalog.utf8), at: "data", using: Beer.mapping)
        let bad = #"{"data": [{"id": "new1", "name": "A"}, {"id": "oeGSxs", "name": "B"}, {"id": "new2", "abv": []}]}"#
        #expect(throws: SyncError.self) { try db.importJSON(Data(bad.utf8), at: "data", using: Beer.mapping) }
        let view = try db.view()
        #expect(view.objects(Beer.self).count == 2)
        #expect(view.object(ofType: Beer.self, forPrimaryKey: "oeGSxs")?.name == "Naughty 90")
    }

    @Test func keepLeavesAStoredObjectAloneAndInsertsAnAbsentOne() throws {
        let db = try store()
        let owners = #"[{"id": 1, "name": "Full Name", "bio": "long bio"}]"#
        try db.importJSON(Data(owners.utf8), using: Owner.mapping)
        let tags =
            #"[{"label": "a", "owner": {"id": 1, "name": "partial"}}, {"label": "b", "owner": {"id": 2, "name": "new"}}]"#
        let summary = try db.importJSON(Data(tags.utf8), using: Tag.mapping)
        #expect(summary[Owner.self] == ImportSummary.Counts(inserted: 1, updated: 0, unchanged: 1))
        let view = try db.view()
        #expect(view.object(ofType: Owner.self, forPrimaryKey: 1)?.name == "Full Name")
        #expect(view.object(ofType: Owner.self, forPrimaryKey: 2)?.name == "new")
        #expect(view.object(ofType: Tag.self, forPrimaryKey: "a")?.owner?.bio == "long bio")
    }

    @Test func embeddedObjectsAloneAndInListsMap() throws {
        let db = try store()
        let payload =
            #"[{"name": "home", "center": {"x": 1, "y": 2}, "corners": [{"x": 0, "y": 0}, {"x": 3, "y": 4}]}]"#
        try db.importJSON(Data(payload.utf8), using: Place.mapping)
        let place = try #require(try db.view().object(ofType: Place.self, forPrimaryKey: "home"))
        #expect(place.center?.x == 1)
        #expect(place.corners.map(\.y) == [0, 4])
        let error = try #require(throws: SyncError.self) {
            try db.importJSON(Data(#"[{"name": "x", "corners": [{"x": "far"}]}]"#.utf8), using: Place.mapping)
        }
        #expect(error.description == #"[0].corners[0].x: expected an integer that fits Int, found "far""#)
    }

    @Test func aSteppingThroughAValueThatIsNoObjectIsAnError() throws {
        let db = try store()
        let error = try #require(throws: SyncError.self) {
            try db.importJSON(Data(#"[{"id": 1, "meta": "oops"}]"#.utf8), using: Note.mapping)
        }
        #expect(error.description == #"[0].meta: expected an object with 'place', found "oops""#)
    }

    @Test func objectsNestedDeeperThanTheSessionAllowsAreAnError() throws {
        let db = try store()
        var json = #"{"label": "t0", "owner": {"id": 0}}"#
        for level in 1...300 { json = #"{"label": "t\#(level)", "parent": \#(json)}"# }
        let error = try #require(throws: SyncError.self) {
            try db.importJSON(Data("[\(json)]".utf8), using: Tag.mapping)
        }
        #expect(error.code == .limitExceeded)
        #expect(try db.view().objects(Tag.self).isEmpty)
    }
}

// MARK: - Models the mapping tests use

extension Beer {
    static let mapping = JSONMapping(Beer.self) {
        $0.identity(\.id, "id")
        $0.map(\.name, "name")
        $0.map(\.abv, "abv", .numberOrString)
        $0.map(\.breweries, "breweries", using: Brewery.mapping)
    }
}

extension Brewery {
    static let mapping = JSONMapping(Brewery.self) {
        $0.identity(\.id, "id")
        $0.map(\.name, "name")
    }
}

final class Note: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var body = ""
    @Persisted var placeName: String?
    @Persisted var tags: List<String>

    static let mapping = JSONMapping(Note.self) {
        $0.identity(\.id, "id")
        $0.map(\.body, ["full_text", "text"])
        $0.map(\.placeName, "meta.place.name")
        $0.map(\.tags, "tags")
    }
}

final class Owner: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
    @Persisted var bio = ""

    static let mapping = JSONMapping(Owner.self) {
        $0.identity(\.id, "id")
        $0.map(\.name, "name")
        $0.map(\.bio, "bio")
    }
}

final class Tag: Object {
    @Persisted(primaryKey: true) var label = ""
    @Persisted var owner: Owner?
    @Persisted var parent: Tag?

    static let mapping: JSONMapping<Tag> = JSONMapping(Tag.self) {
        $0.identity(\.label, "label")
        $0.map(\.owner, "owner", using: Owner.mapping, existing: .keep)
        $0.map(\.parent, "parent", using: Tag.mapping)
    }
}

final class Point: EmbeddedObject {
    @Persisted var x = 0
    @Persisted var y = 0

    static let mapping = JSONMapping(Point.self) {
        $0.map(\.x, "x")
        $0.map(\.y, "y")
    }
}

final class Place: Object {
    @Persisted(primaryKey: true) var name = ""
    @Persisted var center: Point?
    @Persisted var corners: List<Point>

    static let mapping = JSONMapping(Place.self) {
        $0.identity(\.name, "name")
        $0.map(\.center, "center", using: Point.mapping)
        $0.map(\.corners, "corners", using: Point.mapping)
    }
}
