import Foundation
import TestSupport
import Testing

/// `objdb-inspect dump --where` takes a predicate's `SORT`/`DISTINCT`/`LIMIT` trailer (#17.5):
/// the trailer applies first, then `--sort` (its ties in the trailer's order), then
/// `--offset` and `--limit` page what is left.
@Suite("objdb-inspect: SORT, DISTINCT and LIMIT in --where")
struct InspectOrderingClauseTests {
    let directory = TemporaryDirectory()

    /// The demo's Twitter cache: 200 tweets by 8 users.
    func demoStore() throws -> String {
        let store = directory.path + "/demo.objdb"
        let demo = try run("objdb-demo", [store])
        #expect(demo.status == 0, "\(demo.error)")
        return store
    }

    func screenNames(_ store: String, _ options: [String]) throws -> [String] {
        let result = try run(
            "objdb-inspect", [store, "dump", "TwitterUser", "--props", "screenName", "--format", "csv"] + options)
        #expect(result.status == 0, "\(result.error)")
        return Array(result.output.split(separator: "\n").dropFirst().map(String.init))
    }

    @Test func aTrailerInWhereDumpsAsTheSortAndLimitOptionsDo() throws {
        let store = try demoStore()
        let trailer = try screenNames(store, ["--where", "TRUEPREDICATE SORT(screenName DESC) LIMIT(3)"])
        let options = try screenNames(store, ["--sort", "-screenName", "--limit", "3"])
        #expect(trailer.count == 3)
        #expect(trailer == options)
    }

    @Test func theSortOptionSortsWhatTheTrailerLeft() throws {
        let store = try demoStore()
        let ascending = try screenNames(store, ["--sort", "screenName"])
        let dumped = try screenNames(
            store, ["--where", "TRUEPREDICATE SORT(screenName ASC) LIMIT(3)", "--sort", "-screenName"])
        #expect(dumped == Array(ascending.prefix(3).reversed()))
    }

    @Test func offsetAndLimitPageWhatTheTrailerLeft() throws {
        let store = try demoStore()
        let ascending = try screenNames(store, ["--sort", "screenName"])
        let page = try screenNames(
            store, ["--where", "TRUEPREDICATE SORT(screenName ASC) LIMIT(4)", "--offset", "2", "--limit", "5"])
        #expect(page == Array(ascending[2..<4]))
    }

    @Test func aTrailerWithoutASortDumpsInKeyOrder() throws {
        let store = try demoStore()
        let all = try screenNames(store, [])
        #expect(try screenNames(store, ["--where", "id > 0 LIMIT(2)"]) == Array(all.prefix(2)))
    }

    @Test func aMalformedTrailerIsASyntaxError() throws {
        let store = try demoStore()
        let result = try run("objdb-inspect", [store, "dump", "TwitterUser", "--where", "id > 0 LIMIT(x)"])
        #expect(result.status == 1)
        #expect(result.error.contains("syntax error at position 13"))
    }
}
