import Foundation
import ObjDB

// The models of Realm's query-language documentation and realm-core's parser tests, as ObjDB
// classes: people with dogs (to-many and to-one links, backlinks), and projects with items
// with allergens (the docs' `items.allergens.name` example). Every property type ObjDB has,
// optional and not, and every kind of collection.

/// Something a conformance query finds, known by a unique name.
protocol ConformanceNamed: Object {
    var name: String { get }
}

final class RQLPerson: Object, ConformanceNamed {
    @Persisted(primaryKey: true) var name = ""
    @Persisted(indexed: true) var age = 0
    @Persisted var height: Double?
    @Persisted var nickname: String?
    @Persisted var isMember = false
    @Persisted(indexed: true) var born = Date(timeIntervalSince1970: 0)
    @Persisted var key = UUID()
    @Persisted var balance: Decimal = 0
    @Persisted var avatar: Data?
    @Persisted var level: Int16 = 0
    @Persisted var visits: Int64 = 0
    @Persisted var rating: Float = 0
    @Persisted var luckyNumbers: List<Int>
    @Persisted var ratings: List<Double>
    @Persisted var tags: MutableSet<String>
    @Persisted var scores: Map<String, Int>
    @Persisted var dogs: List<RQLDog>
    @Persisted var best: RQLDog?
    @Persisted var home: Address?
}

final class RQLDog: Object, ConformanceNamed {
    @Persisted(primaryKey: true) var name = ""
    @Persisted var age = 0
    @Persisted var breed: String?
    @Persisted var weight = 0.0
    @Persisted(originProperty: "dogs") var owners: LinkingObjects<RQLPerson>
}

final class RQLAllergen: Object, ConformanceNamed {
    @Persisted(primaryKey: true) var name = ""
    @Persisted var populationAffected = 0.0
}

final class RQLItem: Object, ConformanceNamed {
    @Persisted(primaryKey: true) var name = ""
    @Persisted var isComplete = false
    @Persisted var assignee: String?
    @Persisted(indexed: true) var priority = 0
    @Persisted var progressMinutes = 0
    @Persisted var price = 0.0
    @Persisted var allergens: List<RQLAllergen>
    @Persisted(originProperty: "items") var projects: LinkingObjects<RQLProject>
}

final class RQLProject: Object, ConformanceNamed {
    @Persisted(primaryKey: true) var name = ""
    @Persisted var quota = 0
    @Persisted var items: List<RQLItem>
    @Persisted var comments: Map<String, String>
}
