/// A query's matches read one at a time from a cursor, for a loop over results whose order is
/// the table's: the walk holds one key and one record, not every key (issue #26: reading every
/// object of a type keeps the heap as it was, whatever the store's size).
///
/// It reads the version the loop began in, as a walk over keys read up front does. When the
/// snapshot is about to let go of that version (the loop writes, or refreshes the view), the
/// stream first reads the keys of the matches left into one buffer, and the walk reads each of
/// those objects as it is now: what the loop would have met had it read every key up front.
final class ScanStream: TransactionDependent {
    private let query: PreparedQuery
    private let snapshot: Snapshot
    private var cursor: Cursor?
    private var reader: QueryReader?
    private var started = false
    private var page = CachePrefetch.PageTracker()
    /// The keys of the matches left when the transaction ended, end to end, and where each ends.
    private var rest = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    private var restEnds: [Int] = []
    private var restPosition = 0

    /// A stream over `query`'s matches in `snapshot`'s current read transaction, or `nil` when
    /// the query cannot stream (a sort, `distinct`, a limit, or a plan not in table order) or
    /// the snapshot is writing.
    init?(query: PreparedQuery, snapshot: Snapshot) {
        guard query.streamsInTableOrder, !snapshot.isWriting, let table = query.binding.table else { return nil }
        do {
            let source = try snapshot.source()
            cursor = try source.transaction.cursor(table)
            reader = QueryReader(source: source, readsDamagedAsEmpty: true)
        } catch {
            return nil
        }
        self.query = query
        self.snapshot = snapshot
        snapshot.addDependent(self)
    }

    /// The next match's table key and, while the loop's version lasts, its record (both valid
    /// until the next call), or `nil` at the end. A damaged record reads as an empty one; a fault
    /// that stops the read is reported, and ends the stream.
    func next() -> (key: UnsafeRawBufferPointer, record: RecordReader?)? {
        guard cursor != nil else { return nextOfRest() }
        do {
            if let match = try nextMatch() { return (match.key, match.record) }
        } catch {
            snapshot.report(error)
        }
        close()
        return nil
    }

    deinit {
        rest.deallocate()
    }

    func transactionWillEnd() {
        guard cursor != nil else { return }
        var keys: [UInt8] = []
        do {
            while let match = try nextMatch() {
                keys.append(contentsOf: match.key)
                restEnds.append(keys.count)
            }
        } catch {
            snapshot.report(error)
        }
        close()
        rest = .allocate(byteCount: keys.count, alignment: 1)
        rest.copyBytes(from: keys)
    }

    private func nextMatch() throws -> (key: UnsafeRawBufferPointer, record: RecordReader)? {
        guard let cursor, let reader else { return nil }
        var entry = try started ? cursor.next() : cursor.first()
        started = true
        while let current = entry {
            page.enter(current.value)
            let record = try reader.record(current.value, of: query.binding)
            if try query.matchesFilter(record, key: current.key, reader) { return (current.key, record) }
            entry = try cursor.next()
        }
        return nil
    }

    private func nextOfRest() -> (key: UnsafeRawBufferPointer, record: RecordReader?)? {
        guard restPosition < restEnds.count else { return nil }
        let start = restPosition == 0 ? 0 : restEnds[restPosition - 1]
        let end = restEnds[restPosition]
        restPosition += 1
        return (UnsafeRawBufferPointer(rebasing: rest[start..<end]), nil)
    }

    /// Closes the cursor while its transaction is open, and lets go of the transaction.
    private func close() {
        cursor = nil
        reader = nil
    }
}

extension PreparedQuery {
    /// Whether the matches come straight from a walk of the table in key order, with nothing
    /// that needs them all first (a sort, `distinct`, a limit, a ranking).
    var streamsInTableOrder: Bool {
        guard case .fullScan = plan, alternatives.isEmpty else { return false }
        return spec.sorts.isEmpty && spec.distinctPaths.isEmpty && spec.limit == nil && spec.then.isEmpty
            && spec.ranking == nil
    }
}
