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
        var medianThroughput: Double {
            let sorted = seconds.sorted()
            let middle = sorted.count / 2
            let median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
            return Double(operations) / median
        }
    }

    static let titles = [
        "W1": "bulk insert", "W2": "durable, 1 writer", "W2c": "durable, 8 writers", "W3": "non-durable single",
        "W4": "point reads", "W5": "indexed query", "W6": "filtered scan", "W7": "updates", "W8": "deletes",
    ]
    static let order = ["W1", "W2", "W2c", "W3", "W4", "W5", "W6", "W7", "W8"]

    mutating func add(engine: String, workload: String, operations: Int, seconds: Double) {
        measurements[
            "\(engine)/\(workload)", default: Measurement(engine: engine, workload: workload, operations: operations)
        ]
        .seconds.append(seconds)
    }

    func throughput(_ engine: String, _ workload: String) -> Double? {
        measurements["\(engine)/\(workload)"]?.medianThroughput
    }

    /// The table of medians and ratios, then one `RESULT engine workload ops_per_s` line each.
    func text(engines: [String]) -> String {
        var lines = ["objdb-bench: N = \(count), \(repetitions) repetition(s), medians in operations per second", ""]
        let header = ["workload"] + engines + ["objdb/lmdb", "objdb/sqlite"]
        var rows: [[String]] = [header]
        for workload in Self.order where engines.contains(where: { throughput($0, workload) != nil }) {
            var row = ["\(workload) \(Self.titles[workload] ?? "")"]
            for engine in engines { row.append(throughput(engine, workload).map { String(format: "%.0f", $0) } ?? "—") }
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
        let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            lines.append(
                row.enumerated().map { column, cell in
                    let padding = String(repeating: " ", count: widths[column] - cell.count)
                    return column == 0 ? cell + padding : padding + cell
                }.joined(separator: "  "))
        }
        lines.append("")
        for workload in Self.order {
            for engine in engines {
                if let value = throughput(engine, workload) {
                    lines.append("RESULT \(engine) \(workload) \(String(format: "%.0f", value))")
                }
            }
        }
        return lines.joined(separator: "\n")
    }

    func json(engines: [String], peakMemory: Int) throws -> Data {
        var entries: [[String: Any]] = []
        for workload in Self.order {
            for engine in engines {
                guard let measurement = measurements["\(engine)/\(workload)"] else { continue }
                entries.append([
                    "engine": engine, "workload": workload, "title": Self.titles[workload] ?? "",
                    "operations": measurement.operations, "seconds": measurement.seconds,
                    "median_ops_per_second": measurement.medianThroughput,
                ])
            }
        }
        let sizes = Dictionary(
            uniqueKeysWithValues: engines.compactMap { engine in bytesPerObject(engine).map { (engine, $0) } })
        let document: [String: Any] = [
            "count": count, "repetitions": repetitions, "measurements": entries, "bytes_per_object": sizes,
            "peak_memory_bytes": peakMemory,
        ]
        return try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys])
    }

    private func ratio(_ engine: String, _ baseline: String, _ workload: String) -> String {
        guard let mine = throughput(engine, workload), let theirs = throughput(baseline, workload) else { return "—" }
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
