/// The scan: the one loop every run of a query goes through, walking the plan's access path and
/// testing each candidate against what the path leaves undecided.
extension PreparedQuery {
    /// Tests every candidate the plan yields and hands each match to `visitor`, in the plan's
    /// order, until the visitor has enough.
    func scan<Visitor: MatchVisitor>(_ reader: QueryReader, _ visitor: inout Visitor) throws {
        QueryInstrumentation.current?.count(.scan)
        guard let table = binding.table, visitor.wantsMore else { return }
        let (plan, residual) = try runPlan(reader)
        try withExtendedLifetime(residual) {
            try scan(reader, plan: plan, runner: residual?.runner, table: table, &visitor)
        }
    }

    /// The scan proper; `runner` (the residual filter's) stays valid while the caller keeps it alive.
    private func scan<Visitor: MatchVisitor>(
        _ reader: QueryReader, plan: QueryPlan, runner: FilterProgram.Runner?, table: DatabaseHandle,
        _ visitor: inout Visitor
    ) throws {
        let transaction = reader.source.transaction
        let binding = self.binding
        let budget = reader.budget
        try budget?.check()

        /// Tests one candidate with `test`; `false` once the visitor has enough.
        @inline(__always)
        func consider<Test: RowTest>(
            _ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer, _ test: Test
        ) throws -> Bool {
            try budget?.spend()
            let record = try reader.record(value, of: binding)
            guard try test.matches(record, key: key, in: reader) else { return true }
            return visitor.take(key: key, record: record)
        }
        /// Tests one candidate with the residual filter; `false` once the visitor has enough.
        @inline(__always)
        func consider(_ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) throws -> Bool {
            try consider(key, value, ProgramTest(runner: runner))
        }
        /// Tests every record of the table with `test`, in key order.
        func walkTable<Test: RowTest>(_ test: Test) throws {
            let cursor = try transaction.cursor(table)
            var entry = try cursor.first()
            var page = CachePrefetch.PageTracker()
            while let current = entry {
                page.enter(current.value)
                guard try consider(current.key, current.value, test) else { break }
                entry = try cursor.next()
            }
        }

        // Only several lookups can meet an object twice: an index lists each object once. (A
        // constant reference, not a captured `var`: that would cost an access check per row.)
        let seen: SeenKeys?
        switch plan {
        case .indexLookup(_, let keys) where keys.count > 1, .primaryKeyLookup(let keys) where keys.count > 1:
            seen = SeenKeys()
        default: seen = nil
        }
        func considerKey(_ key: UnsafeRawBufferPointer) throws -> Bool {
            if let seen, !seen.insert(key) { return true }
            guard let record = try transaction.get(key, in: table) else { return true }
            return try consider(key, record)
        }

        switch plan {
        case .fullScan:
            // A filter of one `CONTAINS[c]` runs without the program's loop, which took a tenth
            // of a scan of tweets for a word.
            if let runner, let text = runner.soleContains {
                try walkTable(SoleContainsTest(runner: runner, search: text))
            } else {
                try walkTable(ProgramTest(runner: runner))
            }
        case .primaryKeyRange(let lower, let upper):
            try transaction.cursor(table).forEach(from: lower, to: upper) { try consider($0.key, $0.value) }
        case .primaryKeyLookup(let keys):
            for key in keys where try !key.withUnsafeBytes({ try considerKey($0) }) { break }
        case .indexLookup(let property, let indexKeys):
            guard let index = property.index else { break }
            let cursor = try transaction.cursor(index)
            lookups: for indexKey in indexKeys {
                var entry = try indexKey.withUnsafeBytes { try cursor.seek(exactly: $0) }
                // With nothing left to test, each of the key's entries is a match (LMDB keeps
                // their number): the answer's arrays are sized once, not grown by doubling.
                if runner == nil, indexKeys.count == 1, index.options.contains(.duplicateSort), let first = entry {
                    visitor.expect(try cursor.valueCount(), keyLength: first.value.count)
                }
                while let current = entry {
                    guard try considerKey(current.value) else { break lookups }
                    entry = try cursor.nextValueOfKey()
                }
            }
        case .compoundLookup(let compound, let indexKeys):
            guard let index = compound.index else { break }
            for indexKey in indexKeys {
                guard let holder = try indexKey.withUnsafeBytes({ try transaction.get($0, in: index) }) else {
                    continue
                }
                guard try considerKey(holder) else { break }
            }
        case .indexRange(let property, let lower, let upper):
            guard let index = property.index else { break }
            try transaction.cursor(index).forEach(from: lower, to: upper) { try considerKey($0.value) }
        case .fullText(let property, let search):
            guard
                let searcher = FullTextSearcher(
                    transaction: transaction, property: property,
                    kind: PostingCodec.KeyKind.forPrimaryKey(binding.primaryKey?.schema.type))
            else { break }
            let keys = try searcher.keys(matching: search)
            // With nothing left to test, the index's answer is the answer: no record is read.
            if runner == nil {
                visitor.expect(keys.count, keyLength: keys.isEmpty ? 0 : keys.withKey(at: 0) { $0.count })
            }
            // The candidates come in key order: one cursor goes from each to the next, and LMDB
            // looks on the page it stands on before descending from the root.
            let records = runner == nil ? nil : try transaction.cursor(table)
            for position in 0..<keys.count {
                let more = try keys.withKey(at: position) { key in
                    guard let records else { return visitor.take(key: key) }
                    guard let found = try records.seek(exactly: key) else { return true }
                    return try consider(key, found.value)
                }
                if !more { break }
            }
        case .indexOrder(let property, let descending):
            guard let index = property.index else { break }
            let cursor = try transaction.cursor(index)
            guard descending else {
                var entry = try cursor.first()
                while let current = entry, try considerKey(current.value) {
                    entry = try cursor.next()
                }
                break
            }
            // Keys in descending order, but each key's objects in ascending key order, as a stable
            // in-memory sort would leave ties.
            // (MDB_SET_KEY, not MDB_FIRST_DUP, repositions: after MDB_LAST the cursor is at its end.)
            var entry = try cursor.last()
            walk: while let group = entry {
                let key = Array(group.key)
                var value = try key.withUnsafeBytes { try cursor.seek(exactly: $0) }
                while let current = value {
                    guard try considerKey(current.value) else { break walk }
                    value = try cursor.nextValueOfKey()
                }
                _ = try key.withUnsafeBytes { try cursor.seek(exactly: $0) }
                entry = try cursor.previousKey()
            }
        }
    }
}

