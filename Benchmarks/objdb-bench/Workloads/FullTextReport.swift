import Foundation

/// One W12 search's timings, per sample, in seconds.
struct QueryMeasurement {
    let query: FullTextQuery
    var matches = 0
    var objdb: [Double] = []
    var fts: [Double] = []

    /// ObjDB's median ÷ FTS5's (at most 1 meets the target).
    var ratio: Double { median(objdb) / median(fts) }
}

/// W12's measurements, and how they print.
struct FullTextReport {
    let count: Int
    var objdbBuild = 0.0
    var ftsBuild = 0.0
    var objdbSize = 0
    var ftsSize = 0
    var queries: [QueryMeasurement] = []
    var contains: [Double] = []
    var like: [Double] = []
    var containsMatches = 0
    var fastIndexed: [Double] = []
    var fastPlain: [Double] = []
    var durableIndexed: [Double] = []
    var durablePlain: [Double] = []

    static let maximumBuild = 1.5
    static let maximumSize = 1.3
    static let maximumWrite = 1.5
    static let minimumScanSpeedup = 2.0

    var buildRatio: Double { objdbBuild / ftsBuild }
    var sizeRatio: Double { Double(objdbSize) / Double(ftsSize) }
    var durableWriteRatio: Double { median(durableIndexed) / median(durablePlain) }
    var fastWriteRatio: Double { median(fastIndexed) / median(fastPlain) }
    /// LIKE's median ÷ CONTAINS[c]'s: how many times faster the scan is.
    var scanSpeedup: Double { median(like) / median(contains) }

    /// The 99th percentile of `values` (nearest rank).
    static func p99(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted[Swift.min(sorted.count - 1, Int((0.99 * Double(sorted.count)).rounded(.up)) - 1)]
    }

    var table: [String] {
        var lines = [
            "W12 full-text search on \(count) tweets: ObjDB's index vs SQLite FTS5 (C, unicode61 remove_diacritics 2);",
            "latencies in µs (median, p99), objdb ÷ fts5 of the medians (≤ 1× meets the target); answers checked equal",
            "",
        ]
        var rows = [["query", "search", "matches", "objdb", "objdb p99", "fts5", "fts5 p99", "objdb/fts5"]]
        for measurement in queries {
            rows.append([
                measurement.query.title, measurement.query.search, String(measurement.matches),
                String(format: "%.1f", median(measurement.objdb) * 1e6),
                String(format: "%.1f", Self.p99(measurement.objdb) * 1e6),
                String(format: "%.1f", median(measurement.fts) * 1e6),
                String(format: "%.1f", Self.p99(measurement.fts) * 1e6), String(format: "%.2f×", measurement.ratio),
            ])
        }
        lines += aligned(rows, leftColumns: 2)
        lines.append("")
        let mib = { (bytes: Int) in String(format: "%.1f MiB", Double(bytes) / 1_048_576) }
        var other = [["measure", "objdb", "fts5 / without", "ratio", "target"]]
        other.append([
            "index build (s)", String(format: "%.2f", objdbBuild), String(format: "%.2f", ftsBuild),
            String(format: "%.2f×", buildRatio), "≤ \(Self.maximumBuild)×",
        ])
        other.append([
            "index size", mib(objdbSize), mib(ftsSize), String(format: "%.2f×", sizeRatio), "≤ \(Self.maximumSize)×",
        ])
        other.append([
            "write, 1 tweet, durable (µs)", String(format: "%.1f", median(durableIndexed) * 1e6),
            String(format: "%.1f", median(durablePlain) * 1e6), String(format: "%.2f×", durableWriteRatio),
            "≤ \(Self.maximumWrite)×",
        ])
        // The mean counts the writes that fold the recent segment into the chunks.
        let mean = { (times: [Double]) in times.reduce(0, +) / Double(Swift.max(times.count, 1)) }
        other.append([
            "write, 1 tweet, durable, mean (µs)", String(format: "%.1f", mean(durableIndexed) * 1e6),
            String(format: "%.1f", mean(durablePlain) * 1e6),
            String(format: "%.2f×", mean(durableIndexed) / Swift.max(mean(durablePlain), 1e-12)), "(shown)",
        ])
        other.append([
            "write, 1 tweet, not durable (µs)", String(format: "%.1f", median(fastIndexed) * 1e6),
            String(format: "%.1f", median(fastPlain) * 1e6), String(format: "%.2f×", fastWriteRatio), "(shown)",
        ])
        other.append([
            "CONTAINS[c] 'swift' vs LIKE (ms, \(containsMatches) matches)",
            String(format: "%.1f", median(contains) * 1e3),
            String(format: "%.1f", median(like) * 1e3), String(format: "%.2f× faster", scanSpeedup),
            "≥ \(Self.minimumScanSpeedup)× faster",
        ])
        lines += aligned(other)
        lines.append("(the write rows compare ObjDB with the index ÷ ObjDB without it, on stores of the same tweets)")
        return lines
    }

