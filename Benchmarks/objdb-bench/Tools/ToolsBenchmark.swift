import CSQLite
import Foundation
import ObjDB

/// `objdb-bench --tools`: objdb-inspect's dump, export, import and check on stores of N tweets,
/// each beside the sqlite3 command line on the same rows in SQLite, in one run.
///
/// For each N it builds the demo's schema (tweets linking to users, a list of retweeters, an
/// index on `createdAt` and on `screenName`) with ObjDB's typed bulk insert in one transaction
/// (W1's way, timed: the baseline of `import`), and the same rows in SQLite. Each tool then runs
/// as a child process; its wall time and its peak resident memory (`getrusage` of the child)
/// are measured, and the table gives the ratios objdb-inspect ÷ sqlite3 (or ÷ W1).
struct ToolsBenchmark {
    let sizes: [Int]
    let directory: String

    func run() throws -> String {
        let inspect = Self.sibling("objdb-inspect")
        guard access(inspect, X_OK) == 0 else {
            throw BenchmarkFailure.engine(
                "tools", "\(inspect) is missing: build objdb-inspect in the same configuration")
        }
        let candidates: [String] = ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3"]
        let sqlite = candidates.first { path in access(path, X_OK) == 0 }
        var lines: [String] = []
        if sqlite == nil {
            lines.append("sqlite3 is not installed (Debian's sqlite3; make bench-tools installs it): no sqlite3 column")
        }
        for size in sizes {
            lines.append("")
            lines.append(try measure(size: size, inspect: inspect, sqlite: sqlite))
        }
        return lines.joined(separator: "\n")
    }

    private func measure(size: Int, inspect: String, sqlite: String?) throws -> String {
        let root = directory + "/tools-\(size)"
        try? FileManager.default.removeItem(atPath: root)
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        // OBJDB_BENCH_KEEP=1 keeps the stores and files, to profile a tool on them afterwards.
        let keep = ProcessInfo.processInfo.environment["OBJDB_BENCH_KEEP"] == "1"
        defer { if !keep { try? FileManager.default.removeItem(atPath: root) } }
        let store = root + "/store.objdb"
        let empty = root + "/empty.objdb"
        let sqliteFile = root + "/store.sqlite"
        let export = root + "/export.ndjson"
        let csv = root + "/tweets.csv"

        let rows = ToolRows(count: size)
        let bulkInsert = try time { try rows.store(in: store) }
        try rows.store(in: empty, objects: false)
        try rows.storeInSQLite(sqliteFile)

        var results: [Row] = []
        func tool(_ name: String, _ arguments: [String], output: String = "/dev/null") throws -> ChildRun {
            try ChildRun.run(name, arguments, output: output)
        }
        let dumpJSON = try tool(inspect, [store, "dump", "Tweet", "--format", "ndjson"])
        let dumpCSV = try tool(inspect, [store, "dump", "Tweet", "--format", "csv"])
        let exported = try tool(inspect, [store, "export", "--output", export])
        let imported = try tool(inspect, [empty, "import", export])
        try? FileManager.default.removeItem(atPath: empty)
        try? FileManager.default.removeItem(atPath: empty + "-lock")
        try rows.store(in: empty, objects: false)
        let importedInBatches = try tool(inspect, [empty, "import", export, "--batch", "100000"])
        let checked = try tool(inspect, [store, "check"])
        for run in [dumpJSON, dumpCSV, exported, imported, importedInBatches, checked] where run.status != 0 {
            throw BenchmarkFailure.engine(
                "objdb-inspect", "\(run.arguments.joined(separator: " ")) exited \(run.status)")
        }
        var sqliteJSON: ChildRun?
        var sqliteCSV: ChildRun?
        var sqliteExport: ChildRun?
        var sqliteImport: ChildRun?
        var sqliteCheck: ChildRun?
        if let sqlite {
            sqliteJSON = try tool(sqlite, ["-json", sqliteFile, "select * from tweets"])
            sqliteCSV = try tool(sqlite, ["-csv", "-header", sqliteFile, "select * from tweets"])
            sqliteExport = try tool(sqlite, ["-json", sqliteFile, "select * from users; select * from tweets"])
            _ = try tool(sqlite, ["-csv", sqliteFile, "select * from tweets"], output: csv)
            let target = root + "/import.sqlite"
            try SQLiteFile.create(target, schemaOnly: true)
            sqliteImport = try tool(sqlite, [target, ".import --csv \(csv) tweets"])
            sqliteCheck = try tool(sqlite, [sqliteFile, "pragma integrity_check"])
        }
        results.append(Row("dump --format ndjson", dumpJSON, sqliteJSON, "sqlite3 -json", target: 2))
        results.append(Row("dump --format csv", dumpCSV, sqliteCSV, "sqlite3 -csv", target: 2))
        results.append(
            Row("export --format ndjson", exported, sqliteExport, "sqlite3 -json (both tables)", target: nil))
        results.append(Row("import (one transaction)", imported, sqliteImport, "sqlite3 .import --csv", target: nil))
        results.append(
            Row("import ÷ W1 typed bulk insert", imported, ChildRun(seconds: bulkInsert), "W1, in process", target: 2))
        results.append(
            Row("import --batch 100000", importedInBatches, sqliteImport, "sqlite3 .import --csv", target: nil))
        results.append(Row("check", checked, sqliteCheck, "pragma integrity_check", target: 10))

        let storeSize = (try? FileManager.default.attributesOfItem(atPath: store)[.size] as? Int) ?? 0
        let sqliteSize = (try? FileManager.default.attributesOfItem(atPath: sqliteFile)[.size] as? Int) ?? 0
        var lines = [
            "Tools at N = \(size) tweets + \(rows.userCount) users (store \(storeSize >> 20) MiB, SQLite \(sqliteSize >> 20) MiB; "
                + "W1 typed bulk insert \(Self.seconds(bulkInsert)))",
            "| task | objdb-inspect | peak RSS | baseline | time | peak RSS | ratio | target |",
            "|---|---:|---:|---|---:|---:|---:|---:|",
        ]
        for row in results { lines.append(row.line) }
        lines += try ServeLatency(store: store, inspect: inspect, count: size).measure()
        return lines.joined(separator: "\n")
    }

