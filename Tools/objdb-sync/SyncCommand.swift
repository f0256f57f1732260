import ToolSupport

/// `objdb-sync`: dispatches to its subcommands.
enum SyncCommand {
    static let usage = """
        usage: objdb-sync twitter|x home|mentions|user NAME|search QUERY --store PATH
                          [--newer|--older] [--pages N] [--base-url URL]
               objdb-sync nyt search QUERY --store PATH [--from yyyyMMdd] [--to yyyyMMdd] [--pages N]
                          [--delay SECONDS] [--base-url URL]
               objdb-sync import twitter|x --store PATH [--timeline NAME] FILE…
               objdb-sync import nyt --store PATH [--query Q [--from yyyyMMdd] [--to yyyyMMdd]] FILE…
               objdb-sync parse twitter|x FILE
               objdb-sync -h|--help

        twitter  fetches a timeline from Twitter API v1.1 (twitter) or X API v2 (x) into
        x        the store at PATH (created when absent), a write transaction per page:
                 --newer (the default) pages back from the newest until it meets the
                 cache, at most N pages (10; on an empty timeline, N pages down from the
                 newest), recording a gap when it stops first and filling gaps on the next
                 run; --older fetches N pages (1) below the oldest. Both APIs fill the same
                 timelines and posts. home and mentions need a user context; user and
                 search also take an app-only bearer token.
        nyt      fetches N pages (1) of an Article Search, 10 docs each, waiting --delay
                 seconds (12: NYT allows 5 calls a minute) between calls.
                 Keys come from the environment or an owner-only file ($OBJDB_SYNC_CREDENTIALS,
                 else ~/.config/objdb-sync/credentials), never the command line:
                 twitter: TWITTER_CONSUMER_KEY, TWITTER_CONSUMER_SECRET, TWITTER_ACCESS_TOKEN,
                 TWITTER_ACCESS_TOKEN_SECRET (user context) or TWITTER_BEARER_TOKEN (app-only);
                 x: X_USER_ACCESS_TOKEN (an OAuth 2.0 user access token), else the four
                 TWITTER_* keys, else X_BEARER_TOKEN or TWITTER_BEARER_TOKEN (app-only);
                 nyt: NYT_API_KEY. --base-url points at another server (a test server on
                 127.0.0.1).

        import   imports saved API response bodies into the store at PATH (created when
                 absent), each file in one write transaction: a file that fails leaves the
                 store as it was and the others still import. Shows progress on a terminal
                 and prints what each type gained.
                 twitter: statuses/home_timeline, user_timeline, mentions_timeline,
                 search/tweets and users/show bodies; --timeline home, mentions, user:NAME
                 or search:QUERY adds the statuses to that timeline (search bodies go to
                 search:QUERY by default).
                 x: X API v2 bodies (timelines, search, post and user lookups), into the
                 same models; --timeline as for twitter. Partial errors beside the data
                 are listed and fail nothing.
                 nyt: Article Search v2 bodies; --query (with --from/--to) records the
                 results, in order, as that search.
        parse    reports what a saved v1.1 or v2 response holds and how to page on, storing nothing.

        exit codes: 0 ok, 1 a file or a fetch failed (the error is printed), 2 usage
        """

    static func run(_ words: [String]) throws -> ToolExitCode {
        let arguments = try CommandLineArguments(
            words, valueOptions: ["store", "timeline", "query", "from", "to", "pages", "base-url", "delay"])
        if arguments.has("help") || arguments.positional.contains("-h") {
            print(usage)
            return .success
        }
        switch arguments.positional.first {
        case "twitter", "x":
            try reject(arguments, known: ["store", "newer", "older", "pages", "base-url"])
            return try FetchCommand(arguments, service: arguments.positional[0]).run()
        case "nyt":
            try reject(arguments, known: ["store", "from", "to", "pages", "delay", "base-url"])
            return try FetchCommand(arguments, service: "nyt").run()
        default:
            break
        }
        guard arguments.positional.count >= 2 else { throw UsageError("expected a command and a service") }
        let service = arguments.positional[1]
        let files = Array(arguments.positional.dropFirst(2))
        switch (arguments.positional[0], service) {
        case ("import", "twitter"):
            try reject(arguments, known: ["store", "timeline"])
            return try ImportCommand(arguments, service: .twitter, files: files).run()
        case ("import", "x"):
            try reject(arguments, known: ["store", "timeline"])
            return try ImportCommand(arguments, service: .x, files: files).run()
        case ("import", "nyt"):
            try reject(arguments, known: ["store", "query", "from", "to"])
            return try ImportCommand(arguments, service: .nyt, files: files).run()
        case ("parse", "twitter"), ("parse", "x"):
            try reject(arguments, known: [])
            guard files.count == 1 else { throw UsageError("parse \(service) takes one FILE") }
            return try ParseCommand.run(file: files[0], isX: service == "x")
        case ("import", _), ("parse", _):
            throw UsageError("unknown service '\(service)': expected twitter, x or nyt")
        default:
            throw UsageError("unknown command '\(arguments.positional[0])': expected twitter, x, nyt, import or parse")
        }
    }

    private static func reject(_ arguments: CommandLineArguments, known: Set<String>) throws {
        if let unknown = arguments.unknown(known: known.union(["help"])).first {
            throw UsageError("unknown option --\(unknown)")
        }
    }
}