    var resultLines: [String] {
        var lines = queries.map { measurement in
            "RESULT objdb W12-\(measurement.query.title.replacingOccurrences(of: " ", with: "-")) "
                + String(format: "%.1f", median(measurement.objdb) * 1e6)
        }
        lines += queries.map { measurement in
            "RESULT fts5 W12-\(measurement.query.title.replacingOccurrences(of: " ", with: "-")) "
                + String(format: "%.1f", median(measurement.fts) * 1e6)
        }
        lines.append(String(format: "RESULT objdb W12-build %.3f", objdbBuild))
        lines.append(String(format: "RESULT fts5 W12-build %.3f", ftsBuild))
        lines.append("RESULT objdb W12-index-bytes \(objdbSize)")
        lines.append("RESULT fts5 W12-index-bytes \(ftsSize)")
        return lines
    }

    var json: Any {
        [
            "count": count, "objdb_build_seconds": objdbBuild, "fts5_build_seconds": ftsBuild,
            "objdb_index_bytes": objdbSize, "fts5_index_bytes": ftsSize,
            "queries": queries.map { measurement in
                [
                    "title": measurement.query.title, "search": measurement.query.search,
                    "matches": measurement.matches,
                    "objdb_seconds": measurement.objdb, "fts5_seconds": measurement.fts, "ratio": measurement.ratio,
                ] as [String: Any]
            },
            "contains_seconds": contains, "like_seconds": like, "durable_write_indexed_seconds": durableIndexed,
            "durable_write_plain_seconds": durablePlain, "write_indexed_seconds": fastIndexed,
            "write_plain_seconds": fastPlain,
        ] as [String: Any]
    }

    func targets(workload: String) -> [TargetCheck] {
        var checks = queries.map { measurement in
            TargetCheck(
                workload: workload, measure: "\(measurement.query.title): objdb ÷ fts5 median",
                measured: measurement.ratio,
                bound: 1, higherIsBetter: false)
        }
        checks.append(
            TargetCheck(
                workload: workload, measure: "build: objdb ÷ fts5", measured: buildRatio, bound: Self.maximumBuild,
                higherIsBetter: false))
        checks.append(
            TargetCheck(
                workload: workload, measure: "index size: objdb ÷ fts5", measured: sizeRatio, bound: Self.maximumSize,
                higherIsBetter: false))
        checks.append(
            TargetCheck(
                workload: workload, measure: "durable write: indexed ÷ plain", measured: durableWriteRatio,
                bound: Self.maximumWrite, higherIsBetter: false))
        checks.append(
            TargetCheck(
                workload: workload, measure: "CONTAINS[c] speed ÷ LIKE's", measured: scanSpeedup,
                bound: Self.minimumScanSpeedup, higherIsBetter: true))
        return checks
    }
}
