import Foundation
import ObjDB
import TestSupport
import Testing

// Models for the classes of issue #30, after the shapes Realm's own tests and users' queries have:
// breweries with beers (to-many and to-one links both ways), drinkers with photos (a list of values
// reached through a list of objects), aliases with empty and nil strings, and maps whose keys hold
// spaces. A store of their own, so the other conformance suites' expectations stay as they are.

final class RQLBrewery: Object, ConformanceNamed {
    @Persisted(primaryKey: true) var name = ""
    @Persisted var ratings: List<Int>
    @Persisted var beers: List<RQLBeer>
    @Persisted var flagship: RQLBeer?
}

final class RQLBeer: Object, ConformanceNamed {
    @Persisted(primaryKey: true) var name = ""
    @Persisted var abv = 0.0
    @Persisted var brewery: RQLBrewery?
    @Persisted var ratings: List<Int>
}

final class RQLPhoto: Object, ConformanceNamed {
    @Persisted(primaryKey: true) var name = ""
    @Persisted var ratings: List<Int>
    @Persisted var captions: List<String?>
}

final class RQLDrinker: Object, ConformanceNamed {
    @Persisted(primaryKey: true) var name = ""
    @Persisted var nickname: String?
    @Persisted var avatar: Data?
    @Persisted var aliases: List<String?>
    @Persisted var photos: List<RQLPhoto>
    @Persisted var favorites: List<RQLBeer>
    @Persisted var local: RQLBrewery?
    @Persisted var scores: Map<String, Int>
}

/// The parity store's data as plain Swift values: the store is built from these, and every
/// expected result is computed from these, by Realm's rules written out in Swift.
enum ParitySeed {
    struct Brewery {
        var name: String
        var ratings: [Int]
        var beers: [String]
        var flagship: String?
    }

    struct Beer {
        var name: String
        var abv: Double
        var brewery: String?
        var ratings: [Int]
    }

    struct Photo {
        var name: String
        var ratings: [Int]
        var captions: [String?]
    }

    struct Drinker {
        var name: String
        var nickname: String?
        var avatar: Data?
        var aliases: [String?]
        var photos: [String]
        var favorites: [String]
        var local: String?
        var scores: [String: Int]
    }

    static let breweries: [Brewery] = [
        Brewery(name: "Anchor", ratings: [3, 4, 5], beers: ["Steam", "Porter", "Liberty"], flagship: "Steam"),
        Brewery(name: "Brooklyn", ratings: [5, 4, 3], beers: ["Lager", "Porter"], flagship: "Lager"),
        Brewery(name: "Cantillon", ratings: [5], beers: ["Gueuze"], flagship: nil),
        Brewery(name: "Dogfish", ratings: [], beers: [], flagship: nil),
        Brewery(name: "Einstök", ratings: [3, 4, 5], beers: ["Lager", "Lager"], flagship: "Lager"),
    ]

    static let beers: [Beer] = [
        Beer(name: "Steam", abv: 4.5, brewery: "Anchor", ratings: [4, 4]),
        Beer(name: "Porter", abv: 5.6, brewery: "Anchor", ratings: [5]),
        Beer(name: "Liberty", abv: 6.0, brewery: "Anchor", ratings: []),
        Beer(name: "Lager", abv: 5.2, brewery: "Brooklyn", ratings: [3, 5, 1]),
        Beer(name: "Gueuze", abv: 5.0, brewery: "Cantillon", ratings: [5, 5]),
        Beer(name: "Shandy", abv: 4.5, brewery: nil, ratings: [2]),
        Beer(name: "Pale", abv: 6.0, brewery: "Dogfish", ratings: []),
    ]

    static let photos: [Photo] = [
        Photo(name: "sunset", ratings: [5], captions: ["golden hour", "", nil]),
        Photo(name: "pier", ratings: [3, 4], captions: ["pier"]),
        Photo(name: "blur", ratings: [], captions: []),
        Photo(name: "crowd", ratings: [1, 2, 2], captions: [nil]),
        Photo(name: "fives", ratings: [5, 5], captions: ["five", "stars"]),
    ]

