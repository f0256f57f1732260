/// Bytes written as hex, as docs/FORMAT.md shows them: `hex("01 0A")` is `[0x01, 0x0A]`.
func hex(_ text: String) -> [UInt8] {
    text.split(separator: " ").map { UInt8($0, radix: 16)! }
}

/// Whether `keys` are in strictly increasing bytewise order, as LMDB orders keys.
func isSortedBytewise(_ keys: [[UInt8]]) -> Bool {
    zip(keys, keys.dropFirst()).allSatisfy { $0.lexicographicallyPrecedes($1) }
}