    private func time(_ body: () throws -> Void) throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// A product built beside this benchmark.
    static func sibling(_ name: String) -> String {
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent(name).path
    }

    static func seconds(_ value: Double) -> String { String(format: value < 10 ? "%.2f s" : "%.1f s", value) }

    /// One line of the table.
    struct Row {
        let line: String

        init(_ task: String, _ tool: ChildRun, _ baseline: ChildRun?, _ baselineName: String, target: Double?) {
            let ratio: Double? = baseline.map { tool.seconds / max($0.seconds, 1e-6) }
            var cells: [String] = [task, ToolsBenchmark.seconds(tool.seconds), tool.peakText]
            cells.append(baseline == nil ? "\(baselineName) (not run)" : baselineName)
            cells.append(baseline.map { ToolsBenchmark.seconds($0.seconds) } ?? "–")
            cells.append(baseline?.peakText ?? "–")
            cells.append(ratio.map { String(format: "%.2f×", $0) } ?? "–")
            cells.append(target.map { String(format: "≤ %.0f×", $0) } ?? "")
            line = "| " + cells.joined(separator: " | ") + " |"
        }
    }
}

/// One child process run to completion: its wall time and peak resident memory.
struct ChildRun {
    var arguments: [String] = []
    var seconds: Double
    /// `ru_maxrss` of the child, in bytes; `nil` for work measured in this process.
    var peakBytes: Int?
    var status: Int32 = 0

    init(seconds: Double) {
        self.seconds = seconds
    }

    init(arguments: [String], seconds: Double, peakBytes: Int, status: Int32) {
        self.arguments = arguments
        self.seconds = seconds
        self.peakBytes = peakBytes
        self.status = status
    }

    var peakText: String { peakBytes.map { "\($0 >> 20) MiB" } ?? "–" }

    /// Runs `program` with `arguments`, its standard output to `output`, through `objdb-child-rusage`
    /// (so the peak memory is the child's own, not this process's), and waits for it.
    static func run(_ program: String, _ arguments: [String], output: String) throws -> ChildRun {
        let helper = ToolsBenchmark.sibling("objdb-child-rusage")
        let result = output == "/dev/null" ? NSTemporaryDirectory() + "objdb-rusage-\(getpid())" : output + ".rusage"
        defer { unlink(result) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = ([helper, result, program] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, helper, &actions, nil, argv, environ)
        guard spawned == 0 else {
            throw BenchmarkFailure.engine("tools", "cannot run \(helper): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let fields = ((try? String(contentsOfFile: result, encoding: .utf8)) ?? "").split(separator: " ")
        guard fields.count == 3, let code = Int32(fields[0]), let seconds = Double(fields[1]),
            let kilobytes = Int(fields[2].trimmingCharacters(in: .whitespacesAndNewlines))
        else { throw BenchmarkFailure.engine("tools", "\(helper) reported nothing for \(program)") }
        return ChildRun(arguments: [program] + arguments, seconds: seconds, peakBytes: kilobytes * 1024, status: code)
    }
}
