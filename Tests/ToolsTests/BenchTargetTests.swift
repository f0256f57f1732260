import TestSupport
import Testing

@Suite("objdb-bench --check-targets")
struct BenchTargetTests {
    @Test func exitsWith1ExactlyWhenItNamesAWorkloadBelowTarget() throws {
        let result = try run(
            "objdb-bench", ["--count", "1000", "--repetitions", "1", "--workloads", "W1,W4", "--check-targets"])
        let below = result.output.split(separator: "\n").filter { $0.hasSuffix("BELOW") }
        let named = Set(below.compactMap { $0.split(separator: " ").first.map(String.init) })
        #expect(result.output.contains("target (issue #26)"))
        #expect(result.output.contains("not measured in this run: W2, W2c-async, W3-fresh, W3, W5, W6, W7, W8"))
        if named.isEmpty {
            #expect(result.status == 0, "\(result.error)")
            #expect(result.output.contains("every measured target is met"))
        } else {
            #expect(result.status == 1, "\(result.error)")
            let summary = result.error.split(separator: "\n").first { $0.contains("below target:") } ?? ""
            for workload in named { #expect(summary.contains(workload), "\(workload) in \(summary)") }
        }
    }

    @Test func aGrowthRunBelow10To5ListsThePointReadTargetAsNotMeasured() throws {
        let result = try run("objdb-bench", ["--growth", "--growth-max", "10000", "--check-targets"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("objdb's growth 10^5 → 10^7 ÷ raw-lmdb's"))
        #expect(result.output.contains("not measured in this run: W4"))
    }
}
