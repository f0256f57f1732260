/// One stored object as the evaluator sees it: its record and its table key, in the map.
struct QueryRow {
    let reader: RecordReader
    let key: UnsafeRawBufferPointer
}

/// A compiled filter: true when the row matches. Built once per evaluation; it
/// allocates nothing per row except where a comparison needs folded strings
/// (`[c]`, `[d]`, `LIKE`) or a collection of linking objects.
typealias RowMatcher = (QueryRow) -> Bool

/// A test of one non-nil value's stored bytes, and what a nil value gives.
struct ValueMatcher {
    let matches: (UnsafeRawBufferPointer) -> Bool
    let nilOutcome: Bool
}
