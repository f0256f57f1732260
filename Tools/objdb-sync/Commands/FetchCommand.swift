import Dispatch
import Foundation
import ObjDB
import ObjDBSync
import Synchronization
import ToolSupport

/// `objdb-sync twitter …`, `objdb-sync x …` and `objdb-sync nyt search …`: fetches over HTTP
/// into a store, each page in a write transaction of its own, with the summary and exit codes of
/// `import`.
struct FetchCommand {
    enum Source {
        case twitter(TwitterEndpoint, older: Bool)
        case x(XEndpoint, older: Bool)
        case nyt(ArticleSearchQuery, delay: Duration)
    }

    let source: Source
    let store: String
    let pages: Int
    let baseURL: URL?

    init(_ arguments: CommandLineArguments, service: String) throws {
        let words = Array(arguments.positional.dropFirst())
        guard let store = arguments.value("store"), !store.isEmpty else { throw UsageError("--store PATH is required") }
        self.store = store
        if let text = arguments.value("base-url") {
            guard let url = URL(string: text.hasSuffix("/") ? text : text + "/"),
                url.scheme == "http" || url.scheme == "https",
                url.host != nil
            else { throw UsageError("--base-url takes an http or https URL, not '\(text)'") }
            baseURL = url
        } else {
            baseURL = nil
        }
        switch service {
        case "twitter", "x":
            let timeline: (kind: String, argument: String?)
            switch (words.first, words.count) {
            case ("home", 1): timeline = ("home", nil)
            case ("mentions", 1): timeline = ("mentions", nil)
            case ("user", 2) where !words[1].isEmpty: timeline = ("user", words[1])
            case ("search", 2) where !words[1].isEmpty: timeline = ("search", words[1])
            default: throw UsageError("\(service) takes home, mentions, user NAME or search QUERY")
            }
            if arguments.has("newer") && arguments.has("older") {
                throw UsageError("--newer and --older exclude each other")
            }
            let older = arguments.has("older")
            pages = try arguments.integer("pages", default: older ? 1 : 10)
            switch (service, timeline.kind, timeline.argument) {
            case ("x", "home", _): source = .x(.home, older: older)
            case ("x", "mentions", _): source = .x(.mentions, older: older)
            case ("x", "user", let name?): source = .x(.user(name), older: older)
            case ("x", _, let query?): source = .x(.search(query), older: older)
            case (_, "home", _): source = .twitter(.home, older: older)
            case (_, "mentions", _): source = .twitter(.mentions, older: older)
            case (_, "user", let name?): source = .twitter(.user(name), older: older)
            case (_, _, let query): source = .twitter(.search(query ?? ""), older: older)
            }
        default:
            guard words.first == "search", words.count == 2, !words[1].isEmpty else {
                throw UsageError("nyt takes search QUERY")
            }
            let from = try arguments.value("from").map { try day($0, option: "from") }
            let to = try arguments.value("to").map { try day($0, option: "to") }
            let delay = try arguments.integer("delay", default: 12)
            guard delay >= 0 else { throw UsageError("--delay takes a number of seconds, 0 or more") }
            pages = try arguments.integer("pages", default: 1)
            source = .nyt(ArticleSearchQuery(words[1], from: from, to: to), delay: .seconds(delay))
        }
        guard pages >= 1 else { throw UsageError("--pages takes a number of pages, 1 or more") }
    }

