import Foundation

/// The key a secondary index holds for a value (FORMAT.md, "Indexes").
///
/// A tag byte (``KeyEncoding/nilTag`` for `nil`, ``KeyEncoding/valueTag`` otherwise), then the
/// value's order-preserving bytes: ``KeyEncoding`` for numbers and dates, UTF-8 for strings,
/// the bytes for data, the 16 bytes of a UUID, one byte for a flag. A regular index keeps the
/// first `maxKeySize` bytes of a longer key (queries re-check the record); a unique index
/// cannot, and holds no `nil`.
package enum IndexKeyCodec {
    /// What an index holds for a value.
    package enum Entry: Equatable {
        /// The key to store under.
        case key([UInt8])
        /// The index holds nothing for the value (`nil` in a unique index, or a type no index holds).
        case none
        /// A unique index cannot hold a key this long (`size` bytes).
        case tooLarge(size: Int)
    }

    /// The index key of `value`.
    package static func entry(for value: StoredValue, unique: Bool, maxKeySize: Int) -> Entry {
        var key: [UInt8] = []
        guard append(value, to: &key, unique: unique) else { return .none }
        if key.count > maxKeySize {
            if unique { return .tooLarge(size: key.count) }
            key.removeLast(key.count - maxKeySize)
        }
        return .key(key)
    }

    /// Appends the index key of `value` to `key` without cutting it; `false` when no index holds it.
    package static func append(_ value: StoredValue, to key: inout [UInt8], unique: Bool) -> Bool {
        switch value {
        case .null:
            if unique { return false }
            key.append(KeyEncoding.nilTag)
        case .bool(let flag):
            key.append(KeyEncoding.valueTag)
            key.append(flag ? 1 : 0)
        case .int(let number):
            key.append(KeyEncoding.valueTag)
            KeyEncoding.appendInteger(number, to: &key)
        case .float(let number):
            key.append(KeyEncoding.valueTag)
            KeyEncoding.appendDouble(Double(number), to: &key)
        case .double(let number):
            key.append(KeyEncoding.valueTag)
            KeyEncoding.appendDouble(number, to: &key)
        case .date(let date):
            key.append(KeyEncoding.valueTag)
            KeyEncoding.appendDouble(date.timeIntervalSinceReferenceDate, to: &key)
        case .string(let text):
            key.append(KeyEncoding.valueTag)
            key.append(contentsOf: text.utf8)
        case .data(let data):
            key.append(KeyEncoding.valueTag)
            key.append(contentsOf: data)
        case .uuid(let uuid):
            key.append(KeyEncoding.valueTag)
            withUnsafeBytes(of: uuid.uuid) { key.append(contentsOf: $0) }
        default:
            return false
        }
        return true
    }
}
