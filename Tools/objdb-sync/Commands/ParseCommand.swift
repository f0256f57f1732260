import Foundation
import ObjDB
import ObjDBSync
import ToolSupport

/// `objdb-sync parse twitter|x FILE`: what an import would store, into a throwaway store.
enum ParseCommand {
    static func run(file: String, isX: Bool = false) throws -> ToolExitCode {
        guard let data = FileManager.default.contents(atPath: file) else {
            printError("objdb-sync: cannot read \(file)")
            return .failure
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("objdb-sync-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try Database(
            path: directory.appendingPathComponent("parse.objdb").path, types: TwitterImporter.modelTypes)
        let page: TwitterPage
        do {
            page =
                isX
                ? try XImporter(database: database).importPage(data)
                : try TwitterImporter(database: database).importPage(data)
        } catch {
            printError("objdb-sync: \(file): \(error)")
            return .failure
        }
        let view = try database.view()
        let retweets = page.statusIDs.filter {
            view.object(ofType: Tweet.self, forPrimaryKey: $0)?.retweetedStatus != nil
        }
        print("statuses:  \(page.statusIDs.count) (\(view.objects(Tweet.self).count) with retweeted and quoted ones)")
        print("retweets:  \(retweets.count)")
        print("users:     \(view.objects(TwitterUser.self).count)")
        print("since_id:  \(page.newestID.map(String.init) ?? "-")  (asks for newer statuses)")
        if isX {
            print("until_id:  \(page.oldestID.map(String.init) ?? "-")  (asks for older posts)")
            print("next_token: \(page.nextToken ?? "-")  (pagination_token of the next older page)")
            for error in page.summary.partialErrors { print("partial error: \(error)") }
        } else {
            print("max_id:    \(page.oldestID.map { String($0 - 1) } ?? "-")  (asks for the next older page)")
        }
        return .success
    }
}
