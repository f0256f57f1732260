/// The change log: for each commit, which objects of which types it inserted, modified
/// (and in which properties) or deleted.
///
/// It lives in the named database `objdb.changes`, keyed by the commit's transaction ID
/// (8 bytes, big-endian), and is written in the same LMDB transaction as the objects, so
/// it is exactly as durable as they are. Observers read the entries between the version
/// they last saw and the new one, so a change set costs in proportion to the change.
///
/// Entries no open read transaction can need (every reader, in every process, reads a
/// version at or past them) are trimmed every ``trimInterval`` commits. The meta key
/// `changes.from` holds the version after which the log is complete; a reader older than
/// that must compare whole results instead. See docs/FORMAT.md.
enum ChangeLog {
    /// The named database holding the log.
    static let databaseName = DatabaseNames.changes
    /// The meta key of the version after which the log lists every commit.
    static let completeAfterKey = MetaKeys.changesCompleteAfter
    /// How often (in versions) a commit trims the log.
    static let trimInterval = 16

    /// Stores what `recorder` holds as the entry of the committing write `transaction`, and
    /// trims the log when it is due.
    static func write(
        _ recorder: ChangeRecorder, in transaction: Transaction, log: DatabaseHandle, meta: DatabaseHandle
    )
        throws
    {
        let version = UInt64(transaction.id)
        if !recorder.isEmpty {
            let key = encodeVersion(version)
            let value = encode(recorder)
            try key.withUnsafeBytes { key in
                try value.withUnsafeBytes { _ = try transaction.put($0, forKey: key, in: log, options: .append) }
            }
        }
        if version % UInt64(trimInterval) == 0 {
            try trim(in: transaction, log: log, meta: meta)
        }
    }

    /// Declares the log incomplete up to and including `transaction`'s version: observers
    /// older than it compare whole results (after a migration rewrote records).
    static func markIncomplete(in transaction: Transaction, meta: DatabaseHandle) throws {
        try setCompleteAfter(UInt64(transaction.id), in: transaction, meta: meta)
    }

    /// The folded changes of every commit after `version` up to the version `transaction` reads,
    /// or `nil` when the log no longer (or never did) cover them all, or an entry is damaged.
    static func changes(after version: Int, in transaction: Transaction, log: DatabaseHandle, meta: DatabaseHandle)
        throws -> ChangeSet?
    {
        guard try completeAfter(in: transaction, meta: meta) <= UInt64(max(version, 0)) else { return nil }
        var set = ChangeSet()
        let start = encodeVersion(UInt64(version) + 1)
        let cursor = try transaction.cursor(log)
        var intact = true
        var entry = try start.withUnsafeBytes { try cursor.seek(atLeast: $0) }
        while let current = entry {
            if !decode(current.value, into: &set) {
                intact = false
                break
            }
            entry = try cursor.next()
        }
        return intact ? set : nil
    }

    /// Whether the log holds an entry of the commit that made `version`: proof that the commit
    /// logged its changes, since a write logs all of them or none (an empty one writes no entry).
    static func hasEntry(of version: Int, in transaction: Transaction, log: DatabaseHandle) throws -> Bool {
        try encodeVersion(UInt64(version)).withUnsafeBytes { try transaction.get($0, in: log) } != nil
    }

    /// The version after which the log is complete.
    static func completeAfter(in transaction: Transaction, meta: DatabaseHandle) throws -> UInt64 {
        let stored = try completeAfterKey.withUnsafeBytes { try transaction.get($0, in: meta) }
        return stored.flatMap(MetaKeys.decode) ?? 0
    }

    /// The number of entries in the log, and the oldest one's version.
    static func extent(in transaction: Transaction, log: DatabaseHandle) throws -> (entries: Int, oldest: Int?) {
        let entries = try transaction.statistics(of: log).entries
        let first = try transaction.cursor(log).first()
        return (entries, first.flatMap { decodeVersion($0.key) }.map(Int.init))
    }

    // MARK: - Trimming

    /// Deletes the entries at or before the oldest version any reader reads.
    private static func trim(in transaction: Transaction, log: DatabaseHandle, meta: DatabaseHandle) throws {
        // An empty log (nobody watches) has nothing to trim: skip reading the reader table.
        guard try transaction.statistics(of: log).entries > 0 else { return }
        let readers = try transaction.environment.info().readers.map(\.transactionID)
        // No reader: nothing older than the commit being written can be needed.
        let oldestNeeded = UInt64(readers.min() ?? (transaction.id - 1))
        let cursor = try transaction.cursor(log)
        var trimmedThrough: UInt64?
        while let first = try cursor.first(), let version = decodeVersion(first.key), version <= oldestNeeded {
            try cursor.deleteCurrent()
            trimmedThrough = version
        }
        if trimmedThrough != nil, try completeAfter(in: transaction, meta: meta) < oldestNeeded {
            try setCompleteAfter(oldestNeeded, in: transaction, meta: meta)
        }
    }

    private static func setCompleteAfter(_ version: UInt64, in transaction: Transaction, meta: DatabaseHandle) throws {
        let value = MetaKeys.encode(version)
        try completeAfterKey.withUnsafeBytes { key in
            try value.withUnsafeBytes { _ = try transaction.put($0, forKey: key, in: meta) }
        }
    }

    // MARK: - Encoding

    static func encodeVersion(_ version: UInt64) -> [UInt8] {
        ChangeLogCodec.key(version: version)
    }

    static func decodeVersion(_ bytes: UnsafeRawBufferPointer) -> UInt64? {
        ChangeLogCodec.version(ofKey: bytes)
    }

    static func encode(_ recorder: ChangeRecorder) -> [UInt8] {
        ChangeLogCodec.value(
            recorder.types.map {
                (name: $0.key, isWholesale: $0.value.isWholesale, count: $0.value.count, entries: $0.value.entries)
            })
    }

    static func decode(_ value: UnsafeRawBufferPointer, into set: inout ChangeSet) -> Bool {
        ChangeLogCodec.forEachType(in: value) { type in
            var changes = set.types[type.typeName] ?? TypeChangeSet()
            if type.isWholesale {
                changes.isWholesale = true
            } else {
                let intact = ChangeLogCodec.forEachEntry(in: type.entries, count: type.count) { kind, key, properties in
                    changes.fold(kind, key: Array(key), properties: properties)
                }
                guard intact else { return false }
            }
            set.types[type.typeName] = changes
            return true
        }
    }
}
