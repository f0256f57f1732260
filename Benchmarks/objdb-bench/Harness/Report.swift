import Foundation

/// The measurements of one run, and how they print.
struct Report {
    let count: Int
    let repetitions: Int
    private(set) var measurements: [String: Measurement] = [:]
    var fileSizes: [String: [Int]] = [:]

    struct Measurement {
        let engine: String
        let workload: String
        let operations: Int
        var seconds: [Double] = []

        /// Operations per second at the median repetition.
        var medianThroughput: Double { Double(operations) / median(seconds) }
    }

    /// W10 at one size of live results: each repetition's medians, in seconds.
    struct NotificationMeasurement {
        let objects: Int
        let matching: Int
        let samples: Int
        var latency: [Double] = []
        var baseline: [Double] = []
        var rerun: [Double] = []

        /// The change set's share of the latency, per repetition: the latency less the probe's.
        var changeSet: [Double] { zip(latency, baseline).map { $0 - $1 } }
    }

    private(set) var notifications: [Int: NotificationMeasurement] = [:]

    static let titles = [
        "W1": "bulk insert", "W2": "durable, 1 writer", "W2c": "durable, 8 writers",
        "W2c-async": "durable, 8 async tasks", "W3": "non-durable single", "W4": "point reads",
        "W5": "indexed query", "W6": "filtered scan", "W7": "updates", "W8": "deletes", "W10": "notifications",
    ]
    /// The workloads `--workloads` takes, in the order they print.
    static let order = ["W1", "W2", "W2c", "W3", "W4", "W5", "W6", "W7", "W8", "W10"]
    /// The rows of the throughput table: W2c runs ObjDB twice, from 8 threads and from 8 tasks.
    static let rows = ["W1", "W2", "W2c", "W2c-async", "W3", "W4", "W5", "W6", "W7", "W8"]

    /// The workload whose measurements are `workload`'s baseline: ObjDB's async writes are
    /// compared with the other engines' 8 writer threads.
    static func baseline(of workload: String) -> String {
        workload == "W2c-async" ? "W2c" : workload
    }

    mutating func add(engine: String, workload: String, operations: Int, seconds: Double) {
        measurements[
            "\(engine)/\(workload)", default: Measurement(engine: engine, workload: workload, operations: operations)
        ]
        .seconds.append(seconds)
    }

    mutating func addNotifications(objects: Int, matching: Int, samples: Int, _ times: NotificationTimes) {
        notifications[objects, default: NotificationMeasurement(objects: objects, matching: matching, samples: samples)]
            .latency.append(times.latency)
        notifications[objects]!.baseline.append(times.baseline)
        notifications[objects]!.rerun.append(times.rerun)
    }

    func throughput(_ engine: String, _ workload: String) -> Double? {
        measurements["\(engine)/\(workload)"]?.medianThroughput
    }

    /// The table of medians and ratios, then one `RESULT engine workload ops_per_s` line each.
    func text(engines: [String]) -> String {
        var lines = ["objdb-bench: N = \(count), \(repetitions) repetition(s), medians in operations per second", ""]
        let header = ["workload"] + engines + ["objdb/lmdb", "objdb/sqlite"]
        var rows: [[String]] = [header]
        for workload in Self.rows where engines.contains(where: { throughput($0, workload) != nil }) {
            var row = ["\(workload) \(Self.titles[workload] ?? "")"]
            for engine in engines {
                let measured = engine == "objdb" ? workload : Self.baseline(of: workload)
                row.append(throughput(engine, measured).map { String(format: "%.0f", $0) } ?? "—")
            }
            row.append(ratio("objdb", "raw-lmdb", workload))
            row.append(ratio("objdb", "sqlite", workload))
            rows.append(row)
        }
        var sizeRow = ["bytes/object after W1"]
        for engine in engines { sizeRow.append(bytesPerObject(engine).map { String(format: "%.0f", $0) } ?? "—") }
        let sizeRatio = { (other: String) -> String in
            guard let mine = bytesPerObject("objdb"), let theirs = bytesPerObject(other) else { return "—" }
            return String(format: "%.2f×", mine / theirs)
        }
        sizeRow += [sizeRatio("raw-lmdb"), sizeRatio("sqlite")]
        rows.append(sizeRow)
        lines += aligned(rows)
        if !notifications.isEmpty {
            lines += [""] + notificationTable()
        }
        lines.append("")
        for workload in Self.rows {
            for engine in engines {
                if let value = throughput(engine, workload) {
                    lines.append("RESULT \(engine) \(workload) \(String(format: "%.0f", value))")
                }
            }
        }
        for measurement in notifications.values.sorted(by: { $0.objects < $1.objects }) {
            let microseconds = { (values: [Double]) in String(format: "%.1f", median(values) * 1e6) }
            lines.append(
                "RESULT objdb W10 objects=\(measurement.objects) latency_us=\(microseconds(measurement.latency)) "
                    + "change_set_us=\(microseconds(measurement.changeSet)) rerun_us=\(microseconds(measurement.rerun))"
            )
        }
        return lines.joined(separator: "\n")
    }

