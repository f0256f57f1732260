import Foundation
import ObjDB
import TestSupport

// The models of the apps ObjDB grew from, as their users would write them.

// MARK: Twitter timeline cache

final class Tweet: Object {
    @Persisted(primaryKey: true) var id: Int64
    @Persisted var text = ""
    @Persisted(indexed: true) var createdAt = Date()
    @Persisted var user: TwitterUser?
    @Persisted var retweetedBy: List<TwitterUser>
    @Persisted var retweetCount = 0
}

final class TwitterUser: Object {
    @Persisted(primaryKey: true) var id: Int64
    @Persisted var name = ""
    @Persisted(indexed: true) var screenName = ""
    @Persisted var profileImageURL: String?
    @Persisted(originProperty: "user") var tweets: LinkingObjects<Tweet>
}

// MARK: Flickr browser

final class Photo: Object {
    @Persisted(primaryKey: true) var id = ""
    @Persisted var title = ""
    @Persisted var tags: MutableSet<Tag>
}

final class Tag: Object {
    @Persisted(primaryKey: true) var name = ""
    @Persisted(originProperty: "tags") var photos: LinkingObjects<Photo>
}

final class Recent: Object {
    @Persisted(indexed: true) var lastViewed = Date()
    @Persisted var photo: Photo?
}

// MARK: Beer catalog

final class Beer: Object {
    @Persisted(primaryKey: true) var name = ""
    @Persisted var breweries: List<Brewery>
    @Persisted var style: BeerStyle?
    @Persisted var abv = 0.0
}

final class Brewery: Object {
    @Persisted(primaryKey: true) var name = ""
    @Persisted var address: Address?
    @Persisted(unique: true) var website: String?
}

final class Address: EmbeddedObject {
    @Persisted var street = ""
    @Persisted var city = ""
}

final class BeerStyle: Object {
    @Persisted(primaryKey: true) var name = ""
    @Persisted(originProperty: "style") var beers: LinkingObjects<Beer>
}

// MARK: Every property type

enum Mood: String, PersistableEnum {
    case calm, excited, grumpy
}

enum Priority: Int, PersistableEnum {
    case low = 1, high = 2
}

final class Everything: Object {
    @Persisted(primaryKey: true) var key = UUID()
    @Persisted var bool = false
    @Persisted var int = 0
    @Persisted var int8: Int8 = 0
    @Persisted var int16: Int16 = 0
    @Persisted var int32: Int32 = 0
    @Persisted var int64: Int64 = 0
    @Persisted var float: Float = 0
    @Persisted var double = 0.0
    @Persisted var string = ""
    @Persisted var data = Data()
    @Persisted var date = Date(timeIntervalSince1970: 0)
    @Persisted var uuid = UUID()
    @Persisted var decimal: Decimal = 0
    @Persisted var mood = Mood.calm
    @Persisted var priority = Priority.low
    @Persisted var optionalBool: Bool?
    @Persisted var optionalInt: Int?
    @Persisted var optionalInt8: Int8?
    @Persisted var optionalInt16: Int16?
    @Persisted var optionalInt32: Int32?
    @Persisted var optionalInt64: Int64?
    @Persisted var optionalFloat: Float?
    @Persisted var optionalDouble: Double?
    @Persisted var optionalString: String?
    @Persisted var optionalData: Data?
    @Persisted var optionalDate: Date?
    @Persisted var optionalUUID: UUID?
    @Persisted var optionalDecimal: Decimal?
    @Persisted var optionalMood: Mood?
    @Persisted var ints: List<Int>
    @Persisted var strings: List<String>
    @Persisted var optionalStrings: List<String?>
    @Persisted var doubles: List<Double>
    @Persisted var dates: List<Date>
    @Persisted var stringSet: MutableSet<String>
    @Persisted var scores: Map<String, Double>
    @Persisted var labels: Map<String, String?>
    @Persisted var address: Address?
    @Persisted var addresses: List<Address>
}

/// Opens a database of every seed model in `directory`.
func makeDatabase(_ directory: TemporaryDirectory, name: String = "store.objdb") throws -> Database {
    try Database(path: directory.store(name), types: seedTypes)
}

let seedTypes: [ObjectBase.Type] = [
    Tweet.self, TwitterUser.self, Photo.self, Tag.self, Recent.self, Beer.self, Brewery.self, Address.self,
    BeerStyle.self, Everything.self,
]
