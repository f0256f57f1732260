import ObjDB
import ToolSupport

/// `count [TYPE]`: objects per type, or the number of one type.
struct CountCommand {
    let path: String
    let type: String?
    let terminal: Terminal

    func run() throws -> ToolExitCode {
        let database = try InspectCommand.open(path)
        return try database.read { view in
            if let type {
                print(try view.count(type))
                return .success
            }
            let rows = try database.schema.types.filter { !$0.isEmbedded }.map {
                [$0.name, String(try view.count($0.name))]
            }
            print(
                FittedTable(header: ["Type", "Objects"], rows: rows).render(width: terminal.width, terminal: terminal))
            return .success
        }
    }
}
