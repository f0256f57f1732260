import Foundation
import ObjDB
import ObjDBInspection
import ToolSupport

/// `import FILE`: objects from an `export`, streamed, in one write transaction (or in batches).
struct ImportCommand: Subcommand {
    static let spec = CommandSpec(
        name: "import", abstract: "objects from an export (ndjson or json)",
        discussion: """
            Reads FILE as it streams: NDJSON (one object per line, LF or CRLF), a JSON array of objects,
            or an object of arrays by type (export --format json). Objects are upserted by their key
            (_key, or the primary key); properties left out keep their stored values. The whole file is
            one write transaction, committed only if every object is valid, unless --batch N commits
            every N objects: a load larger than memory, where a failure names the batch rolled back.
            """,
        operands: [.init("FILE")],
        options: [.value("batch", "N", "commit every N objects instead of once")])

    let file: String
    let batch: Int?

    init(parsing arguments: ParsedCommand) throws(UsageError) {
        file = arguments.operands[0]
        batch = try arguments.integer("batch", in: 1...Int.max)
    }

    func run(in context: InspectContext) throws -> ToolExitCode {
        guard access(file, R_OK) == 0 else {
            throw InspectError("cannot read \(file): \(OutputError.reason(errno, path: file))")
        }
        var status = stat()
        let total = stat(file, &status) == 0 ? Int(status.st_size) : 0
        let database = try context.open(writable: true)
        let progress = ProgressLine(label: "import")
        let summary = try ObjectImport(database: database, file: file, batchSize: batch).run { objects, bytes in
            progress?.update(done: bytes, total: total, detail: "\(objects) objects, bytes")
        }
        progress?.finish()
        let batches = batch == nil ? "" : " in \(summary.batches) batch(es)"
        context.print("imported \(summary.objects) object(s) into \(context.path)\(batches)")
        return .success
    }
}