    static let drinkers: [Drinker] = [
        Drinker(
            name: "Ada", nickname: "Addie", avatar: Data("abc".utf8), aliases: ["A", ""], photos: ["sunset", "pier"],
            favorites: ["Steam", "Lager"], local: "Anchor", scores: ["first try": 40, "second try": 42]),
        Drinker(
            name: "Ben", nickname: nil, avatar: nil, aliases: [], photos: [], favorites: [], local: nil, scores: [:]),
        Drinker(
            name: "Cy", nickname: "", avatar: Data(), aliases: [nil, "Cyrus"], photos: ["blur"],
            favorites: ["Gueuze", "Gueuze"], local: "Cantillon", scores: ["second try": 7, "math": 90]),
        Drinker(
            name: "Dee", nickname: "Didi", avatar: Data([0xFF, 0x00]), aliases: ["Deedee", "D"],
            photos: ["crowd", "fives"], favorites: ["Porter", "Liberty", "Steam"], local: "Dogfish",
            scores: ["math": 75, "second  try": 42]),
        Drinker(
            name: "Eve", nickname: "evie", avatar: Data("evie".utf8), aliases: ["Eve", "Evie", "E"],
            photos: ["fives"], favorites: ["Shandy"], local: "Brooklyn", scores: ["second try": 42]),
        Drinker(
            name: "Fin", nickname: nil, avatar: Data("abc".utf8), aliases: [nil], photos: ["blur", "blur"],
            favorites: ["Lager"], local: "Einstök", scores: ["first try": 12]),
    ]

    static func brewery(_ name: String) -> Brewery { breweries.first { $0.name == name }! }
    static func beer(_ name: String) -> Beer { beers.first { $0.name == name }! }
    static func photo(_ name: String) -> Photo { photos.first { $0.name == name }! }

    /// How many links point at the object (Realm's `@links.@count`): every list entry, to-one link
    /// and map value, of every type.
    static func backlinkCount(ofBeer name: String) -> Int {
        let fromBreweries = breweries.reduce(0) {
            $0 + $1.beers.filter { $0 == name }.count + ($1.flagship == name ? 1 : 0)
        }
        let fromDrinkers = drinkers.reduce(0) { $0 + $1.favorites.filter { $0 == name }.count }
        return fromBreweries + fromDrinkers
    }

    static func backlinkCount(ofBrewery name: String) -> Int {
        beers.filter { $0.brewery == name }.count + drinkers.filter { $0.local == name }.count
    }

    static func backlinkCount(ofPhoto name: String) -> Int {
        drinkers.reduce(0) { $0 + $1.photos.filter { $0 == name }.count }
    }
}

/// One store of the parity data per test process, shared read-only by every parity test.
enum ParityStore {
    static func database() throws -> Database { try shared.get() }

    private static let shared: Result<Database, Error> = Result {
        let directory = TemporaryDirectory()
        let db = try Database(
            path: directory.store(), types: [RQLBrewery.self, RQLBeer.self, RQLPhoto.self, RQLDrinker.self])
        try db.write { transaction in
            var breweries: [String: RQLBrewery] = [:]
            for seed in ParitySeed.breweries {
                let brewery = RQLBrewery()
                brewery.name = seed.name
                brewery.ratings.append(contentsOf: seed.ratings)
                try transaction.add(brewery)
                breweries[seed.name] = brewery
            }
            var beers: [String: RQLBeer] = [:]
            for seed in ParitySeed.beers {
                let beer = RQLBeer()
                beer.name = seed.name
                beer.abv = seed.abv
                beer.brewery = seed.brewery.map { breweries[$0]! }
                beer.ratings.append(contentsOf: seed.ratings)
                try transaction.add(beer)
                beers[seed.name] = beer
            }
            for seed in ParitySeed.breweries {
                let brewery = breweries[seed.name]!
                brewery.beers.append(contentsOf: seed.beers.map { beers[$0]! })
                brewery.flagship = seed.flagship.map { beers[$0]! }
            }
            var photos: [String: RQLPhoto] = [:]
            for seed in ParitySeed.photos {
                let photo = RQLPhoto()
                photo.name = seed.name
                photo.ratings.append(contentsOf: seed.ratings)
                photo.captions.append(contentsOf: seed.captions)
                try transaction.add(photo)
                photos[seed.name] = photo
            }
            for seed in ParitySeed.drinkers {
                let drinker = RQLDrinker()
                drinker.name = seed.name
                drinker.nickname = seed.nickname
                drinker.avatar = seed.avatar
                drinker.aliases.append(contentsOf: seed.aliases)
                drinker.photos.append(contentsOf: seed.photos.map { photos[$0]! })
                drinker.favorites.append(contentsOf: seed.favorites.map { beers[$0]! })
                drinker.local = seed.local.map { breweries[$0]! }
                for (key, value) in seed.scores { drinker.scores[key] = value }
                try transaction.add(drinker)
            }
        }
        return db
    }
}

