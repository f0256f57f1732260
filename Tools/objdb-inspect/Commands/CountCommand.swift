import ObjDB
import ToolSupport

/// `count [TYPE]`: objects per type, or the number of one type.
struct CountCommand: Subcommand {
    static let spec = CommandSpec(
        name: "count", abstract: "objects per type, or of one type",
        discussion: "The number of objects of each type (a table), or of TYPE (the number alone).",
        operands: [.init("TYPE", optional: true)])

    let type: String?

    init(parsing arguments: ParsedCommand) {
        type = arguments.operands.first
    }

    func run(in context: InspectContext) throws -> ToolExitCode {
        let database = try context.open()
        return try database.read { view in
            if let type {
                context.print(String(try view.count(type)))
                return .success
            }
            let rows = try database.schema.types.filter { !$0.isEmbedded }.map {
                [$0.name, String(try view.count($0.name))]
            }
            context.print(
                FittedTable(header: ["Type", "Objects"], rows: rows).render(
                    width: context.terminal.width, terminal: context.terminal))
            return .success
        }
    }
}
