import Foundation
import ObjDB
import ToolSupport

/// Parses `objdb-inspect PATH [COMMAND] [OPTIONS]` and runs the command.
enum InspectCommand {
    static let usage = """
        usage: objdb-inspect PATH [COMMAND] [OPTIONS]

        Browse, query, watch, check and dump an ObjDB store without its Swift classes.
        Opens read-only (safe on a live store) except for import.

        commands:
          info                          format, file, map, readers and per-database statistics
          schema [--json]               types and properties
          count [TYPE]                  objects per type, or of one type
          dump TYPE [--where P] [--sort A,-B] [--limit N] [--offset N] [--props A,B]
                    [--format table|json|ndjson|csv]
          get TYPE KEY                  one object with its links and backlinks
          watch TYPE [--where P] [--interval MS]
                                        the count, then every change as any process commits
          check                         verify records, indexes, links and backlinks
          export [TYPE…] [--format ndjson|json] [--output FILE]
          import FILE                   objects from an export (ndjson or json)
          compact OUT                   a compacted copy of the store at OUT
          (none)                        an interactive shell of these commands

        options: --no-color, --help
        exit codes: 0 ok, 1 failure or problems found, 2 usage
        """

    /// `objdb-inspect PATH COMMAND --help`.
    static let commandHelp: [String: String] = [
        "info":
            "usage: objdb-inspect PATH info\n\nFormat and schema versions, file and map size, readers (live and stale),\nthe oldest pinned version, and each named database's depth, pages and entries.",
        "schema":
            "usage: objdb-inspect PATH schema [--json]\n\nEvery type and property: type, optional, primary key, index, link target, inverse.",
        "count": "usage: objdb-inspect PATH count [TYPE]\n\nThe number of objects of each type, or of TYPE.",
        "dump":
            "usage: objdb-inspect PATH dump TYPE [--where PREDICATE] [--sort A,-B] [--limit N] [--offset N]\n                          [--props A,B] [--format table|json|ndjson|csv]\n\nObjects of TYPE. PREDICATE is the string predicate syntax (retweetCount > 10 AND lang == 'en');\n-B sorts descending. Links print as Type(key); tables summarize lists, JSON holds them whole.",
        "get":
            "usage: objdb-inspect PATH get TYPE KEY\n\nOne object by primary key (#N for an internal ID): every property, its links, its backlinks.",
        "watch":
            "usage: objdb-inspect PATH watch TYPE [--where PREDICATE] [--interval MS]\n\nPrints the count, then every committed change by any process: + inserted, - deleted,\n~ modified with the changed properties. Polls every MS milliseconds (100). Ctrl-C stops.",
        "check":
            "usage: objdb-inspect PATH check\n\nVerifies records, index entries, links and backlinks. Exit code 1 and a line per problem.",
        "export":
            "usage: objdb-inspect PATH export [TYPE…] [--format ndjson|json] [--output FILE]\n\nObjects as JSON, with _type and _key; links as the linked object's key.",
        "import":
            "usage: objdb-inspect PATH import FILE\n\nObjects from an export (ndjson or json), in one write transaction.",
        "compact":
            "usage: objdb-inspect PATH compact OUT\n\nLMDB's compacting copy of the store, written to the new file OUT.",
    ]

    static let valueOptions: Set<String> = [
        "where", "sort", "limit", "offset", "props", "format", "output", "interval",
    ]

    static func run(_ words: [String]) throws -> ToolExitCode {
        let arguments = try CommandLineArguments(words, valueOptions: valueOptions)
        if arguments.positional.isEmpty {
            print(usage)
            return arguments.has("help") ? .success : .usage
        }
        let path = arguments.positional[0]
        let terminal = Terminal(noColor: arguments.has("no-color"))
        guard arguments.positional.count > 1 else {
            if arguments.has("help") {
                print(usage)
                return .success
            }
            return try Shell(path: path, terminal: terminal).run()
        }
        return try runCommand(
            path: path, words: Array(arguments.positional.dropFirst()), arguments: arguments, terminal: terminal)
    }

    static func runCommand(path: String, words: [String], arguments: CommandLineArguments, terminal: Terminal) throws
        -> ToolExitCode
    {
        let command = words[0]
        let operands = Array(words.dropFirst())
        if arguments.has("help") {
            guard let help = commandHelp[command] else { throw UsageError("unknown command '\(command)'") }
            print(help)
            return .success
        }
        let known = Set(["help", "no-color", "json"]).union(valueOptions)
        if let unknown = arguments.unknown(known: known).first { throw UsageError("unknown option --\(unknown)") }
        switch command {
        case "info":
            return try InfoCommand(path: path).run()
        case "schema":
            return try SchemaCommand(path: path, json: arguments.has("json"), terminal: terminal).run()
        case "count":
            return try CountCommand(path: path, type: operands.first, terminal: terminal).run()
        case "dump":
            guard let type = operands.first else { throw UsageError("dump needs a TYPE") }
            return try DumpCommand(path: path, type: type, arguments: arguments, terminal: terminal).run()
        case "get":
            guard operands.count == 2 else { throw UsageError("get needs a TYPE and a KEY") }
            return try GetCommand(path: path, type: operands[0], key: operands[1], terminal: terminal).run()
        case "watch":
            guard let type = operands.first else { throw UsageError("watch needs a TYPE") }
            return try WatchCommand(
                path: path, type: type, filter: arguments.value("where"),
                interval: try arguments.integer("interval", default: 100)
            ).run()
        case "check":
            return try CheckCommand(path: path, terminal: terminal).run()
        case "export":
            let format = arguments.value("format") ?? "ndjson"
            guard ["ndjson", "json"].contains(format) else { throw UsageError("export writes ndjson or json") }
            return try ExportCommand(path: path, types: operands, format: format, output: arguments.value("output"))
                .run()
        case "import":
            guard let file = operands.first else { throw UsageError("import needs a FILE") }
            return try ImportCommand(path: path, file: file).run()
        case "compact":
            guard let output = operands.first else { throw UsageError("compact needs an OUT path") }
            return try CompactCommand(path: path, output: output).run()
        default:
            throw UsageError("unknown command '\(command)'")
        }
    }

    /// The store, opened read-only by its stored schema.
    static func open(_ path: String, writable: Bool = false) throws -> Database {
        guard FileManager.default.fileExists(atPath: path) else { throw ObjDBError.storeNotFound(path: path) }
        var configuration = Configuration(path: path)
        configuration.readOnly = !writable
        return try Database(configuration: configuration)
    }
}
