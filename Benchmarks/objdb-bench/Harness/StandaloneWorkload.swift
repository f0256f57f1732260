/// A workload that runs apart from the engines' interleaved table, against a baseline of its own
/// (W10: the same query run again), and prints a table of its own after the engines' table.
///
/// Adding one (as W9) takes a file that conforms and its entry in ``standaloneWorkloads``:
/// `--workloads`, `--help`, the report, `--json` and `--check-targets` pick it up from there.
protocol StandaloneWorkload: Sendable {
    /// The name `--workloads` takes, as "W10".
    var name: String { get }
    /// What it measures, for `--help`: lines of at most 90 characters, without indentation.
    var summary: [String] { get }
    /// Runs every repetition (after the engine workloads) and returns what the report shows.
    func run(_ context: WorkloadContext) throws -> WorkloadSection
}

/// The standalone workloads, in the order they run and print. Register a new one here.
let standaloneWorkloads: [any StandaloneWorkload] = [
    ImportWorkload(), NotificationWorkload(), QuerySpellingWorkload(), FullTextWorkload(),
]

/// What a standalone workload gets from the run.
struct WorkloadContext {
    /// The run's tweets (`--count` of them), generated once for every workload.
    let data: TweetData
    /// `--repetitions`.
    let repetitions: Int
    /// Whether this is `--quick`, which runs smaller sizes and fewer samples.
    let quick: Bool
}

/// What a standalone workload adds to the report.
struct WorkloadSection {
    /// Its table, printed after the engines' table.
    var lines: [String]
    /// Its `RESULT …` lines, printed after the engines' ones.
    var results: [String]
    /// Where `--json` writes ``json``, and the value: arrays and dictionaries of strings and numbers.
    var jsonKey: String
    var json: Any
    /// What `--check-targets` checks besides the engines' targets (none by default).
    var targets: [TargetCheck] = []
}
