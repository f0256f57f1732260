import CBaselines

/// Calls a function of the C baselines, and throws the reason it wrote when it fails.
func callBaseline(_ engine: String, _ body: (inout bench_error) -> Int32) throws {
    var error = bench_error()
    guard body(&error) == 0 else { throw BenchmarkFailure.engine(engine, error.text) }
}

extension bench_error {
    /// The reason a failed C call wrote.
    var text: String {
        withUnsafeBytes(of: message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}

extension Census {
    init(_ census: bench_census) {
        self.init(rows: Int(census.rows), indexEntries: Int(census.index_entries), retweetSum: Int(census.retweet_sum))
    }
}
