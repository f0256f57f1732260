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
        switch build(value, into: &key, unique: unique, maxKeySize: maxKeySize) {
        case .key: return .key(key)
        case .none: return .none
        case .tooLarge(let size): return .tooLarge(size: size)
        }
    }

    /// What ``build(_:into:unique:maxKeySize:)`` left in its buffer.
    package enum Built: Equatable {
        /// The buffer holds the key.
        case key
        /// The index holds nothing for the value.
        case none
        /// A unique index cannot hold a key this long (`size` bytes).
        case tooLarge(size: Int)
    }

    /// Builds the key ``entry(for:unique:maxKeySize:)`` gives in `key`, emptied first: a buffer
    /// reused from key to key allocates nothing.
    package static func build(_ value: StoredValue, into key: inout [UInt8], unique: Bool, maxKeySize: Int) -> Built {
        key.removeAll(keepingCapacity: true)
        guard append(value, to: &key, unique: unique) else { return .none }
        if key.count > maxKeySize {
            if unique { return .tooLarge(size: key.count) }
            key.removeLast(key.count - maxKeySize)
        }
        return .key
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

    // MARK: Typed keys into reused buffers

    /// Replaces `key`'s bytes with the index key of an integer, keeping its capacity: a buffer
    /// reused for every row allocates nothing after the first, and no `StoredValue` is made.
    package static func encode(integer value: Int64, into key: inout [UInt8]) {
        key.removeAll(keepingCapacity: true)
        key.append(KeyEncoding.valueTag)
        KeyEncoding.appendInteger(value, to: &key)
    }

    /// Replaces `key`'s bytes with the index key of a `Double`, `Float` (widened) or date
    /// (`timeIntervalSinceReferenceDate`).
    package static func encode(double value: Double, into key: inout [UInt8]) {
        key.removeAll(keepingCapacity: true)
        key.append(KeyEncoding.valueTag)
        KeyEncoding.appendDouble(value, to: &key)
    }

    /// Replaces `key`'s bytes with the index key of a flag.
    package static func encode(bool value: Bool, into key: inout [UInt8]) {
        key.removeAll(keepingCapacity: true)
        key.append(KeyEncoding.valueTag)
        key.append(value ? 1 : 0)
    }

    /// Replaces `key`'s bytes with the index key of a `String`, `Data` or `UUID` whose bytes are
    /// `bytes` (a string's UTF-8, straight from a record), cut to `maxKeySize` bytes in all as a
    /// regular index keeps it; `false` (and `key` the uncut key) when a unique index cannot hold it.
    @discardableResult
    package static func encode(
        bytes: UnsafeRawBufferPointer, into key: inout [UInt8], unique: Bool, maxKeySize: Int
    ) -> Bool {
        key.removeAll(keepingCapacity: true)
        key.append(KeyEncoding.valueTag)
        if bytes.count + 1 > maxKeySize {
            if unique {
                key.append(contentsOf: bytes)
                return false
            }
            key.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[0..<max(0, maxKeySize - 1)]))
            return true
        }
        key.append(contentsOf: bytes)
        return true
    }

    /// Replaces `key`'s bytes with the index key of `nil` (a regular index's; a unique one holds none).
    package static func encodeNil(into key: inout [UInt8]) {
        key.removeAll(keepingCapacity: true)
        key.append(KeyEncoding.nilTag)
    }
}
