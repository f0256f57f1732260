/// The times one engine took for one workload across repetitions.
struct Measurement {
    let engine: String
    let workload: String
    let operations: Int
    var seconds: [Double] = []

    /// Operations per second at the median repetition.
    var medianThroughput: Double {
        let sorted = seconds.sorted()
        let middle = sorted.count / 2
        let median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        return Double(operations) / median
    }
}

/// Times `body` with the monotonic clock, in seconds.
func measure(_ body: () throws -> Void) rethrows -> Double {
    let clock = ContinuousClock()
    let elapsed = try clock.measure(body)
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

/// Keeps the optimizer from deleting work whose result is otherwise unused.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
