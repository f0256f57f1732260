/// What one write transaction did to objects, gathered as it happens and stored in the
/// change log when it commits.
///
/// Entries are appended as bytes, in the order the writes happened, so recording costs
/// a copy of the key and no hashing; readers fold them (``ChangeSet``). A type that
/// changes more than ``maximumEntries`` objects in one write is recorded as changed
/// wholesale instead: its observers then compare whole results, which for a change that
/// large costs no more than reading the change.
struct ChangeRecorder {
    /// The most objects of one type a write lists before the log calls the type changed wholesale.
    static let maximumEntries = 10_000

    private(set) var types: [String: RecordedTypeChanges] = [:]
    /// Whether to record: only while someone watches the store (``ChangeWatch``).
    var isEnabled = true

    var isEmpty: Bool { types.isEmpty }

    mutating func recordInsertion(of key: UnsafeRawBufferPointer, in type: String) {
        append(.inserted, key: key, properties: [], in: type)
    }

    mutating func recordModification(of key: UnsafeRawBufferPointer, properties: [UInt16], in type: String) {
        append(.modified, key: key, properties: properties, in: type)
    }

    mutating func recordDeletion(of key: UnsafeRawBufferPointer, in type: String) {
        append(.deleted, key: key, properties: [], in: type)
    }

    /// Where the recording stands, to return to when a nested write rolls back: each type's
    /// entry count and length (not a copy, which would make a batch of k writes cost O(k²)).
    var checkpoint: [String: RecordedTypeChanges.Mark] { types.mapValues(\.mark) }

    mutating func rollBack(to checkpoint: [String: RecordedTypeChanges.Mark]) {
        for name in Array(types.keys) {
            if let mark = checkpoint[name] { types[name]!.truncate(to: mark) } else { types[name] = nil }
        }
    }

    mutating func removeAll() {
        types = [:]
    }

    private mutating func append(
        _ kind: ObjectChangeKind, key: UnsafeRawBufferPointer, properties: [UInt16], in type: String
    ) {
        guard isEnabled else { return }
        types[type, default: RecordedTypeChanges()].append(kind, key: key, properties: properties)
    }
}

/// The entries one write recorded for one type, in the log's byte format.
struct RecordedTypeChanges: Equatable {
    /// Entries, each `kind u8, key length u16 LE, key, [property count u16 LE, ids u16 LE…]`.
    private(set) var entries: [UInt8] = []
    private(set) var count = 0
    /// Whether the type changed too much to list: every object may have changed.
    private(set) var isWholesale = false

    mutating func append(_ kind: ObjectChangeKind, key: UnsafeRawBufferPointer, properties: [UInt16]) {
        guard !isWholesale else { return }
        guard count < ChangeRecorder.maximumEntries, key.count <= Int(UInt16.max) else {
            markWholesale()
            return
        }
        ChangeLogCodec.appendEntry(kind, key: key, properties: properties, to: &entries)
        count += 1
    }

    /// How far the entries went at some moment.
    struct Mark {
        let count: Int
        let length: Int
        let isWholesale: Bool
    }

    var mark: Mark { Mark(count: count, length: entries.count, isWholesale: isWholesale) }

    /// Drops the entries after `mark`. A type that turned wholesale since stays wholesale: its
    /// entries are gone, and reporting too much is safe where too little is not.
    mutating func truncate(to mark: Mark) {
        guard !isWholesale else { return }
        entries.removeLast(entries.count - mark.length)
        count = mark.count
    }

    mutating func markWholesale() {
        isWholesale = true
        entries = []
        count = 0
    }
}

/// What happened to one object in one logged write.
typealias ObjectChangeKind = ChangeLogCodec.ChangeKind
