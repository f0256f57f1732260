import Synchronization

/// How a query reads records: through a ``RecordSource``, and what a damaged record becomes.
///
/// Throwing paths (the dynamic API, aggregates, the notifier's differ) throw
/// ``ObjDBError/corruptRecord(path:type:reason:)`` for a damaged record. The paths that cannot
/// throw (a `Results`' `count` and elements) read it as typed getters do: as a record whose every
/// field is missing, so its properties read as zero values; the fault goes once to the store's
/// `Configuration.faultHandler`, and `objdb-inspect check` lists it.
struct QueryReader {
    let source: RecordSource
    /// Whether a damaged record reads as an empty one instead of throwing.
    let readsDamagedAsEmpty: Bool
    /// The deadline the evaluation spends, one step per object read; `nil` for none.
    var budget: QueryBudget? = nil

    var catalog: StoreCatalog { source.catalog }

    /// The record of the object `key` of `binding`'s type, or `nil` when there is none.
    @inline(__always)
    func record(in binding: TypeBinding, key: UnsafeRawBufferPointer) throws -> RecordReader? {
        try budget?.spend()
        do {
            return try source.record(in: binding, key: key)
        } catch let error as ObjDBError where error.code == .corruptRecord && readsDamagedAsEmpty {
            catalog.faults.report(error)
            return RecordReader.empty
        }
    }

    /// The record in `bytes`, a value of `binding`'s table.
    @inline(__always)
    func record(_ bytes: UnsafeRawBufferPointer, of binding: TypeBinding) throws -> RecordReader {
        if let reader = RecordReader(header: bytes) { return reader }
        return try damaged(binding.schema.name)
    }

    /// What a damaged record of `type` reads as, or the error.
    func damaged(_ type: String) throws -> RecordReader {
        let error = ObjDBError.corruptRecord(path: catalog.path, type: type, reason: "its slot table is inconsistent")
        guard readsDamagedAsEmpty else { throw error }
        catalog.faults.report(error)
        return RecordReader.empty
    }

    /// The links to the object `key` of `binding`'s type.
    func incomingLinks(to key: UnsafeRawBufferPointer, in binding: TypeBinding) throws -> [BacklinkCodec.Source] {
        try budget?.spend()
        do {
            return try source.incomingLinks(to: key, in: binding)
        } catch let error as ObjDBError where error.code == .corruptRecord && readsDamagedAsEmpty {
            catalog.faults.report(error)
            return []
        }
    }
}

/// Counts of the work queries do, for tests that check it is not repeated.
///
/// ```swift
/// let counter = QueryInstrumentation()
/// try QueryInstrumentation.$current.withValue(counter) { _ = results.count; _ = results.count }
/// #expect(counter[.scan] == 1)
/// ```
final class QueryInstrumentation: Sendable {
    enum Event: Hashable, Sendable {
        /// A filter compiled.
        case compilation
        /// A query ran over its candidates.
        case scan
    }

    /// The counter of the current task, if a test set one.
    @TaskLocal static var current: QueryInstrumentation?

    private let counts = Mutex<[Event: Int]>([:])

    func count(_ event: Event) {
        counts.withLock { $0[event, default: 0] += 1 }
    }

    subscript(event: Event) -> Int {
        counts.withLock { $0[event, default: 0] }
    }
}
