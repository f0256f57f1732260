import Foundation
import ObjDB

/// Builds a JSON document byte by byte. Strings escape `<`, `>`, `&`, U+2028, U+2029 and the
/// bidirectional controls as `\uXXXX` too: a document shown as a page, or pasted into one,
/// carries no markup and reorders no text.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    /// Whether the next value in the current object or array needs a comma before it.
    private var needsComma = false

    init() {}

    mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
    }

    mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// A member's name; its value follows.
    mutating func key(_ name: String) {
        separate()
        appendString(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    mutating func string(_ text: String) {
        separate()
        appendString(text)
        needsComma = true
    }

    mutating func int(_ number: Int) {
        raw(String(number))
    }

    mutating func double(_ number: Double) {
        if number.isFinite {
            raw(number.description)
        } else {
            string(number.isNaN ? "NaN" : number > 0 ? "Infinity" : "-Infinity")
        }
    }

    mutating func bool(_ flag: Bool) { raw(flag ? "true" : "false") }

    mutating func null() { raw("null") }

    /// A member holding a string, or `null`.
    mutating func member(_ name: String, _ text: String?) {
        key(name)
        if let text { string(text) } else { null() }
    }

    mutating func member(_ name: String, _ number: Int?) {
        key(name)
        if let number { int(number) } else { null() }
    }

    mutating func member(_ name: String, _ flag: Bool) {
        key(name)
        bool(flag)
    }

    /// Bytes that are a JSON value already.
    mutating func raw(_ text: String) {
        separate()
        bytes += Array(text.utf8)
        needsComma = true
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    private mutating func appendString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x22: bytes += [0x5C, 0x22]
            case 0x5C: bytes += [0x5C, 0x5C]
            case 0x0A: bytes += [0x5C, UInt8(ascii: "n")]
            case 0x0D: bytes += [0x5C, UInt8(ascii: "r")]
            case 0x09: bytes += [0x5C, UInt8(ascii: "t")]
            case 0..<0x20, 0x3C, 0x3E, 0x26, 0x7F, 0x2028, 0x2029, 0x200E, 0x200F, 0x202A...0x202E,
                0x2066...0x2069:
                bytes += Array(String(format: "\\u%04x", scalar.value).utf8)
            default:
                bytes += Array(String(scalar).utf8)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

/// How the inspector's API writes stored values: JSON's own types where they hold the value
/// exactly, a one-member object naming the type where they do not.
enum APIValue {
    /// The largest integer a JavaScript number holds exactly; larger ones are written as strings.
    static let largestExactInteger: Int64 = (1 << 53) - 1

    /// An object key as URLs and the API carry it: `42`, `ada`, a UUID, or `#7` for an internal ID.
    static func keyText(_ key: ObjectKey) -> String {
        switch key {
        case .int(let value): return String(value)
        case .string(let value): return value
        case .uuid(let value): return value.uuidString
        case .internalID(let value): return "#\(value)"
        }
    }

    /// The key `text` names for a type whose primary key is `property` (internal IDs when `nil`).
    static func key(_ text: String, primaryKey property: PropertySchema?) -> ObjectKey? {
        guard let property else {
            guard text.hasPrefix("#"), let id = UInt64(text.dropFirst()) else { return nil }
            return .internalID(id)
        }
        switch property.type {
        case .string: return .string(text)
        case .uuid: return UUID(uuidString: text).map { .uuid($0) }
        default: return Int64(text).map { .int($0) }
        }
    }

    /// Writes `value`; strings longer than `textLimit` scalars are cut, as `{"truncated": …, "length": n}`.
    static func write(_ value: StoredValue, to json: inout JSONWriter, textLimit: Int? = nil, dataLimit: Int = 4096) {
        switch value {
        case .null: json.null()
        case .bool(let flag): json.bool(flag)
        case .int(let number):
            if abs(number) <= largestExactInteger { json.raw(String(number)) } else { json.string(String(number)) }
        case .float(let number): json.double(Double(number))
        case .double(let number): json.double(number)
        case .string(let text):
            let count = text.unicodeScalars.count
            if let textLimit, count > textLimit {
                json.beginObject()
                json.member("truncated", String(String.UnicodeScalarView(text.unicodeScalars.prefix(textLimit))))
                json.member("length", count)
                json.endObject()
            } else {
                json.string(text)
            }
        case .data(let data):
            json.beginObject()
            json.member("data", data.prefix(dataLimit).map { String(format: "%02x", $0) }.joined())
            json.member("size", data.count)
            json.endObject()
        case .date(let date):
            json.beginObject()
            json.member("date", ExactDateText.text(date.timeIntervalSinceReferenceDate))
            json.endObject()
        case .uuid(let uuid):
            json.beginObject()
            json.member("uuid", uuid.uuidString)
            json.endObject()
        case .decimal(let decimal):
            json.beginObject()
            json.member("decimal", decimal.description)
            json.endObject()
        case .link(let type, let key):
            json.beginObject()
            json.key("link")
            json.beginObject()
            json.member("type", type)
            json.member("key", keyText(key))
            json.endObject()
            json.endObject()
        case .embedded(let values):
            json.beginObject()
            json.key("embedded")
            json.beginObject()
            for name in values.keys.sorted() {
                json.key(name)
                write(values[name]!, to: &json, textLimit: textLimit, dataLimit: dataLimit)
            }
            json.endObject()
            json.endObject()
        case .list(let elements):
            json.beginArray()
            for element in elements { write(element, to: &json, textLimit: textLimit, dataLimit: dataLimit) }
            json.endArray()
        case .map(let entries):
            json.beginObject()
            json.key("map")
            json.beginObject()
            for name in entries.keys.sorted() {
                json.key(name)
                write(entries[name]!, to: &json, textLimit: textLimit, dataLimit: dataLimit)
            }
            json.endObject()
            json.endObject()
        }
    }
}