    /// W10: per size of live results, the medians and their ratios to the query re-run.
    private func notificationTable() -> [String] {
        var lines = [
            "W10 notifications: one object changes in a live result (objdb only; the baseline is the same query",
            "re-run in this run), medians in µs, then ratios of times (lower is better)", "",
        ]
        let header = [
            "live result", "matching", "latency", "change set", "query re-run", "latency ÷ re-run",
            "change set ÷ re-run",
        ]
        var rows = [header]
        for measurement in notifications.values.sorted(by: { $0.objects < $1.objects }) {
            let latency = median(measurement.latency)
            let changeSet = median(measurement.changeSet)
            let rerun = median(measurement.rerun)
            rows.append([
                "\(measurement.objects) tweets", String(measurement.matching), String(format: "%.1f", latency * 1e6),
                String(format: "%.1f", changeSet * 1e6), String(format: "%.1f", rerun * 1e6),
                String(format: "%.4f×", latency / rerun), String(format: "%.4f×", changeSet / rerun),
            ])
        }
        lines += aligned(rows)
        return lines
    }

    func json(engines: [String], peakMemory: Int) throws -> Data {
        var entries: [[String: Any]] = []
        for workload in Self.rows {
            for engine in engines {
                guard let measurement = measurements["\(engine)/\(workload)"] else { continue }
                var entry: [String: Any] = [
                    "engine": engine, "workload": workload, "title": Self.titles[workload] ?? "",
                    "operations": measurement.operations, "seconds": measurement.seconds,
                    "median_ops_per_second": measurement.medianThroughput,
                ]
                if Self.baseline(of: workload) != workload { entry["baseline_workload"] = Self.baseline(of: workload) }
                entries.append(entry)
            }
        }
        let sizes = Dictionary(
            uniqueKeysWithValues: engines.compactMap { engine in bytesPerObject(engine).map { (engine, $0) } })
        let notificationEntries: [[String: Any]] = notifications.values.sorted { $0.objects < $1.objects }.map {
            [
                "workload": "W10", "objects": $0.objects, "matching": $0.matching, "samples_per_repetition": $0.samples,
                "latency_seconds": $0.latency, "baseline_seconds": $0.baseline, "change_set_seconds": $0.changeSet,
                "rerun_seconds": $0.rerun, "latency_per_rerun": median($0.latency) / median($0.rerun),
                "change_set_per_rerun": median($0.changeSet) / median($0.rerun),
            ]
        }
        let document: [String: Any] = [
            "count": count, "repetitions": repetitions, "measurements": entries, "bytes_per_object": sizes,
            "peak_memory_bytes": peakMemory, "notifications": notificationEntries,
        ]
        return try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys])
    }

    private func ratio(_ engine: String, _ baseline: String, _ workload: String) -> String {
        guard let mine = throughput(engine, workload), let theirs = throughput(baseline, Self.baseline(of: workload))
        else { return "—" }
        return String(format: "%.2f×", mine / theirs)
    }

    func bytesPerObject(_ engine: String) -> Double? {
        guard let sizes = fileSizes[engine], !sizes.isEmpty else { return nil }
        return Double(sizes.sorted()[sizes.count / 2]) / Double(count)
    }
}

/// W1 and W4 per size: each engine's throughput, ObjDB's ratios, and bytes per object.
func growthTable(_ reports: [(Int, Report)], engines: [String]) -> String {
    var lines = ["objdb-bench --growth: medians in operations per second, bytes per object after W1", ""]
    let header = ["N", "workload"] + engines + ["objdb/lmdb", "objdb/sqlite"]
    var rows = [header]
    for (size, report) in reports {
        for workload in ["W1", "W4"] {
            var row = [String(size), "\(workload) \(Report.titles[workload] ?? "")"]
            for engine in engines {
                row.append(report.throughput(engine, workload).map { String(format: "%.0f", $0) } ?? "—")
            }
            for baseline in ["raw-lmdb", "sqlite"] {
                if let mine = report.throughput("objdb", workload), let theirs = report.throughput(baseline, workload) {
                    row.append(String(format: "%.2f×", mine / theirs))
                } else {
                    row.append("—")
                }
            }
            rows.append(row)
        }
        var sizes = [String(size), "bytes/object"]
        for engine in engines {
            sizes.append(report.bytesPerObject(engine).map { String(format: "%.0f", $0) } ?? "—")
        }
        rows.append(sizes + ["", ""])
    }
    let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
    for row in rows {
        lines.append(
            row.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column <= 1 ? cell + padding : padding + cell
            }.joined(separator: "  "))
    }
    return lines.joined(separator: "\n")
}

/// Table rows padded to their columns' widths: the first column left-aligned, the others right-aligned.
private func aligned(_ rows: [[String]]) -> [String] {
    let columns = rows.map(\.count).max() ?? 0
    let widths = (0..<columns).map { column in rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
    return rows.map { row in
        row.enumerated().map { column, cell in
            let padding = String(repeating: " ", count: widths[column] - cell.count)
            return column == 0 ? cell + padding : padding + cell
        }.joined(separator: "  ")
    }
}
