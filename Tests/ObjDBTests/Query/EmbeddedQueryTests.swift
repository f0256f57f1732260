import Foundation
import TestSupport
import Testing

@testable import ObjDB

/// Queries reach into embedded objects, one or a list of them (#16.4).
@Suite("Queries: embedded objects")
struct EmbeddedQueryTests {
    let directory = TemporaryDirectory()

    private func store() throws -> Results<Everything> {
        let db = try makeDatabase(directory)
        try db.write { transaction in
            for (int, cities) in [(1, ["Brussels", "Ghent"]), (2, ["Antwerp"]), (3, [])] {
                let object = Everything()
                object.int = int
                if let first = cities.first {
                    let address = Address()
                    address.city = first
                    object.address = address
                }
                for city in cities {
                    let address = Address()
                    address.city = city
                    object.addresses.append(address)
                }
                try transaction.add(object)
            }
        }
        return try db.view().objects(Everything.self)
    }

    @Test func aStringPredicateReadsAPropertyOfAnEmbeddedObject() throws {
        let objects = try store()
        #expect(try objects.filter("address.city CONTAINS %@", "russ").map(\.int) == [1])
        #expect(try objects.filter("address.city == nil").map(\.int) == [3])
    }

    @Test func aStringPredicateQuantifiesOverAListOfEmbeddedObjects() throws {
        let objects = try store()
        #expect(try objects.filter("ANY addresses.city == %@", "Ghent").map(\.int) == [1])
        // Keys are random UUIDs: compare the matches in a fixed order.
        #expect(try objects.filter("NONE addresses.city BEGINSWITH 'A'").map(\.int).sorted() == [1, 3])
        #expect(try objects.filter("addresses.@count == 2").map(\.int) == [1])
    }

    @Test func aFoundationPredicateReadsAnEmbeddedObject() throws {
        let objects = try store()
        #expect(try objects.filter(#Predicate<Everything> { $0.address?.city == "Antwerp" }).map(\.int) == [2])
    }
}
