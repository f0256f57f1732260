import Foundation
import ObjDB
import ObjDBInspection
import ToolSupport

/// `check`: verifies every record, index entry, link and backlink; exit code 1 when anything is wrong.
struct CheckCommand: Subcommand {
    static let spec = CommandSpec(
        name: "check", abstract: "verify records, indexes, links and backlinks",
        discussion: """
            Verifies that every record decodes, every index entry points at an object holding its
            value and every object is indexed, every link reaches an object, and backlinks match
            links. Exit code 1 and a line per problem. Reads each database once, in key order.
            First checks the file's pages, so a file too damaged to open still gets its list.
            """)

    init(parsing arguments: ParsedCommand) {}

    func run(in context: InspectContext) throws -> ToolExitCode {
        try context.requireStore()
        // Read before LMDB opens the file: a store it refuses (or would fault on) still gets its page problems.
        let pageProblems = try PageCheck.problems(path: context.path)
        let database: Database
        do {
            database = try context.open()
        } catch {
            // Pages that looked wrong unpinned may just be a live writer's reuse; unopenable, they are the report.
            guard !pageProblems.isEmpty else { throw error }
            return report(pageProblems.map(\.description), in: context)
        }
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

    /// Lists the page problems of a file that does not open (its open error would only send the user here).
    private func report(_ problems: [String], in context: InspectContext) -> ToolExitCode {
        for problem in problems {
            context.print(context.terminal.red("problem") + ": " + DisplayText.escapedString(problem))
        }
        context.print("\(problems.count) problem(s) found; the store does not open")
        return .failure
    }
}
