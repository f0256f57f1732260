/// Table keys stored end to end in one byte array: a query's answer costs two arrays, however
/// many keys it has, where an array per key cost an allocation and a free per match (W5 in
/// docs/BENCHMARKS.md).
struct FlatKeys: Sendable {
    private var bytes: [UInt8] = []
    /// Where each key ends in `bytes`.
    private var ends: [Int] = []

    init() {}

    var count: Int { ends.count }
    var isEmpty: Bool { ends.isEmpty }

    /// Adds a copy of `key` at the end.
    @inline(__always)
    mutating func append(_ key: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: key)
        ends.append(bytes.count)
    }

    /// Makes room for `count` more keys of about `keyLength` bytes each. Called chunk by chunk,
    /// it still grows by doubling: `reserveCapacity` allocates exactly what it is asked for, so
    /// asking for a little more each time copied the whole buffer each time (quadratic).
    mutating func reserve(_ count: Int, keyLength: Int) {
        let byteCount = bytes.count + count * keyLength
        if byteCount > bytes.capacity { bytes.reserveCapacity(Swift.max(byteCount, bytes.capacity * 2)) }
        let keyCount = ends.count + count
        if keyCount > ends.capacity { ends.reserveCapacity(Swift.max(keyCount, ends.capacity * 2)) }
    }

    /// Runs `body` on the bytes of the key at `index`, in place.
    @inline(__always)
    func withKey<Result>(at index: Int, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        let range = self.range(of: index)
        return try bytes.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[range])) }
    }

    /// A copy of the key at `index`.
    subscript(index: Int) -> [UInt8] {
        Array(bytes[range(of: index)])
    }

    /// Copies of the keys at `range`.
    func keys(_ range: Range<Int>) -> [[UInt8]] {
        range.map { self[$0] }
    }

    @inline(__always)
    private func range(of index: Int) -> Range<Int> {
        (index == 0 ? 0 : ends[index - 1])..<ends[index]
    }
}
