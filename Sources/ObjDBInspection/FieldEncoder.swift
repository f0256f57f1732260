import Foundation
import ObjDB

/// Writes record fields as JSON values, CSV fields or table cells, reading each field in place
/// (``ValueView``): no ``StoredValue``, no `String` per value.
///
/// JSON: numbers, strings, booleans and `null`; dates as exact ISO 8601 text (``ExactDateText``),
/// doubles in their shortest exact form (non-finite ones as the strings `"nan"`, `"inf"`, `"-inf"`),
/// data as base64, UUIDs and decimals as strings, links as the linked object's key (`"#7"` for an
/// internal ID), embedded objects as objects, lists and sets as arrays, maps as objects.
struct FieldEncoder {
    let codec: ValueCodec

    init(schema: SchemaIndex) {
        codec = ValueCodec(schema: schema)
    }

    // MARK: JSON

    /// Writes `field` of `property` as JSON.
    func writeJSON<Sink: TextSink>(_ field: RecordField, of property: PropertySchema, to sink: Sink) {
        switch field {
        case .absent:
            writeJSON(codec.zeroValue(of: property), of: property, to: sink)
        case .null:
            switch property.collection {
            case .single: sink.write("null")
            case .list, .set: sink.write("[]")
            case .map: sink.write("{}")
            }
        case .bytes(let bytes):
            switch property.collection {
            case .single:
                guard let view = codec.view(bytes, as: property) else {
                    writeJSON(codec.zeroValue(of: property), of: property, to: sink)
                    return
                }
                writeJSON(view, to: sink)
            case .list, .set:
                sink.write(UInt8(ascii: "["))
                var first = true
                codec.forEachElement(bytes, as: property) { element in
                    guard let element else {
                        if !first { sink.write(UInt8(ascii: ",")) }
                        first = false
                        sink.write("null")
                        return
                    }
                    guard let view = codec.view(element, as: property) else { return }
                    if !first { sink.write(UInt8(ascii: ",")) }
                    first = false
                    writeJSON(view, to: sink)
                }
                sink.write(UInt8(ascii: "]"))
            case .map:
                sink.write(UInt8(ascii: "{"))
                var first = true
                codec.forEachMapEntry(bytes) { key, value in
                    if !first { sink.write(UInt8(ascii: ",")) }
                    first = false
                    writeJSONString(key, to: sink)
                    sink.write(UInt8(ascii: ":"))
                    if let value, let view = codec.view(value, as: property) {
                        writeJSON(view, to: sink)
                    } else {
                        sink.write("null")
                    }
                }
                sink.write(UInt8(ascii: "}"))
            }
        }
    }

    /// Writes one value as JSON.
    func writeJSON<Sink: TextSink>(_ view: ValueView, to sink: Sink) {
        switch view {
        case .bool(let flag): sink.write(flag ? "true" : "false")
        case .int(let number): sink.write(integer: number)
        case .float(let number):
            if number.isFinite {
                sink.write(float: number)
            } else {
                sink.write(UInt8(ascii: "\""))
                sink.write(float: number)
                sink.write(UInt8(ascii: "\""))
            }
        case .double(let number):
            if number.isFinite {
                sink.write(double: number)
            } else {
                sink.write(UInt8(ascii: "\""))
                sink.write(double: number)
                sink.write(UInt8(ascii: "\""))
            }
        case .date(let seconds):
            sink.write(UInt8(ascii: "\""))
            ExactDateText.write(seconds, to: sink)
            sink.write(UInt8(ascii: "\""))
        case .string(let utf8): writeJSONString(utf8, to: sink)
        case .data(let bytes):
            sink.write(UInt8(ascii: "\""))
            Base64.write(bytes, to: sink)
            sink.write(UInt8(ascii: "\""))
        case .uuid(let uuid):
            sink.write(UInt8(ascii: "\""))
            sink.write(string: uuid.uuidString)
            sink.write(UInt8(ascii: "\""))
        case .decimal(let decimal):
            sink.write(UInt8(ascii: "\""))
            sink.write(string: decimal.description)
            sink.write(UInt8(ascii: "\""))
        case .link(_, let key): writeJSON(key, to: sink)
        case .embedded(let reader, let type):
            writeJSONObject(reader, properties: type.properties, to: sink)
        }
    }

    /// Writes the stored properties of a record as a JSON object's members, `{"a":1,"b":2}`.
    func writeJSONObject<Sink: TextSink>(_ reader: RecordReader, properties: [PropertySchema], to sink: Sink) {
        sink.write(UInt8(ascii: "{"))
        var first = true
        for property in properties where property.isStored {
            if !first { sink.write(UInt8(ascii: ",")) }
            first = false
            writeJSONString(name: property.name, to: sink)
            sink.write(UInt8(ascii: ":"))
            writeJSON(reader.field(Int(property.id)), of: property, to: sink)
        }
        sink.write(UInt8(ascii: "}"))
    }

