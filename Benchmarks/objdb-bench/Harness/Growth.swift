import Foundation

/// `--growth`: W1 and W4 at N = 10^4, 10^5, … on every engine, one store per size, to show
/// how each engine's cost per operation grows with the store and its B-trees' depth.
struct GrowthRun {
    let engines: [any TweetEngine]
    let sizes: [Int]
    let repetitions: Int

    /// The sizes from 10^4 up to `maximum`, by factors of ten.
    static func sizes(upTo maximum: Int) -> [Int] {
        Array(sequence(first: 10_000) { $0 <= maximum / 10 ? $0 * 10 : nil }.prefix { $0 <= maximum })
    }

    func run() throws -> GrowthReport {
        var reports: [(Int, Report)] = []
        for size in sizes {
            let runner = BenchmarkRunner(
                engines: engines, count: size, repetitions: repetitions, durableWrites: 0, singleWrites: 0,
                queries: 1, workloads: ["W1", "W4"])
            reports.append((size, try runner.run()))
        }
        return GrowthReport(reports: reports, engines: engines.map(\.name))
    }
}

/// Each size's report, and how they print side by side.
struct GrowthReport {
    let reports: [(size: Int, report: Report)]
    let engines: [String]

    /// The sizes whose W4 costs the growth target compares: 10^5 and 10^7.
    static let small = 100_000
    static let large = 10_000_000

    /// Nanoseconds per W4 read of `engine` at `size`.
    func pointReadCost(_ engine: String, at size: Int) -> Double? {
        reports.first { $0.size == size }?.report.throughput(engine, "W4").map { 1e9 / $0 }
    }

    /// `engine`'s cost per W4 read at 10^7 ÷ at 10^5, when both ran.
    func pointReadGrowth(_ engine: String) -> Double? {
        guard let large = pointReadCost(engine, at: Self.large), let small = pointReadCost(engine, at: Self.small)
        else { return nil }
        return large / small
    }

    /// The growth target: ObjDB's W4 cost grows from 10^5 to 10^7 by no more than raw LMDB's own does.
    /// (Measured as ObjDB's factor ÷ raw LMDB's, at most 1.)
    var targets: [TargetCheck] {
        let relative = pointReadGrowth("objdb").flatMap { mine in pointReadGrowth("raw-lmdb").map { mine / $0 } }
        return [
            TargetCheck(
                workload: "W4", measure: "objdb's growth 10^5 → 10^7 ÷ raw-lmdb's", measured: relative, bound: 1,
                higherIsBetter: false)
        ]
    }

    /// W1 and W4 per size: each engine's throughput and ObjDB's ratios, bytes per object, then
    /// each engine's cost per W4 read and how it grew from 10^5 to 10^7.
    var text: String {
        var lines = ["objdb-bench --growth: medians in operations per second, bytes per object after W1", ""]
        var rows = [["N", "workload"] + engines + ["objdb/lmdb", "objdb/sqlite"]]
        for (size, report) in reports {
            for workload in ["W1", "W4"] {
                var row = [String(size), "\(workload) \(Report.titles[workload] ?? "")"]
                for engine in engines {
                    row.append(report.throughput(engine, workload).map { String(format: "%.0f", $0) } ?? "—")
                }
                for baseline in ["raw-lmdb", "sqlite"] {
                    row.append(report.ratio("objdb", baseline, workload).map(ratioText) ?? "—")
                }
                rows.append(row)
            }
            var sizes = [String(size), "bytes/object"]
            for engine in engines {
                sizes.append(report.bytesPerObject(engine).map { String(format: "%.0f", $0) } ?? "—")
            }
            rows.append(sizes + ["", ""])
        }
        lines += aligned(rows, leftColumns: 2)

        lines += [
            "",
            "W4 cost per read in ns (lower is better), and its growth from 10^5 to 10^7 (target: ObjDB's ≤ raw LMDB's)",
            "",
        ]
        var costs = [["N"] + engines]
        for (size, _) in reports {
            costs.append(
                [String(size)] + engines.map { pointReadCost($0, at: size).map { String(format: "%.0f", $0) } ?? "—" })
        }
        costs.append(["10^7 ÷ 10^5"] + engines.map { pointReadGrowth($0).map(ratioText) ?? "—" })
        lines += aligned(costs)
        lines.append("")
        for (size, report) in reports {
            for engine in engines {
                if let value = report.throughput(engine, "W4") {
                    lines.append(
                        "RESULT \(engine) W4 objects=\(size) ns_per_read=\(String(format: "%.0f", 1e9 / value))")
                }
            }
        }
        return lines.joined(separator: "\n")
    }
}