    func run() throws -> ToolExitCode {
        let credentials: SyncCredentials
        do {
            credentials = try SyncCredentials.load()
        } catch {
            printError("objdb-sync: \(error)")
            return .failure
        }
        let database: Database
        do {
            database = try Database(configuration: .syncStore(path: store))
        } catch {
            printError("objdb-sync: cannot open \(store): \(error)")
            return .failure
        }
        let progress = ProgressBar(total: pages, noun: isTimeline ? "posts" : "articles", unit: "pages")
        let outcome = runBlocking { [source, pages, baseURL] () async throws -> (Int, Int, ImportSummary) in
            let report: @Sendable (TimelineLoad) -> Void = { load in
                progress.update(done: load.pages, current: "page \(load.pages)", items: load.statusCount)
            }
            let loader: TimelineLoader
            let older: Bool
            switch source {
            case .twitter(let endpoint, let isOlder):
                let client = TwitterClient(
                    credentials: try credentials.requireTwitter(), baseURL: baseURL ?? TwitterClient.defaultBaseURL)
                loader = TimelineLoader(
                    endpoint, client: client, importer: TwitterImporter(database: database),
                    pageSize: endpoint.isSearch ? 100 : 200)
                older = isOlder
            case .x(let endpoint, let isOlder):
                let client = XClient(
                    credentials: try credentials.requireX(), baseURL: baseURL ?? XClient.defaultBaseURL)
                loader = TimelineLoader(endpoint, client: client, importer: XImporter(database: database))
                older = isOlder
            case .nyt(let search, let delay):
                let client = NYTClient(
                    apiKey: try credentials.requireNYTAPIKey(), baseURL: baseURL ?? NYTClient.defaultBaseURL,
                    minimumDelay: delay)
                let counter = Mutex((pages: 0, articles: 0))
                let load = try await client.load(search, pages: pages, into: NYTImporter(database: database)) { page in
                    let done = counter.withLock { counter in
                        counter.pages += 1
                        counter.articles += page.articleIDs.count
                        return counter
                    }
                    progress.update(done: done.pages, current: "page \(done.pages)", items: done.articles)
                }
                return (load.pages, 0, load.summary)
            }
            let load =
                older
                ? try await loader.loadOlder(pages: pages, progress: report)
                : try await loader.loadNewer(maxPages: pages, progress: report)
            return (load.pages, load.gapsLeft, load.summary)
        }
        progress.clear()
        switch outcome {
        case .success(let (fetched, gapsLeft, summary)):
            print("fetched \(fetched) page\(fetched == 1 ? "" : "s") into \(store)")
            if gapsLeft > 0 {
                print("\(gapsLeft) gap\(gapsLeft == 1 ? "" : "s") left in the timeline: run again with --newer to fill")
            }
            printSummary(summary)
            return .success
        case .failure(let error):
            printError("objdb-sync: \(error)")
            return .failure
        }
    }

    private var isTimeline: Bool {
        if case .nyt = source { return false }
        return true
    }
}

/// Prints what each type gained, as `import` does, then the partial errors the API reported.
func printSummary(_ summary: ImportSummary) {
    var table = TextTable(header: ["Type", "Inserted", "Updated", "Unchanged"])
    for name in summary.typeNames {
        let counts = summary[name]
        table.append([name, "\(counts.inserted)", "\(counts.updated)", "\(counts.unchanged)"])
    }
    if !summary.typeNames.isEmpty { print(table.render()) }
    guard !summary.partialErrors.isEmpty else { return }
    let count = summary.partialErrors.count
    print("\(count) partial error\(count == 1 ? "" : "s") reported beside the data (nothing failed):")
    for error in summary.partialErrors.prefix(10) { print("  \(error)") }
    if count > 10 { print("  … and \(count - 10) more") }
}

/// Runs `body` to completion on the concurrency pool, blocking the calling thread.
func runBlocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) -> Result<T, any Error> {
    let result = Mutex<Result<T, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        let outcome: Result<T, any Error>
        do { outcome = .success(try await body()) } catch { outcome = .failure(error) }
        result.withLock { $0 = outcome }
        done.signal()
    }
    done.wait()
    return result.withLock { $0! }
}

/// Midnight UTC of `yyyyMMdd`.
func day(_ text: String, option: String) throws -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    guard text.count == 8, text.allSatisfy(\.isASCII), let number = Int(text),
        let date = calendar.date(
            from: DateComponents(year: number / 10_000, month: number / 100 % 100, day: number % 100)),
        ArticleSearchQuery.dayString(date) == text
    else { throw UsageError("--\(option) takes a day as yyyyMMdd, not '\(text)'") }
    return date
}

extension TwitterEndpoint {
    var isSearch: Bool {
        if case .search = self { return true }
        return false
    }
}