    /// Writes an object key as JSON: the primary key's value, or `"#7"` for an internal ID.
    func writeJSON<Sink: TextSink>(_ key: ObjectKeyView, to sink: Sink) {
        switch key {
        case .int(let number): sink.write(integer: number)
        case .string(let utf8): writeJSONString(utf8, to: sink)
        case .uuid(let uuid):
            sink.write(UInt8(ascii: "\""))
            sink.write(string: uuid.uuidString)
            sink.write(UInt8(ascii: "\""))
        case .internalID(let id):
            sink.write("\"#")
            sink.write(unsigned: id)
            sink.write(UInt8(ascii: "\""))
        }
    }

    /// Writes a decoded value as JSON: the slow path, for absent fields' zero values.
    func writeJSON<Sink: TextSink>(_ value: StoredValue, of property: PropertySchema, to sink: Sink) {
        switch value {
        case .null: sink.write("null")
        case .bool(let flag): writeJSON(ValueView.bool(flag), to: sink)
        case .int(let number): writeJSON(ValueView.int(number), to: sink)
        case .float(let number): writeJSON(ValueView.float(number), to: sink)
        case .double(let number): writeJSON(ValueView.double(number), to: sink)
        case .date(let date): writeJSON(ValueView.date(date.timeIntervalSinceReferenceDate), to: sink)
        case .string(var text): text.withUTF8 { writeJSONString(UnsafeRawBufferPointer($0), to: sink) }
        case .data(let data): data.withUnsafeBytes { writeJSON(ValueView.data($0), to: sink) }
        case .uuid(let uuid): writeJSON(ValueView.uuid(uuid), to: sink)
        case .decimal(let decimal): writeJSON(ValueView.decimal(decimal), to: sink)
        case .link(_, let key):
            switch key {
            case .int(let number): writeJSON(ObjectKeyView.int(number), to: sink)
            case .string(var text): text.withUTF8 { writeJSONString(UnsafeRawBufferPointer($0), to: sink) }
            case .uuid(let uuid): writeJSON(ObjectKeyView.uuid(uuid), to: sink)
            case .internalID(let id): writeJSON(ObjectKeyView.internalID(id), to: sink)
            }
        case .list(let elements):
            sink.write(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { sink.write(UInt8(ascii: ",")) }
                writeJSON(element, of: property, to: sink)
            }
            sink.write(UInt8(ascii: "]"))
        case .map(let entries), .embedded(let entries):
            sink.write(UInt8(ascii: "{"))
            for (index, name) in entries.keys.sorted().enumerated() {
                if index > 0 { sink.write(UInt8(ascii: ",")) }
                writeJSONString(name: name, to: sink)
                sink.write(UInt8(ascii: ":"))
                writeJSON(entries[name]!, of: property, to: sink)
            }
            sink.write(UInt8(ascii: "}"))
        }
    }

    /// Writes `name` as a JSON string.
    func writeJSONString<Sink: TextSink>(name: String, to sink: Sink) {
        var name = name
        name.withUTF8 { writeJSONString(UnsafeRawBufferPointer($0), to: sink) }
    }

