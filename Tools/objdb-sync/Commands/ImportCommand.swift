import Foundation
import ObjDB
import ObjDBSync
import ToolSupport

/// `objdb-sync import twitter|x|nyt --store PATH … FILE…`: each file in a write transaction of its own.
struct ImportCommand {
    enum Service { case twitter, x, nyt }

    let service: Service
    let store: String
    let files: [String]
    let timeline: String?
    let search: ArticleSearchQuery?

    init(_ arguments: CommandLineArguments, service: Service, files: [String]) throws {
        guard let store = arguments.value("store"), !store.isEmpty else { throw UsageError("--store PATH is required") }
        guard !files.isEmpty else { throw UsageError("no FILE to import") }
        self.service = service
        self.store = store
        self.files = files
        timeline = arguments.value("timeline")
        if let timeline, !Timeline.isValidName(timeline) {
            throw UsageError("--timeline takes home, mentions, user:NAME or search:QUERY, not '\(timeline)'")
        }
        let from = try arguments.value("from").map { try Self.day($0, option: "from") }
        let to = try arguments.value("to").map { try Self.day($0, option: "to") }
        if let query = arguments.value("query") {
            guard !query.isEmpty else { throw UsageError("--query needs a query") }
            search = ArticleSearchQuery(query, from: from, to: to)
        } else {
            guard from == nil, to == nil else { throw UsageError("--from and --to describe a --query") }
            search = nil
        }
    }

    func run() throws -> ToolExitCode {
        let database: Database
        do {
            database = try Database(configuration: .syncStore(path: store))
        } catch {
            printError("objdb-sync: cannot open \(store): \(error)")
            return .failure
        }
        let progress = ProgressBar(total: files.count, noun: service == .nyt ? "articles" : "posts")
        var total = ImportSummary()
        var failures = 0
        for (number, file) in files.enumerated() {
            progress.update(
                done: number, current: file, items: total[service == .nyt ? "Article" : "Tweet"].inserted)
            do {
                let data = try read(file)
                switch service {
                case .twitter:
                    total.add(try TwitterImporter(database: database).importPage(data, timeline: timeline).summary)
                case .x:
                    total.add(try XImporter(database: database).importPage(data, timeline: timeline).summary)
                case .nyt:
                    total.add(try NYTImporter(database: database).importPage(data, search: search).summary)
                }
            } catch {
                failures += 1
                progress.clear()
                printError("objdb-sync: \(file): \(error)")
            }
        }
        progress.clear()
        print("imported \(files.count - failures) of \(files.count) file\(files.count == 1 ? "" : "s") into \(store)")
        printSummary(total)
        if failures > 0 { printError("objdb-sync: \(failures) of \(files.count) files failed; the others imported") }
        return failures == 0 ? .success : .failure
    }

    private func read(_ file: String) throws -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw CannotRead(reason: (error as NSError).localizedDescription)
        }
    }

    private struct CannotRead: Error, CustomStringConvertible {
        let reason: String
        var description: String { "cannot read the file: \(reason)" }
    }

    /// Midnight UTC of `yyyyMMdd`.
    private static func day(_ text: String, option: String) throws -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard text.count == 8, text.allSatisfy(\.isASCII), let number = Int(text),
            let date = calendar.date(
                from: DateComponents(year: number / 10_000, month: number / 100 % 100, day: number % 100)),
            ArticleSearchQuery.dayString(date) == text
        else { throw UsageError("--\(option) takes a day as yyyyMMdd, not '\(text)'") }
        return date
    }
}
