import ToolSupport

/// `objdb-sync`: dispatches to its subcommands.
enum SyncCommand {
    static let usage = """
        usage: objdb-sync import twitter --store PATH [--timeline NAME] FILE…
               objdb-sync import nyt --store PATH [--query Q [--from yyyyMMdd] [--to yyyyMMdd]] FILE…
               objdb-sync parse twitter FILE

        import   imports saved API response bodies into the store at PATH (created when
                 absent), each file in one write transaction: a file that fails leaves the
                 store as it was and the others still import. Shows progress on a terminal
                 and prints what each type gained.
                 twitter: statuses/home_timeline, user_timeline, mentions_timeline,
                 search/tweets and users/show bodies; --timeline home, mentions, user:NAME
                 or search:QUERY adds the statuses to that timeline (search bodies go to
                 search:QUERY by default).
                 nyt: Article Search v2 bodies; --query (with --from/--to) records the
                 results, in order, as that search.
        parse    reports what a saved Twitter response holds and how to page on, storing nothing.

        exit codes: 0 ok, 1 a file failed (its name and the JSON path are printed), 2 usage
        """

    static func run(_ words: [String]) throws -> ToolExitCode {
        let arguments = try CommandLineArguments(words, valueOptions: ["store", "timeline", "query", "from", "to"])
        if arguments.has("help") {
            print(usage)
            return .success
        }
        guard arguments.positional.count >= 2 else { throw UsageError("expected a command and a service") }
        let service = arguments.positional[1]
        let files = Array(arguments.positional.dropFirst(2))
        switch (arguments.positional[0], service) {
        case ("import", "twitter"):
            try reject(arguments, known: ["store", "timeline"])
            return try ImportCommand(arguments, service: .twitter, files: files).run()
        case ("import", "nyt"):
            try reject(arguments, known: ["store", "query", "from", "to"])
            return try ImportCommand(arguments, service: .nyt, files: files).run()
        case ("parse", "twitter"):
            try reject(arguments, known: [])
            guard files.count == 1 else { throw UsageError("parse twitter takes one FILE") }
            return try ParseCommand.run(file: files[0])
        case ("import", _), ("parse", _):
            throw UsageError("unknown service '\(service)': expected twitter or nyt")
        default:
            throw UsageError("unknown command '\(arguments.positional[0])': expected import or parse")
        }
    }

    private static func reject(_ arguments: CommandLineArguments, known: Set<String>) throws {
        if let unknown = arguments.unknown(known: known.union(["help"])).first {
            throw UsageError("unknown option --\(unknown)")
        }
    }
}
