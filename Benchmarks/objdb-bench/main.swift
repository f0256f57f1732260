import Foundation
import ToolSupport

let usage = """
    usage: objdb-bench [--quick | --growth [--growth-max N]] [--count N] [--repetitions R]
                       [--workloads W1,W4,…] [--engines objdb,…] [--json FILE] [--check-targets]
           objdb-bench --tools [--tools-sizes N,N,…]

    Runs each workload on ObjDB, raw LMDB (in C, with ObjDB's key bytes) and SQLite (in C) in
    one process run, each workload on every engine back to back in a rotating order, and prints
    the median throughput of each with the ratios ObjDB ÷ raw LMDB and ObjDB ÷ SQLite, then
    each LMDB store's B-trees after W1 and W8. After every workload the engines' answers (read
    checksums, the stores' rows, index entries and retweet sums) must agree, or the run fails.

      --quick           a short run for CI (N = 5,000, 3 repetitions; W10 at 1,000 and 10,000)
      --count N         tweets bulk-loaded (default 1,000,000)
      --repetitions R   runs of each workload per engine (default 5)
      --workloads LIST  which of \(Report.order.joined(separator: " ")) to run (default all)
      --engines LIST    which of objdb raw-lmdb sqlite to run (default all; fewer for profiling)
      --json FILE       also write the measurements as JSON
      --check-targets   compare ObjDB's ratios with issue #26's targets; exit 1 naming every
                        workload below its target (with --growth: W4's cost growth from
                        10^5 to 10^7 against raw LMDB's)
      --growth          W1 and W4 at N = 10^4, 10^5, … up to --growth-max (default 10^7):
                        how each engine's cost grows with the size of the store
      --tools           objdb-inspect's dump, export, import and check beside the sqlite3
                        command line on the same rows, at each of --tools-sizes (default
                        100000,1000000): times, ratios and each child's peak memory

    W1 bulk insert, one transaction   W2 durable single-object transactions, one writer
    W2c the same from 8 writer threads (and ObjDB's `try await db.write` from 8 tasks: group commit)
    W3 non-durable single-object transactions, on the store fresh after W1 and again after W8
    W4 point reads by primary key, one property read
    W5 indexed equality query (userId == X), iterating the ≈100 results
    W6 filtered full scan, counting   W7 updates by property assignment, one transaction
    W8 deletes, one transaction
    \(standaloneWorkloads.map { "\($0.name) " + $0.summary.joined(separator: "\n    ") }.joined(separator: "\n"))
    """

/// The most memory the process has held at once, in bytes.
func peakMemory() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_maxrss * 1024
}

runTool("objdb-bench", usage: usage) {
    let arguments = try CommandLineArguments(
        Array(CommandLine.arguments.dropFirst()),
        valueOptions: [
            "count", "repetitions", "json", "workloads", "engines", "growth-max", "tools-sizes", MemoryWarmup.argument,
        ])
    if let bytes = arguments.value(MemoryWarmup.argument) {
        MemoryWarmup.touch(bytes: Int(bytes) ?? 0)
        return .success
    }
    if arguments.has("help") {
        print(usage)
        return .success
    }
    let unknown = arguments.unknown(known: [
        "quick", "count", "repetitions", "json", "workloads", "engines", "help", "growth", "growth-max",
        "check-targets",
        "tools", "tools-sizes",
    ])
    guard unknown.isEmpty, arguments.positional.isEmpty else {
        throw UsageError("unknown argument \(unknown.first.map { "--\($0)" } ?? arguments.positional[0])")
    }
    if arguments.has("tools") {
        let sizes = try (arguments.value("tools-sizes") ?? "100000,1000000").split(separator: ",").map { text in
            guard let size = Int(text.filter { $0 != "_" }), size >= 100, size <= 100_000_000 else {
                throw UsageError("--tools-sizes takes sizes from 100 to 100000000, not '\(text)'")
            }
            return size
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("objdb-bench-tools-\(getpid())")
            .path
        defer {
            if ProcessInfo.processInfo.environment["OBJDB_BENCH_KEEP"] != "1" {
                try? FileManager.default.removeItem(atPath: directory)
            }
        }
        print(try ToolsBenchmark(sizes: sizes, directory: directory).run())
        return .success
    }
    let quick = arguments.has("quick")
    let count = try arguments.integer("count", default: quick ? 5_000 : 1_000_000)
    let repetitions = try arguments.integer("repetitions", default: quick ? 3 : 5)
    guard count >= 100, repetitions > 0 else {
        throw UsageError("--count must be at least 100, --repetitions positive")
    }
    let all = Set(Report.order)
    let workloads = Set(
        (arguments.value("workloads") ?? Report.order.joined(separator: ",")).split(separator: ",").map(String.init))
    guard workloads.isSubset(of: all) else {
        throw UsageError("unknown workload \(workloads.subtracting(all).sorted().joined(separator: ", "))")
    }

    let allEngines: [any TweetEngine] = [ObjDBEngine(), RawLMDBEngine(), SQLiteEngine()]
    let engineNames = (arguments.value("engines") ?? "").split(separator: ",").map(String.init)
    let engines = engineNames.isEmpty ? allEngines : allEngines.filter { engineNames.contains($0.name) }
    guard engines.count == Set(engineNames).count || engineNames.isEmpty else {
        throw UsageError("--engines takes objdb, raw-lmdb and sqlite, not '\(arguments.value("engines") ?? "")'")
    }
    let checks: [TargetCheck]
    if arguments.has("growth") {
        let sizes = GrowthRun.sizes(upTo: try arguments.integer("growth-max", default: 10_000_000))
        guard !sizes.isEmpty else { throw UsageError("--growth-max must be at least 10000") }
        let growth = try GrowthRun(
            engines: engines, sizes: sizes, repetitions: try arguments.integer("repetitions", default: 1)
        ).run()
        print(growth.text)
        print("peak memory: \(peakMemory() / (1 << 20)) MiB (the whole process)")
        checks = growth.targets
    } else {
        var runner = BenchmarkRunner(
            engines: engines, count: count, repetitions: repetitions, durableWrites: quick ? 40 : 400,
            singleWrites: quick ? 500 : 20_000, queries: quick ? 100 : 2_000, workloads: workloads)
        runner.quick = quick
        let report = try runner.run()
        let names = engines.map(\.name)
        print(report.text(engines: names))
        let peak = peakMemory()
        print("peak memory: \(peak / (1 << 20)) MiB (the whole process)")
        if let path = arguments.value("json") {
            try report.json(engines: names, peakMemory: peak).write(to: URL(fileURLWithPath: path))
        }
        checks = Targets.checks(report)
    }
    guard arguments.has("check-targets") else { return .success }
    print("")
    print(Targets.text(checks))
    let missed = Targets.belowTarget(checks)
    if !missed.isEmpty {
        fflush(nil)  // the table first, then the summary on standard error
        printError("objdb-bench: below target: \(Targets.workloads(missed).joined(separator: ", "))")
        return .failure
    }
    return .success
}
