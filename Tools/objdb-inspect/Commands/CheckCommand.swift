import ObjDB
import ToolSupport

/// `check`: verifies every record, index entry, link and backlink; exit code 1 when anything is wrong.
struct CheckCommand {
    let path: String
    let terminal: Terminal

    func run() throws -> ToolExitCode {
        let database = try InspectCommand.open(path)
        let problems = try StoreCheck(database: database).problems()
        if problems.isEmpty {
            print(terminal.green("ok") + ": records, indexes, links and backlinks are consistent")
            return .success
        }
        for problem in problems { print(terminal.red("problem") + ": \(problem)") }
        print("\(problems.count) problem(s) found")
        return .failure
    }
}