/// The keys a scan of several lookups has met.
private final class SeenKeys {
    private var keys = Set<[UInt8]>()

    /// Whether `key` is new; it is met from now on.
    func insert(_ key: UnsafeRawBufferPointer) -> Bool { keys.insert(Array(key)).inserted }
}

/// What a scan tests each record with: a protocol, so that each kind of test gets a scan of
/// its own, compiled with the test in line.
protocol RowTest {
    /// Whether the object whose record is `record` and whose table key is `key` matches.
    func matches(_ record: RecordReader, key: UnsafeRawBufferPointer, in reader: QueryReader) throws -> Bool
}

/// A filter program's test; every record matches when there is none.
private struct ProgramTest: RowTest {
    let runner: FilterProgram.Runner?

    @inline(__always)
    func matches(_ record: RecordReader, key: UnsafeRawBufferPointer, in reader: QueryReader) throws -> Bool {
        try runner?.matches(record, key: key, in: reader) ?? true
    }
}

/// The one `CONTAINS[c]` test of a filter program (``FilterProgram/Runner/soleContains``).
private struct SoleContainsTest: RowTest {
    let runner: FilterProgram.Runner
    let search: FilterProgram.ContainsScan

    @inline(__always)
    func matches(_ record: RecordReader, key: UnsafeRawBufferPointer, in reader: QueryReader) -> Bool {
        runner.matches(record, search)
    }
}
