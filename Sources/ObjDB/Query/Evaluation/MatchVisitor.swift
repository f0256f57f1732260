/// What a scan hands its matches to.
///
/// One scan loop serves every answer (a count, the keys, the first match, the least by a sort):
/// each visitor keeps only what its answer needs and says when it has enough.
protocol MatchVisitor {
    /// Whether the visitor takes more matches.
    var wantsMore: Bool { get }
    /// Takes one match; returns `false` once it has enough.
    mutating func take(key: UnsafeRawBufferPointer, record: RecordReader) -> Bool
    /// Takes one match whose record was not read (an index decided it); returns `false` once it has enough.
    mutating func take(key: UnsafeRawBufferPointer) -> Bool
    /// Told, before the first match, that at most `count` matches come, each with a key about
    /// as long as `keyLength`: room for them all at once, not by doubling.
    mutating func expect(_ count: Int, keyLength: Int)
}

extension MatchVisitor {
    mutating func expect(_ count: Int, keyLength: Int) {}
}

/// Counts matches, up to a limit.
struct MatchCounter: MatchVisitor {
    let limit: Int?
    private(set) var count = 0

    init(limit: Int?) { self.limit = limit }

    var wantsMore: Bool { limit.map { count < $0 } ?? true }

    @inline(__always)
    mutating func take(key: UnsafeRawBufferPointer, record: RecordReader) -> Bool {
        count += 1
        return wantsMore
    }

    mutating func take(key: UnsafeRawBufferPointer) -> Bool {
        count += 1
        return wantsMore
    }
}

/// Keeps matches' keys, end to end in one buffer, and their records, up to a limit.
struct FlatMatchCollector: MatchVisitor {
    let limit: Int?
    private(set) var keys = FlatKeys()
    private(set) var records: [RecordReader] = []

    init(limit: Int?) { self.limit = limit }

    var wantsMore: Bool { limit.map { keys.count < $0 } ?? true }

    @inline(__always)
    mutating func take(key: UnsafeRawBufferPointer, record: RecordReader) -> Bool {
        keys.append(key)
        records.append(record)
        return wantsMore
    }

    mutating func take(key: UnsafeRawBufferPointer) -> Bool {
        keys.append(key)
        hasEveryRecord = false
        return wantsMore
    }

    /// The matches' records, unless some match came without one.
    var keptRecords: [RecordReader]? { hasEveryRecord ? records : nil }
    private var hasEveryRecord = true

    mutating func expect(_ count: Int, keyLength: Int) {
        let count = limit.map { Swift.min($0, count) } ?? count
        guard keys.isEmpty, count > 1 else { return }
        keys.reserve(count, keyLength: keyLength)
        records.reserveCapacity(count)
    }
}

/// Keeps matches' keys and records, up to a limit.
struct MatchCollector: MatchVisitor {
    let limit: Int?
    private(set) var keys: [[UInt8]] = []
    private(set) var records: [RecordReader] = []

    init(limit: Int?) { self.limit = limit }

    var wantsMore: Bool { limit.map { keys.count < $0 } ?? true }

    @inline(__always)
    mutating func take(key: UnsafeRawBufferPointer, record: RecordReader) -> Bool {
        keys.append(Array(key))
        records.append(record)
        return wantsMore
    }

    mutating func take(key: UnsafeRawBufferPointer) -> Bool {
        keys.append(Array(key))
        hasEveryRecord = false
        return wantsMore
    }

    /// The matches' records, unless some match came without one.
    var keptRecords: [RecordReader]? { hasEveryRecord ? records : nil }
    private var hasEveryRecord = true
}
