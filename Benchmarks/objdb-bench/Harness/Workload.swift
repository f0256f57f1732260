/// One engine's implementation of the benchmark's workloads, each on a fresh store.
protocol BenchmarkEngine: AnyObject {
    /// The name printed in the table and the JSON report.
    var name: String { get }
    /// Creates an empty store in `directory`.
    func open(directory: String) throws
    /// Inserts every record in one transaction, in the order given.
    func bulkInsert(_ records: RecordSet) throws
    /// Reads the value of each key in one read transaction; returns a checksum of the bytes read.
    func pointReads(_ keys: [UInt64]) throws -> UInt64
    /// Closes the store.
    func close()
}

/// The records every engine stores: 8-byte big-endian keys in random order, fixed-size values.
struct RecordSet {
    let keys: [UInt64]
    let valueSize: Int

    init(count: Int, valueSize: Int, seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        keys = (0..<UInt64(count)).map { $0 }.shuffled(using: &generator)
        self.valueSize = valueSize
    }

    /// The value stored under `key`: deterministic, so reads can be checked across engines.
    func value(for key: UInt64, into buffer: UnsafeMutableRawBufferPointer) {
        var state = key &* 0x9E37_79B9_7F4A_7C15
        for index in 0..<buffer.count {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            buffer[index] = UInt8(truncatingIfNeeded: state >> 56)
        }
    }
}

/// A small, fast, seeded generator, so every run and engine sees the same data.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Keys are stored big-endian so byte order is numeric order.
@inline(__always)
func withKeyBytes<R>(_ key: UInt64, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    try withUnsafeBytes(of: key.bigEndian, body)
}
