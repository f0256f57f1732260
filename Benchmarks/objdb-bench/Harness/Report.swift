import Foundation

/// The measurements of one run, and how they print.
struct Report {
    let count: Int
    let repetitions: Int
    private(set) var measurements: [String: Measurement] = [:]
    var fileSizes: [String: [Int]] = [:]
    /// Per workload, what every engine agreed on after it (a checksum, or the census of the stores).
    private(set) var checks: [(workload: String, agreed: String)] = []
    /// Each LMDB engine's B-trees after W1 and after W8, from the first repetition.
    var layouts: [(workload: String, engine: String, trees: [TreeShape])] = []
    /// What the standalone workloads (W10, …) add, in the order they ran.
    var sections: [WorkloadSection] = []

    struct Measurement {
        let engine: String
        let workload: String
        let operations: Int
        var seconds: [Double] = []

        /// Operations per second at the median repetition.
        var medianThroughput: Double { Double(operations) / median(seconds) }
    }

    static let titles = [
        "W1": "bulk insert", "W2": "durable, 1 writer", "W2c": "durable, 8 writers",
        "W2c-async": "durable, 8 async tasks", "W3-fresh": "non-durable single, after W1",
        "W3": "non-durable single, after W8", "W4": "point reads",
        "W5": "indexed query", "W6": "filtered scan", "W7": "updates", "W8": "deletes", "W10": "notifications",
        "bytes/object": "after W1",
    ]
    /// The workloads every engine runs, as `--workloads` takes them.
    static let engineWorkloads = ["W1", "W2", "W2c", "W3", "W4", "W5", "W6", "W7", "W8"]
    /// The workloads `--workloads` takes, in the order they print.
    static var order: [String] { engineWorkloads + standaloneWorkloads.map(\.name) }
    /// The rows of the throughput table: W2c runs ObjDB twice, from 8 threads and from 8 tasks.
    /// W3 runs twice: on the store fresh after W1, and after W8 (whose freed pages LMDB's commits then carry).
    static let rows = ["W1", "W2", "W2c", "W2c-async", "W3-fresh", "W3", "W4", "W5", "W6", "W7", "W8"]

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

    /// Records what the engines agreed on after `workload`; throws when a repetition found otherwise.
    mutating func agree(_ workload: String, on agreed: String) throws {
        if let earlier = checks.first(where: { $0.workload == workload }) {
            guard earlier.agreed == agreed else {
                throw BenchmarkFailure.disagreement(
                    workload: workload, detail: "\(agreed) in one repetition, \(earlier.agreed) in another")
            }
            return
        }
        checks.append((workload, agreed))
    }

    func throughput(_ engine: String, _ workload: String) -> Double? {
        measurements["\(engine)/\(workload)"]?.medianThroughput
    }

    /// `engine`'s median throughput on `workload` ÷ `baseline`'s on the workload it is compared with.
    func ratio(_ engine: String, _ baseline: String, _ workload: String) -> Double? {
        guard let mine = throughput(engine, workload), let theirs = throughput(baseline, Self.baseline(of: workload))
        else { return nil }
        return mine / theirs
    }

    /// The table of medians and ratios, the standalone workloads' tables, then one
    /// `RESULT engine workload ops_per_s` line each.
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
            row.append(ratio("objdb", "raw-lmdb", workload).map(ratioText) ?? "—")
            row.append(ratio("objdb", "sqlite", workload).map(ratioText) ?? "—")
            rows.append(row)
        }
        var sizeRow = ["bytes/object after W1"]
        for engine in engines { sizeRow.append(bytesPerObject(engine).map { String(format: "%.0f", $0) } ?? "—") }
        let sizeRatio = { (other: String) -> String in
            guard let mine = bytesPerObject("objdb"), let theirs = bytesPerObject(other) else { return "—" }
            return ratioText(mine / theirs)
        }
        sizeRow += [sizeRatio("raw-lmdb"), sizeRatio("sqlite")]
        rows.append(sizeRow)
        lines += aligned(rows)
        if !checks.isEmpty {
            lines += ["", "Checked after each workload, equal on every engine in every repetition:"]
            let width = checks.map(\.workload.count).max() ?? 0
            lines += checks.map {
                "  " + $0.workload.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.agreed
            }
        }
        lines += layoutLines
        for section in sections where !section.lines.isEmpty {
            lines += [""] + section.lines
        }
        lines.append("")
        for workload in Self.rows {
            for engine in engines {
                if let value = throughput(engine, workload) {
                    lines.append("RESULT \(engine) \(workload) \(String(format: "%.0f", value))")
                }
            }
        }
        lines += sections.flatMap(\.results)
        return lines.joined(separator: "\n")
    }

    /// Each LMDB store's B-trees after W1 and W8 (`mdb_stat`): a difference in layout shows here.
    private var layoutLines: [String] {
        guard !layouts.isEmpty else { return [] }
        var rows = [["after", "engine", "database", "depth", "branch", "leaf", "overflow", "entries"]]
        for (workload, engine, trees) in layouts {
            for tree in trees {
                rows.append([
                    workload, engine, tree.database, String(tree.depth), String(tree.branchPages),
                    String(tree.leafPages), String(tree.overflowPages), String(tree.entries),
                ])
            }
        }
        return ["", "LMDB layout (pages of 4 KiB):"] + aligned(rows, leftColumns: 3)
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
        var document: [String: Any] = [
            "count": count, "repetitions": repetitions, "measurements": entries, "bytes_per_object": sizes,
            "peak_memory_bytes": peakMemory,
            "checks": Dictionary(checks.map { ($0.workload, $0.agreed) }, uniquingKeysWith: { first, _ in first }),
            "layouts": layouts.map { workload, engine, trees in
                [
                    "after": workload, "engine": engine,
                    "trees": trees.map { tree in
                        [
                            "database": tree.database, "depth": tree.depth, "branch_pages": tree.branchPages,
                            "leaf_pages": tree.leafPages, "overflow_pages": tree.overflowPages,
                            "entries": tree.entries,
                        ] as [String: Any]
                    },
                ] as [String: Any]
            },
        ]
        for section in sections { document[section.jsonKey] = section.json }
        return try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys])
    }

    func bytesPerObject(_ engine: String) -> Double? {
        guard let sizes = fileSizes[engine], !sizes.isEmpty else { return nil }
        return Double(sizes.sorted()[sizes.count / 2]) / Double(count)
    }
}

/// Table rows padded to their columns' widths: the first `leftColumns` columns left-aligned,
/// the others right-aligned.
func aligned(_ rows: [[String]], leftColumns: Int = 1) -> [String] {
    let columns = rows.map(\.count).max() ?? 0
    let widths = (0..<columns).map { column in rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
    return rows.map { row in
        row.enumerated().map { column, cell in
            let padding = String(repeating: " ", count: widths[column] - cell.count)
            return column < leftColumns ? cell + padding : padding + cell
        }.joined(separator: "  ")
    }
}