    /// Writes UTF-8 bytes as a JSON string, escaping quotes, backslashes and control characters.
    @inline(__always)
    func writeJSONString<Sink: TextSink>(_ utf8: UnsafeRawBufferPointer, to sink: Sink) {
        sink.write(UInt8(ascii: "\""))
        var start = 0
        for index in 0..<utf8.count {
            let byte = utf8[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            if index > start { sink.write(UnsafeRawBufferPointer(rebasing: utf8[start..<index])) }
            start = index + 1
            switch byte {
            case UInt8(ascii: "\""): sink.write("\\\"")
            case UInt8(ascii: "\\"): sink.write("\\\\")
            case 0x0A: sink.write("\\n")
            case 0x0D: sink.write("\\r")
            case 0x09: sink.write("\\t")
            case 0x08: sink.write("\\b")
            case 0x0C: sink.write("\\f")
            default:
                sink.write("\\u00")
                sink.write(hexDigit(byte >> 4))
                sink.write(hexDigit(byte & 0xF))
            }
        }
        if utf8.count > start { sink.write(UnsafeRawBufferPointer(rebasing: utf8[start...])) }
        sink.write(UInt8(ascii: "\""))
    }

    // MARK: Text: table cells and CSV fields

    /// How a field reads as text: `table` for people (links as `Type(key)`, collections summarized,
    /// control characters escaped), `csv` for machines (links as keys, collections as JSON, `nil` empty).
    enum TextStyle {
        case table
        case csv
    }

    /// Writes `field` of `property` as text in `style`; CSV quoting is the caller's.
    func writeText<Sink: TextSink>(_ field: RecordField, of property: PropertySchema, style: TextStyle, to sink: Sink) {
        if style == .csv, property.collection != .single {
            if case .null = field { return }
            writeJSON(field, of: property, to: sink)
            return
        }
        switch field {
        case .absent:
            writeText(codec.zeroValue(of: property), of: property, style: style, to: sink)
        case .null:
            switch property.collection {
            case .single: if style == .table { sink.write("nil") }
            case .list, .set: sink.write("[]")
            case .map: sink.write("{0 entries}")
            }
        case .bytes(let bytes):
            switch property.collection {
            case .single:
                guard let view = codec.view(bytes, as: property) else {
                    writeText(codec.zeroValue(of: property), of: property, style: style, to: sink)
                    return
                }
                writeText(view, style: style, to: sink)
            case .list, .set:
                let count = ValueCodec.elementCount(bytes)
                let scalar = property.type != .embedded
                guard count <= 3, scalar else {
                    sink.write(UInt8(ascii: "["))
                    sink.write(integer: Int64(count))
                    sink.write(count == 1 ? " item]" : " items]")
                    return
                }
                sink.write(UInt8(ascii: "["))
                var first = true
                codec.forEachElement(bytes, as: property) { element in
                    if !first { sink.write(", ") }
                    first = false
                    if let element, let view = codec.view(element, as: property) {
                        writeText(view, style: .table, to: sink)
                    } else {
                        sink.write("nil")
                    }
                }
                sink.write(UInt8(ascii: "]"))
            case .map:
                let count = ValueCodec.elementCount(bytes)
                sink.write(UInt8(ascii: "{"))
                sink.write(integer: Int64(count))
                sink.write(count == 1 ? " entry}" : " entries}")
            }
        }
    }

    /// Writes one value as text.
    func writeText<Sink: TextSink>(_ view: ValueView, style: TextStyle, to sink: Sink) {
        switch view {
        case .bool(let flag): sink.write(flag ? "true" : "false")
        case .int(let number): sink.write(integer: number)
        case .float(let number): sink.write(float: number)
        case .double(let number): sink.write(double: number)
        case .date(let seconds): ExactDateText.write(seconds, to: sink)
        case .string(let utf8):
            if style == .table { writeEscaped(utf8, to: sink) } else { sink.write(utf8) }
        case .data(let bytes):
            if style == .table {
                sink.write(UInt8(ascii: "<"))
                sink.write(integer: Int64(bytes.count))
                sink.write(bytes.count == 1 ? " byte>" : " bytes>")
            } else {
                Base64.write(bytes, to: sink)
            }
        case .uuid(let uuid): sink.write(string: uuid.uuidString)
        case .decimal(let decimal): sink.write(string: decimal.description)
        case .link(let type, let key):
            guard style == .table else {
                writeText(key, style: style, to: sink)
                return
            }
            sink.write(string: type.name)
            sink.write(UInt8(ascii: "("))
            writeText(key, style: style, to: sink)
            sink.write(UInt8(ascii: ")"))
        case .embedded(let reader, let type):
            guard style == .table else {
                writeJSONObject(reader, properties: type.properties, to: sink)
                return
            }
            sink.write(UInt8(ascii: "{"))
            var first = true
            for property in type.properties where property.isStored {
                if !first { sink.write(", ") }
                first = false
                sink.write(string: property.name)
                sink.write(": ")
                writeText(reader.field(Int(property.id)), of: property, style: .table, to: sink)
            }
            sink.write(UInt8(ascii: "}"))
        }
    }

    /// Writes an object key as text: `1`, `ada`, a UUID, `#7`.
    func writeText<Sink: TextSink>(_ key: ObjectKeyView, style: TextStyle, to sink: Sink) {
        switch key {
        case .int(let number): sink.write(integer: number)
        case .string(let utf8):
            if style == .table { writeEscaped(utf8, to: sink) } else { sink.write(utf8) }
        case .uuid(let uuid): sink.write(string: uuid.uuidString)
        case .internalID(let id):
            sink.write(UInt8(ascii: "#"))
            sink.write(unsigned: id)
        }
    }

    /// Writes a decoded value as text: the slow path, for absent fields' zero values.
    func writeText<Sink: TextSink>(_ value: StoredValue, of property: PropertySchema, style: TextStyle, to sink: Sink) {
        switch value {
        case .null: if style == .table { sink.write("nil") }
        case .bool(let flag): writeText(ValueView.bool(flag), style: style, to: sink)
        case .int(let number): writeText(ValueView.int(number), style: style, to: sink)
        case .float(let number): writeText(ValueView.float(number), style: style, to: sink)
        case .double(let number): writeText(ValueView.double(number), style: style, to: sink)
        case .date(let date): writeText(ValueView.date(date.timeIntervalSinceReferenceDate), style: style, to: sink)
        case .string(var text):
            text.withUTF8 { writeText(ValueView.string(UnsafeRawBufferPointer($0)), style: style, to: sink) }
        case .data(let data): data.withUnsafeBytes { writeText(ValueView.data($0), style: style, to: sink) }
        case .uuid(let uuid): writeText(ValueView.uuid(uuid), style: style, to: sink)
        case .decimal(let decimal): writeText(ValueView.decimal(decimal), style: style, to: sink)
        case .list(let elements): sink.write(string: elements.isEmpty ? "[]" : "[\(elements.count) items]")
        case .map(let entries): sink.write(string: "{\(entries.count) entries}")
        case .link, .embedded:
            DisplayText.escaped(value.description).withUnsafeBufferPointer { sink.write(UnsafeRawBufferPointer($0)) }
        }
    }

    /// Writes UTF-8 with control characters made visible (`\n`, `\t`, `\x1B`, `\u{9B}`), so stored
    /// text cannot drive the terminal.
    @inline(__always)
    func writeEscaped<Sink: TextSink>(_ utf8: UnsafeRawBufferPointer, to sink: Sink) {
        DisplayText.writeEscaped(utf8, to: sink)
    }

    private func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}

/// Text for people: control characters made visible.
package enum DisplayText {
    /// Writes UTF-8 with C0 and C1 control characters and DEL escaped: `\n`, `\r`, `\t`, `\x1B`, `\u{9B}`.
    static func writeEscaped<Sink: TextSink>(_ utf8: UnsafeRawBufferPointer, to sink: Sink) {
        var start = 0
        var index = 0
        let count = utf8.count
        while index < count {
            let byte = utf8[index]
            let isC1 = byte == 0xC2 && index + 1 < count && utf8[index + 1] >= 0x80 && utf8[index + 1] <= 0x9F
            guard byte < 0x20 || byte == 0x7F || isC1 else {
                index += 1
                continue
            }
            if index > start { sink.write(UnsafeRawBufferPointer(rebasing: utf8[start..<index])) }
            switch byte {
            case 0x0A: sink.write("\\n")
            case 0x0D: sink.write("\\r")
            case 0x09: sink.write("\\t")
            case 0xC2:
                let code = utf8[index + 1]
                sink.write("\\u{")
                sink.write(hex(code >> 4))
                sink.write(hex(code & 0xF))
                sink.write(UInt8(ascii: "}"))
                index += 1
            default:
                sink.write("\\x")
                sink.write(hex(byte >> 4))
                sink.write(hex(byte & 0xF))
            }
            index += 1
            start = index
        }
        if count > start { sink.write(UnsafeRawBufferPointer(rebasing: utf8[start...])) }
    }

    /// `text` with control characters made visible.
    package static func escaped(_ text: String) -> [UInt8] {
        let buffer = ByteBuffer()
        var text = text
        text.withUTF8 { writeEscaped(UnsafeRawBufferPointer($0), to: buffer) }
        return buffer.bytes
    }

    /// `text` with control characters made visible, as a string.
    package static func escapedString(_ text: String) -> String {
        String(decoding: escaped(text), as: UTF8.self)
    }

    private static func hex(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
    }
}

/// Base64 (RFC 4648, with padding), written straight to a sink.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func write<Sink: TextSink>(_ bytes: UnsafeRawBufferPointer, to sink: Sink) {
        var index = 0
        let count = bytes.count
        while index + 3 <= count {
            let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            sink.write(alphabet[Int(chunk >> 18)])
            sink.write(alphabet[Int(chunk >> 12 & 0x3F)])
            sink.write(alphabet[Int(chunk >> 6 & 0x3F)])
            sink.write(alphabet[Int(chunk & 0x3F)])
            index += 3
        }
        let rest = count - index
        if rest == 1 {
            let chunk = UInt32(bytes[index]) << 16
            sink.write(alphabet[Int(chunk >> 18)])
            sink.write(alphabet[Int(chunk >> 12 & 0x3F)])
            sink.write("==")
        } else if rest == 2 {
            let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
            sink.write(alphabet[Int(chunk >> 18)])
            sink.write(alphabet[Int(chunk >> 12 & 0x3F)])
            sink.write(alphabet[Int(chunk >> 6 & 0x3F)])
            sink.write(UInt8(ascii: "="))
        }
    }
}
