import ObjDB
import ToolSupport

let usage = """
    usage: objdb-inspect PATH [COMMAND] [OPTIONS]

    Browse an ObjDB store without its Swift classes. Opens read-only.

    commands:
      info    format version, file and map size, readers, and per-database statistics

    exit codes: 0 ok, 1 failure or problems found, 2 usage
    """

runTool("objdb-inspect", usage: usage) {
    let arguments = try CommandLineArguments(Array(CommandLine.arguments.dropFirst()), valueOptions: [])
    if arguments.has("help") || arguments.positional.isEmpty {
        print(usage)
        return arguments.has("help") ? .success : .usage
    }
    let unknown = arguments.unknown(known: ["help"])
    guard unknown.isEmpty else { throw UsageError("unknown option --\(unknown[0])") }
    let path = arguments.positional[0]
    let command = arguments.positional.count > 1 ? arguments.positional[1] : "info"
    switch command {
    case "info":
        return try InfoCommand(path: path).run()
    default:
        throw UsageError("unknown command '\(command)'")
    }
}
