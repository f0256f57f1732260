/// The key a uniqueness constraint's index holds for the values of its properties (FORMAT.md,
/// "Uniqueness constraints").
///
/// Each value's index key (``IndexKeyCodec``: a tag byte, then its order-preserving bytes) with
/// every `0x00` byte doubled as `0x00 0xFF`, then the terminator `0x00 0x01`: no component is a
/// prefix of another, so the joined keys are unambiguous, and they sort as the values do, first
/// property first. An object with `nil` in any of the properties has no key (it is not constrained).
package enum CompoundKeyCodec {
    /// The key of `values`, in the constraint's order.
    package static func entry(for values: [StoredValue], maxKeySize: Int) -> IndexKeyCodec.Entry {
        var key: [UInt8] = []
        var component: [UInt8] = []
        for value in values {
            component.removeAll(keepingCapacity: true)
            guard !value.isNull, IndexKeyCodec.append(value, to: &component, unique: true) else { return .none }
            for byte in component {
                key.append(byte)
                if byte == 0 { key.append(0xFF) }
            }
            key.append(0)
            key.append(1)
        }
        return key.count > maxKeySize ? .tooLarge(size: key.count) : .key(key)
    }
}

extension DatabaseNames {
    /// The index of the uniqueness constraint over the properties with IDs `ids` (in the
    /// constraint's order) of type `type`: `cidx.<Type>.<id>.<id>…`.
    package static func compoundIndex(_ type: String, propertyIDs ids: [UInt16]) -> String {
        "cidx.\(type)." + ids.map(String.init).joined(separator: ".")
    }
}
