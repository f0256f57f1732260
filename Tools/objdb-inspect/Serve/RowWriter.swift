import Foundation
import ObjDB

/// Writes objects as the API's rows: the key, the page cursor, the values of the columns, and
/// the counts of their lists, sets, maps and backlinks.
struct RowWriter {
    let pager: QueryPager
    let view: ReadView
    /// The columns: the properties asked for, in that order, or every property.
    let columns: [PropertySchema]

    /// Backlinks are counted up to this many.
    static let countLimit = 10_000

    init(pager: QueryPager, view: ReadView, columns names: [String]?) throws {
        self.pager = pager
        self.view = view
        let schema = pager.schema
        if let names {
            columns = try names.map { name in
                guard let property = schema[name] else {
                    throw ObjDBError.unknownProperty(type: schema.name, property: name)
                }
                return property
            }
        } else {
            columns = schema.properties
        }
    }

    /// Writes the object `key` as a row; nothing when it is gone.
    func write(_ key: [UInt8], cursor: PageCursor?, to json: inout JSONWriter) {
        let type = pager.schema.name
        do {
            var row = JSONWriter()
            let found = try pager.withObject(key) { object -> Bool in
                row.beginObject()
                row.member("key", try view.objectKey(ofType: type, tableKey: key).map(APIValue.keyText))
                if let cursor { row.member("cursor", cursor.token) }
                var counts: [(String, Int)] = []
                row.key("values")
                row.beginObject()
                for property in columns {
                    if property.type == .linkingObjects {
                        counts.append((property.name, try linkingCount(key, property)))
                    } else if property.collection != .single {
                        counts.append((property.name, object.elementCount(of: property)))
                    } else {
                        row.key(property.name)
                        APIValue.write(
                            object.value(of: property), to: &row, textLimit: Inspector.cellTextLimit, dataLimit: 32)
                    }
                }
                row.endObject()
                row.key("counts")
                row.beginObject()
                for (name, count) in counts { row.member(name, count) }
                row.endObject()
                row.endObject()
                return true
            }
            if found == true { json.raw(String(decoding: row.bytes, as: UTF8.self)) }
        } catch {
            // A damaged record shows as a row that says so: the page goes on.
            json.beginObject()
            json.member("key", (try? view.objectKey(ofType: type, tableKey: key)).flatMap { $0.map(APIValue.keyText) })
            json.member("damaged", "\(error)")
            json.endObject()
        }
    }

    /// Writes `property` of `object` whole, for its own page: `value` and, for collections, `count`.
    func writeWhole(_ object: ScannedObject, _ property: PropertySchema, key: [UInt8], to json: inout JSONWriter) throws
    {
        if property.type == .linkingObjects {
            json.member("count", try linkingCount(key, property))
            return
        }
        var value = object.value(of: property)
        if property.collection != .single {
            json.member("count", object.elementCount(of: property))
            if case .list(let elements) = value, elements.count > 1000 { value = .list(Array(elements.prefix(1000))) }
        }
        json.key("value")
        APIValue.write(value, to: &json, textLimit: nil, dataLimit: 64 * 1024)
    }

    private func linkingCount(_ key: [UInt8], _ property: PropertySchema) throws -> Int {
        guard let origin = property.objectType, let originProperty = property.originProperty else { return 0 }
        return try view.linkingCount(
            to: key, ofType: pager.schema.name, from: origin, property: originProperty, cap: Self.countLimit)
    }
}
