import Foundation

/// W10 on ObjDB alone (the other engines have no notifications): per size of live results, one
/// store and one observed `Results`, then `--repetitions` rounds of timed commits and query re-runs.
struct NotificationWorkload: StandaloneWorkload {
    let name = "W10"
    let summary = [
        "ObjDB alone: commit-to-notification latency and change-set cost of a live result of",
        "10,000 and N tweets when one changes, each ÷ the time to run its query again",
    ]

    func run(_ context: WorkloadContext) throws -> WorkloadSection {
        let count = context.data.count
        let sizes = context.quick ? [1_000, 10_000] : Array(Set([min(10_000, count), count])).sorted()
        let samples = context.quick ? 5 : 10
        let largest = sizes.max()!
        let source = count >= largest ? context.data : TweetData(count: largest, queries: 0, seed: 42)
        var measurements: [NotificationMeasurement] = []
        for size in sizes {
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let benchmark = try NotificationBenchmark(size: size, source: source, directory: directory)
            defer { benchmark.close() }
            var measurement = NotificationMeasurement(objects: size, matching: benchmark.matching, samples: samples)
            for _ in 0..<context.repetitions {
                let times = try benchmark.repetition(samples: samples)
                measurement.latency.append(times.latency)
                measurement.baseline.append(times.baseline)
                measurement.rerun.append(times.rerun)
            }
            measurements.append(measurement)
        }
        return WorkloadSection(
            lines: table(measurements), results: measurements.map(\.resultLine), jsonKey: "notifications",
            json: measurements.map(\.json))
    }

    /// Per size of live results, the medians and their ratios to the query re-run.
    private func table(_ measurements: [NotificationMeasurement]) -> [String] {
        var lines = [
            "W10 notifications: one object changes in a live result (objdb only; the baseline is the same query",
            "re-run in this run), medians in µs, then ratios of times (lower is better)", "",
        ]
        let header = [
            "live result", "matching", "latency", "change set", "query re-run", "latency ÷ re-run",
            "change set ÷ re-run",
        ]
        var rows = [header]
        for measurement in measurements {
            let latency = median(measurement.latency)
            let changeSet = median(measurement.changeSet)
            let rerun = median(measurement.rerun)
            // The change set is the latency less the probe's: when the probe took longer, the
            // change set's cost is below what the run can tell apart, not negative.
            let belowNoise = changeSet <= 0
            rows.append([
                "\(measurement.objects) tweets", String(measurement.matching), String(format: "%.1f", latency * 1e6),
                belowNoise ? "< noise" : String(format: "%.1f", changeSet * 1e6), String(format: "%.1f", rerun * 1e6),
                String(format: "%.4f×", latency / rerun),
                belowNoise ? "< noise" : String(format: "%.4f×", changeSet / rerun),
            ])
        }
        lines += aligned(rows)
        return lines
    }
}

/// W10 at one size of live results: each repetition's medians, in seconds.
private struct NotificationMeasurement {
    let objects: Int
    let matching: Int
    let samples: Int
    var latency: [Double] = []
    var baseline: [Double] = []
    var rerun: [Double] = []

    /// The change set's share of the latency, per repetition: the latency less the probe's.
    var changeSet: [Double] { zip(latency, baseline).map { $0 - $1 } }

    var resultLine: String {
        let microseconds = { (values: [Double]) in String(format: "%.1f", median(values) * 1e6) }
        return "RESULT objdb W10 objects=\(objects) latency_us=\(microseconds(latency)) "
            + "change_set_us=\(microseconds(changeSet)) rerun_us=\(microseconds(rerun))"
    }

    var json: [String: Any] {
        [
            "workload": "W10", "objects": objects, "matching": matching, "samples_per_repetition": samples,
            "latency_seconds": latency, "baseline_seconds": baseline, "change_set_seconds": changeSet,
            "rerun_seconds": rerun, "latency_per_rerun": median(latency) / median(rerun),
            "change_set_per_rerun": median(changeSet) / median(rerun),
        ]
    }
}