/// An argument of a parity query.
enum ParityArgument: Sendable, CustomStringConvertible {
    case int(Int)
    case double(Double)
    case string(String)
    case null
    case list([ParityArgument])
    case beer(String)

    var description: String {
        switch self {
        case .int(let value): return "\(value)"
        case .double(let value): return "\(value)"
        case .string(let value): return "'\(value)'"
        case .null: return "nil"
        case .list(let values): return "[" + values.map(\.description).joined(separator: ", ") + "]"
        case .beer(let name): return "beer \(name)"
        }
    }

    func resolve(in view: ReadView) throws -> Any {
        switch self {
        case .int(let value): return value
        case .double(let value): return value
        case .string(let value): return value
        case .null: return NSNull()
        case .list(let values): return try values.map { try $0.resolve(in: view) }
        case .beer(let name):
            guard let beer = view.object(ofType: RQLBeer.self, forPrimaryKey: name) else {
                throw ConformanceFailure("no beer \(name)")
            }
            return beer
        }
    }
}

/// A type the parity queries run on.
enum ParityModel: String, Sendable {
    case brewery = "RQLBrewery"
    case beer = "RQLBeer"
    case photo = "RQLPhoto"
    case drinker = "RQLDrinker"
}

/// One query and the names it must find, as Realm finds them, worked out from ``ParitySeed``.
struct ParityCase: Sendable, CustomTestStringConvertible {
    let model: ParityModel
    let query: String
    let arguments: [ParityArgument]
    let expected: [String]
    let ordered: Bool

    var testDescription: String {
        "\(model.rawValue): \(query)" + (arguments.isEmpty ? "" : " with \(arguments)")
    }

    static func brewery(
        _ query: String, _ arguments: ParityArgument..., where match: (ParitySeed.Brewery) -> Bool
    ) -> ParityCase {
        ParityCase(
            model: .brewery, query: query, arguments: arguments,
            expected: ParitySeed.breweries.filter(match).map(\.name), ordered: false)
    }

    static func beer(_ query: String, _ arguments: ParityArgument..., where match: (ParitySeed.Beer) -> Bool)
        -> ParityCase
    {
        ParityCase(
            model: .beer, query: query, arguments: arguments, expected: ParitySeed.beers.filter(match).map(\.name),
            ordered: false)
    }

    static func photo(_ query: String, _ arguments: ParityArgument..., where match: (ParitySeed.Photo) -> Bool)
        -> ParityCase
    {
        ParityCase(
            model: .photo, query: query, arguments: arguments, expected: ParitySeed.photos.filter(match).map(\.name),
            ordered: false)
    }

    static func drinker(
        _ query: String, _ arguments: ParityArgument..., where match: (ParitySeed.Drinker) -> Bool
    ) -> ParityCase {
        ParityCase(
            model: .drinker, query: query, arguments: arguments,
            expected: ParitySeed.drinkers.filter(match).map(\.name), ordered: false)
    }

    /// A query whose result is written out by hand, in this order when `ordered`.
    static func names(
        _ model: ParityModel, _ query: String, _ arguments: ParityArgument..., are names: [String],
        ordered: Bool = false
    ) -> ParityCase {
        ParityCase(model: model, query: query, arguments: arguments, expected: names, ordered: ordered)
    }

    func run() throws -> [String] {
        let view = try ParityStore.database().view()
        let arguments = try self.arguments.map { try $0.resolve(in: view) }
        switch model {
        case .brewery: return try view.objects(RQLBrewery.self).filter(query, argumentArray: arguments).map(\.name)
        case .beer: return try view.objects(RQLBeer.self).filter(query, argumentArray: arguments).map(\.name)
        case .photo: return try view.objects(RQLPhoto.self).filter(query, argumentArray: arguments).map(\.name)
        case .drinker: return try view.objects(RQLDrinker.self).filter(query, argumentArray: arguments).map(\.name)
        }
    }

    func check() throws {
        let found = try run()
        if ordered {
            #expect(found == expected, "\(testDescription)")
        } else {
            #expect(found.count == Set(found).count, "\(testDescription) found an object twice: \(found)")
            #expect(Set(found) == Set(expected), "\(testDescription)")
        }
    }
}
