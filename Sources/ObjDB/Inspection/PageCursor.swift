import Foundation

/// A position in a query's order, between two pages: the sort values and table key of the
/// object it follows or precedes (or, for a query with `DISTINCT` or `LIMIT`, its position).
///
/// Its ``token`` is what a URL carries: base64url of a compact binary form. A token from
/// anywhere else is untrusted input: ``init(token:)`` checks every length and tag, and
/// returns `nil` for anything it did not write.
package struct PageCursor: Hashable, Sendable {
    /// The object's values at the order's key paths, in the order's order.
    package var values: [StoredValue]
    /// The object's table key.
    package var key: [UInt8]
    /// The object's position, for a query paged by position.
    package var offset: Int?

    package init(values: [StoredValue], key: [UInt8]) {
        self.values = values
        self.key = key
        offset = nil
    }

    package init(offset: Int) {
        values = []
        key = []
        self.offset = offset
    }

    /// The cursor as URL-safe text.
    package var token: String {
        var bytes: [UInt8] = []
        if let offset {
            bytes.append(1)
            Self.appendInteger(UInt64(offset), to: &bytes)
        } else {
            bytes.append(0)
            bytes.append(UInt8(values.count))
            for value in values { Self.append(value, to: &bytes) }
            Self.appendInteger(UInt64(key.count), to: &bytes)
            bytes += key
        }
        return Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// The cursor `token` holds; `nil` when it is not a token ``token`` wrote.
    package init?(token: String) {
        guard token.utf8.count <= 16_384 else { return nil }
        var text = token.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.utf8.count % 4 != 0 { text += "=" }
        guard let data = Data(base64Encoded: text) else { return nil }
        var reader = ByteReader(bytes: [UInt8](data))
        switch reader.byte() {
        case 1:
            guard let offset = reader.integer(), offset <= UInt64(Int.max), reader.isAtEnd else { return nil }
            self.init(offset: Int(offset))
        case 0:
            guard let count = reader.byte(), count <= 16 else { return nil }
            var values: [StoredValue] = []
            for _ in 0..<count {
                guard let value = Self.value(&reader) else { return nil }
                values.append(value)
            }
            guard let length = reader.integer(), length > 0, length <= 4096, let key = reader.bytes(Int(length)),
                reader.isAtEnd
            else { return nil }
            self.init(values: values, key: key)
        default:
            return nil
        }
    }

    // MARK: Encoding

    private static func append(_ value: StoredValue, to bytes: inout [UInt8]) {
        func appendText(_ text: String) {
            appendInteger(UInt64(text.utf8.count), to: &bytes)
            bytes += Array(text.utf8)
        }
        switch value {
        case .bool(let flag): bytes += [1, flag ? 1 : 0]
        case .int(let number):
            bytes.append(2)
            appendFixed(UInt64(bitPattern: number), to: &bytes)
        case .float(let number):
            bytes.append(3)
            appendFixed(UInt64(number.bitPattern), to: &bytes)
        case .double(let number):
            bytes.append(4)
            appendFixed(number.bitPattern, to: &bytes)
        case .string(let text):
            bytes.append(5)
            appendText(text)
        case .data(let data):
            bytes.append(6)
            appendInteger(UInt64(data.count), to: &bytes)
            bytes += data
        case .date(let date):
            bytes.append(7)
            appendFixed(date.timeIntervalSinceReferenceDate.bitPattern, to: &bytes)
        case .uuid(let uuid):
            bytes.append(8)
            withUnsafeBytes(of: uuid.uuid) { bytes += $0 }
        case .decimal(let decimal):
            bytes.append(9)
            appendText(decimal.description)
        default:
            // Links, collections and nil sort alike: as nil.
            bytes.append(0)
        }
    }

    private static func value(_ reader: inout ByteReader) -> StoredValue? {
        func text() -> String? {
            guard let length = reader.integer(), length <= 65_536, let bytes = reader.bytes(Int(length)) else {
                return nil
            }
            return String(validating: bytes, as: UTF8.self)
        }
        switch reader.byte() {
        case 0: return .null
        case 1: return reader.byte().flatMap { $0 <= 1 ? .bool($0 == 1) : nil }
        case 2: return reader.fixed().map { .int(Int64(bitPattern: $0)) }
        case 3: return reader.fixed().flatMap { $0 <= UInt32.max ? .float(Float(bitPattern: UInt32($0))) : nil }
        case 4: return reader.fixed().map { .double(Double(bitPattern: $0)) }
        case 5: return text().map { .string($0) }
        case 6:
            guard let length = reader.integer(), length <= 65_536, let bytes = reader.bytes(Int(length)) else {
                return nil
            }
            return .data(Data(bytes))
        case 7: return reader.fixed().map { .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: $0))) }
        case 8:
            guard let bytes = reader.bytes(16) else { return nil }
            let uuid = bytes.withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) }
            return .uuid(UUID(uuid: uuid))
        case 9:
            return text().flatMap { Decimal(string: $0, locale: Locale(identifier: "en_US_POSIX")) }.map {
                .decimal($0)
            }
        default: return nil
        }
    }

    private static func appendInteger(_ value: UInt64, to bytes: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    private static func appendFixed(_ value: UInt64, to bytes: inout [UInt8]) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    /// Reads a token's bytes, never past their end.
    private struct ByteReader {
        let bytes: [UInt8]
        var position = 0

        var isAtEnd: Bool { position == bytes.count }

        mutating func byte() -> UInt8? {
            guard position < bytes.count else { return nil }
            defer { position += 1 }
            return bytes[position]
        }

        mutating func bytes(_ count: Int) -> [UInt8]? {
            guard count >= 0, count <= bytes.count - position else { return nil }
            defer { position += count }
            return Array(bytes[position..<position + count])
        }

        mutating func integer() -> UInt64? {
            var value: UInt64 = 0
            for shift in stride(from: 0, to: 64, by: 7) {
                guard let next = byte() else { return nil }
                value |= UInt64(next & 0x7F) << UInt64(shift)
                if next < 0x80 { return value }
            }
            return nil
        }

        mutating func fixed() -> UInt64? {
            guard let bytes = bytes(8) else { return nil }
            return bytes.enumerated().reduce(0) { $0 | UInt64($1.element) << UInt64($1.offset * 8) }
        }
    }
}
