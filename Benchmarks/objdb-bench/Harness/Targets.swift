import Foundation

/// One target of issue #26 and what a run measured for it.
struct TargetCheck {
    /// The workload it belongs to, as `--check-targets` names it when missed ("W1", "bytes/object").
    let workload: String
    /// What is measured, as "objdb ÷ raw-lmdb".
    let measure: String
    /// The measured value; `nil` when this run did not measure it.
    let measured: Double?
    /// The bound, and which side of it meets the target.
    let bound: Double
    let higherIsBetter: Bool

    /// Whether the target is met; `nil` when it was not measured.
    var isMet: Bool? { measured.map { higherIsBetter ? $0 >= bound : $0 <= bound } }
    /// The target as it prints: "≥ 0.75×".
    var targetText: String { (higherIsBetter ? "≥ " : "≤ ") + ratioText(bound) }
}

/// The targets of issue #26: ObjDB's throughput as a multiple of each baseline's, in one run.
enum Targets {
    /// Per workload, the least ObjDB ÷ baseline throughput that meets the target. W3 is checked
    /// at both of its positions (after W1 and after W8).
    static let throughput: [(workload: String, baseline: String, minimum: Double)] = [
        ("W1", "raw-lmdb", 0.75), ("W1", "sqlite", 1.5),
        ("W2", "raw-lmdb", 0.9),
        ("W2c-async", "sqlite", 2.0),
        ("W3-fresh", "raw-lmdb", 0.9), ("W3", "raw-lmdb", 0.9),
        ("W4", "raw-lmdb", 0.7), ("W4", "sqlite", 1.3),
        ("W5", "raw-lmdb", 0.85), ("W5", "sqlite", 1.3),
        ("W6", "raw-lmdb", 0.8), ("W6", "sqlite", 2.0),
        ("W7", "raw-lmdb", 0.85), ("W7", "sqlite", 1.5),
        ("W8", "raw-lmdb", 0.85), ("W8", "sqlite", 1.1),
    ]
    /// The most bytes per object after W1, as a multiple of each baseline's.
    static let bytesPerObject: [(baseline: String, maximum: Double)] = [("raw-lmdb", 1.1), ("sqlite", 1.1)]

    /// Every target of a run's report: the throughput ratios and the file size.
    static func checks(_ report: Report) -> [TargetCheck] {
        var checks = throughput.map { target in
            TargetCheck(
                workload: target.workload, measure: "objdb ÷ \(target.baseline)",
                measured: report.ratio("objdb", target.baseline, target.workload), bound: target.minimum,
                higherIsBetter: true)
        }
        for target in bytesPerObject {
            let size = report.bytesPerObject("objdb").flatMap { mine in
                report.bytesPerObject(target.baseline).map { mine / $0 }
            }
            checks.append(
                TargetCheck(
                    workload: "bytes/object", measure: "objdb ÷ \(target.baseline)", measured: size,
                    bound: target.maximum, higherIsBetter: false))
        }
        return checks + report.sections.flatMap(\.targets)
    }

    /// The checks as a table, then which workloads missed their targets.
    static func text(_ checks: [TargetCheck]) -> String {
        var rows = [["target (issue #26)", "measure", "measured", "target", ""]]
        for check in checks {
            let status = check.isMet.map { $0 ? "met" : "BELOW" } ?? "not run"
            rows.append([
                "\(check.workload) \(Report.titles[check.workload] ?? "")", check.measure,
                check.measured.map(ratioText) ?? "—", check.targetText, status,
            ])
        }
        var lines = aligned(rows, leftColumns: 2)
        let missed = belowTarget(checks)
        lines.append("")
        if missed.isEmpty {
            lines.append("every measured target is met")
        } else {
            lines.append("below target:")
            for workload in workloads(missed) {
                let details = missed.filter { $0.workload == workload }.map {
                    "\($0.measure) \(ratioText($0.measured ?? 0)), target \($0.targetText)"
                }
                lines.append("  \(workload): \(details.joined(separator: "; "))")
            }
        }
        let unmeasured = workloads(checks.filter { $0.isMet == nil })
        if !unmeasured.isEmpty {
            lines.append("not measured in this run: \(unmeasured.joined(separator: ", "))")
        }
        return lines.joined(separator: "\n")
    }

    /// The checks measured and missed.
    static func belowTarget(_ checks: [TargetCheck]) -> [TargetCheck] {
        checks.filter { $0.isMet == false }
    }

    /// The workloads `checks` belong to, each once, in order.
    static func workloads(_ checks: [TargetCheck]) -> [String] {
        var names: [String] = []
        for check in checks where !names.contains(check.workload) { names.append(check.workload) }
        return names
    }
}

/// A ratio as the tables print it: "0.75×".
func ratioText(_ ratio: Double) -> String {
    String(format: "%.2f×", ratio)
}
