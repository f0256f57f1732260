import Foundation
import ToolSupport

let usage = """
    usage: objdb-bench [--quick] [--count N] [--repetitions R] [--json FILE]

    Times the same workloads on each engine in one run, interleaved, and prints the
    median throughput of each with its ratio to raw LMDB. Read results are checked
    equal across engines.

      --quick          a short run for CI (N = 20,000, 3 repetitions)
      --count N        records per workload (default 1,000,000)
      --repetitions R  runs of each workload per engine (default 5)
      --json FILE      also write the measurements as JSON
    """

runTool("objdb-bench", usage: usage) {
    let arguments = try CommandLineArguments(
        Array(CommandLine.arguments.dropFirst()), valueOptions: ["count", "repetitions", "json"])
    if arguments.has("help") {
        print(usage)
        return .success
    }
    let unknown = arguments.unknown(known: ["quick", "count", "repetitions", "json", "help"])
    guard unknown.isEmpty, arguments.positional.isEmpty else {
        throw UsageError("unknown argument \(unknown.first.map { "--\($0)" } ?? arguments.positional[0])")
    }
    let quick = arguments.has("quick")
    let count = try arguments.integer("count", default: quick ? 20_000 : 1_000_000)
    let repetitions = try arguments.integer("repetitions", default: quick ? 3 : 5)
    guard count > 0, repetitions > 0 else { throw UsageError("--count and --repetitions must be positive") }

    let runner = BenchmarkRunner(
        engines: [StorageLayerEngine(), RawLMDBEngine()], count: count, repetitions: repetitions)
    let measurements = try runner.run()
    print(report(measurements, baseline: "raw-lmdb"))
    if let path = arguments.value("json") {
        try jsonReport(measurements, count: count, repetitions: repetitions)
            .write(to: URL(fileURLWithPath: path))
    }
    return .success
}
