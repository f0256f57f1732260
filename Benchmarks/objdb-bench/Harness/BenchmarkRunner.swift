import Foundation

/// Runs every workload on every engine, interleaved: each repetition runs all
/// engines back to back (in rotating order), so drift in the machine's speed
/// falls on all of them alike.
struct BenchmarkRunner {
    let engines: [any BenchmarkEngine]
    let count: Int
    let repetitions: Int

    static let workloads = ["W1 bulk insert", "W4 point reads"]

    func run() throws -> [Measurement] {
        let records = RecordSet(count: count, valueSize: 100, seed: 42)
        var generator = SplitMix64(seed: 7)
        let readKeys = (0..<count).map { _ in UInt64.random(in: 0..<UInt64(count), using: &generator) }

        var measurements: [String: Measurement] = [:]
        func record(_ engine: String, _ workload: String, _ seconds: Double) {
            let key = engine + "/" + workload
            measurements[key, default: Measurement(engine: engine, workload: workload, operations: count)]
                .seconds.append(seconds)
        }

        for repetition in 0..<repetitions {
            var checksums: [String: UInt64] = [:]
            let order = engines.indices.map { engines[($0 + repetition) % engines.count] }
            for engine in order {
                let directory = FileManager.default.temporaryDirectory
                    .appendingPathComponent("objdb-bench-\(UUID().uuidString)").path
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                defer { try? FileManager.default.removeItem(atPath: directory) }
                try engine.open(directory: directory)
                defer { engine.close() }

                record(engine.name, Self.workloads[0], try measure { try engine.bulkInsert(records) })
                var checksum: UInt64 = 0
                record(engine.name, Self.workloads[1], try measure { checksum = try engine.pointReads(readKeys) })
                blackHole(checksum)
                checksums[engine.name] = checksum
            }
            if Set(checksums.values).count > 1 {
                throw BenchmarkFailure.disagreement(workload: Self.workloads[1], detail: "checksums \(checksums)")
            }
        }
        return Self.workloads.flatMap { workload in
            engines.compactMap { measurements[$0.name + "/" + workload] }
        }
    }
}

/// The human table, then one `RESULT engine workload ops_per_s` line per measurement.
func report(_ measurements: [Measurement], baseline: String) -> String {
    var lines = [
        "workload          engine          median ops/s   vs \(baseline)",
        String(repeating: "-", count: 58),
    ]
    for measurement in measurements {
        let base = measurements.first { $0.workload == measurement.workload && $0.engine == baseline }
        let ratio = base.map { String(format: "%.2f×", measurement.medianThroughput / $0.medianThroughput) } ?? "—"
        lines.append(
            measurement.workload.padding(toLength: 18, withPad: " ", startingAt: 0)
                + measurement.engine.padding(toLength: 16, withPad: " ", startingAt: 0)
                + String(format: "%12.0f", measurement.medianThroughput) + "   " + ratio)
    }
    lines.append("")
    for measurement in measurements {
        lines.append(
            "RESULT \(measurement.engine) \(measurement.workload.split(separator: " ")[0]) "
                + String(format: "%.0f", measurement.medianThroughput))
    }
    return lines.joined(separator: "\n")
}

func jsonReport(_ measurements: [Measurement], count: Int, repetitions: Int) throws -> Data {
    let entries: [[String: Any]] = measurements.map {
        [
            "engine": $0.engine, "workload": $0.workload, "operations": $0.operations,
            "seconds": $0.seconds, "median_ops_per_second": $0.medianThroughput,
        ]
    }
    let document: [String: Any] = ["count": count, "repetitions": repetitions, "measurements": entries]
    return try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys])
}
