import Foundation
import ObjDB
import ToolSupport

/// `check`: verifies every record, index entry, link and backlink; exit code 1 when anything is wrong.
struct CheckCommand: Subcommand {
    static let spec = CommandSpec(
        name: "check", abstract: "verify records, indexes, links and backlinks",
        discussion: """
            Verifies that every record decodes, every index entry points at an object holding its
            value and every object is indexed, every link reaches an object, and backlinks match
            links. Exit code 1 and a line per problem. Reads each database once, in key order.
            """)

    init(parsing arguments: ParsedCommand) {}

    func run(in context: InspectContext) throws -> ToolExitCode {
        let database = try context.open()
        let terminal = context.terminal
        let progress = ProgressLine(label: "check")
        let count = try StoreCheck(database: database).run(
            progress: progress.map { meter in
                { database, done, total in meter.update(done: done, total: total, detail: database) }
            },
            report: { problem in
                progress?.clear()
                context.print(terminal.red("problem") + ": " + DisplayText.escapedString(problem))
            })
        progress?.finish()
        if count == 0 {
            context.print(terminal.green("ok") + ": records, indexes, links and backlinks are consistent")
            return .success
        }
        context.print("\(count) problem(s) found")
        return .failure
    }
}
