import Foundation
import ObjDBSync
import ToolSupport

let usage = """
    usage: objdb-sync parse twitter FILE

    Runs ObjDB's importers. Today it reads a saved Twitter API v1.1 timeline or
    search response and reports what an import would store and how to page on.

    exit codes: 0 ok, 1 failure (unreadable or malformed payload), 2 usage
    """

runTool("objdb-sync", usage: usage) {
    let arguments = try CommandLineArguments(Array(CommandLine.arguments.dropFirst()), valueOptions: [])
    if arguments.has("help") {
        print(usage)
        return .success
    }
    guard arguments.positional.count == 3, arguments.positional[0] == "parse", arguments.positional[1] == "twitter"
    else { throw UsageError("expected: parse twitter FILE") }
    let path = arguments.positional[2]
    guard let data = FileManager.default.contents(atPath: path) else {
        printError("objdb-sync: cannot read \(path)")
        return .failure
    }
    let page = try TwitterTimelinePage(json: data)
    let users = Set(page.statuses.map(\.user.id) + page.statuses.compactMap { $0.retweetedStatus?.user.id })
    print("statuses:  \(page.statuses.count)")
    print("retweets:  \(page.statuses.filter { $0.retweetedStatus != nil }.count)")
    print("users:     \(users.count)")
    print("since_id:  \(page.newestID.map(String.init) ?? "-")  (asks for newer statuses)")
    print("max_id:    \(page.olderPageMaxID.map(String.init) ?? "-")  (asks for the next older page)")
    return .success
}
