import Foundation
import TestSupport
import Testing

@Suite("objdb-sync")
struct SyncCommandTests {
    let directory = TemporaryDirectory()

    private func write(_ text: String, to name: String) throws -> String {
        let path = directory.path + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func status(_ id: Int64, user: Int64 = 12, createdAt: String = "\"Sat Aug 17 17:06:49 +0000 2013\"")
        -> String
    {
        """
        {"id_str": "\(id)", "created_at": \(createdAt), "text": "status \(id)",
         "user": {"id_str": "\(user)", "name": "Jack", "screen_name": "jack"}}
        """
    }

    @Test func importingTwitterPagesCreatesTheStoreAndSummarizesEachType() throws {
        let first = try write("[\(status(368_780_970_888_925_185)), \(status(368_780_970_888_925_100))]", to: "a.json")
        let second = try write("[\(status(368_780_970_888_925_300, user: 13))]", to: "b.json")
        let store = directory.store()
        let result = try run(
            "objdb-sync", ["import", "twitter", "--store", store, "--timeline", "home", first, second])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("imported 2 of 2 files into \(store)"))
        let tweetRow = result.output.split(separator: "\n").first { $0.hasPrefix("Tweet ") }
        #expect(tweetRow?.split(separator: " ").map(String.init) == ["Tweet", "3", "0", "0"])

        let count = try run("objdb-inspect", [store, "count", "Tweet"])
        #expect(count.output.contains("3"), "\(count.output)")
        let dump = try run(
            "objdb-inspect", [store, "dump", "Tweet", "--format", "ndjson", "--sort", "-id", "--limit", "1"])
        #expect(dump.output.contains("\"id\":368780970888925300"), "\(dump.output)")
        #expect(dump.output.contains("\"createdAt\":\"2013-08-17T17:06:49"), "\(dump.output)")
    }

    @Test func aFileThatFailsIsNamedWithTheJSONPathAndTheOthersStillImport() throws {
        let good = try write("[\(status(1))]", to: "good.json")
        let bad = try write("[\(status(2)), \(status(3, createdAt: "42"))]", to: "bad.json")
        let missing = directory.path + "/missing.json"
        let store = directory.store()
        let result = try run("objdb-sync", ["import", "twitter", "--store", store, bad, good, missing])
        #expect(result.status == 1)
        #expect(result.error.contains("bad.json: [1].created_at: expected a date string"), "\(result.error)")
        #expect(result.error.contains("missing.json: cannot read"), "\(result.error)")
        #expect(result.output.contains("imported 1 of 3 files"))
        let count = try run("objdb-inspect", [store, "count", "Tweet"])
        #expect(count.output.contains("1"), "\(count.output)")
    }

    @Test func importingNYTPagesWithAQueryRecordsTheSearch() throws {
        let page = """
            {"status": "OK", "response": {"docs": [{"_id": "4fd1a2b28eb7c8105d6d8d3b", "web_url":
             "https://www.nytimes.com/2012/01/01/a.html", "headline": {"main": "A"}, "pub_date": "2012-01-01T18:32:01Z",
             "word_count": "384"}], "meta": {"hits": 1, "offset": 0}}}
            """
        let file = try write(page, to: "nyt.json")
        let store = directory.store()
        let result = try run(
            "objdb-sync", ["import", "nyt", "--store", store, "--query", "bailout", "--from", "20120101", file])
        #expect(result.status == 0, "\(result.error)")
        let search = try run("objdb-inspect", [store, "dump", "ArticleSearch", "--format", "ndjson"])
        #expect(search.output.contains("\"id\":\"bailout 20120101-\""), "\(search.output)")
        #expect(search.output.contains("\"articles\":[\"4fd1a2b28eb7c8105d6d8d3b\"]"), "\(search.output)")
    }

    @Test func importingXPagesShowsTheSummaryAndThePartialErrors() throws {
        let post =
            #"{"id":"1610947986263052289","text":"hello","author_id":"12","edit_history_tweet_ids":["1610947986263052289"]}"#
        let error =
            #"{"value":"9","detail":"Could not find tweet with id: [9].","title":"Not Found Error","resource_type":"tweet","#
            + #""parameter":"ids","resource_id":"9","type":"https://api.twitter.com/2/problems/resource-not-found"}"#
        let page = try write(
            "{\"data\":[\(post)],\"includes\":{\"users\":[{\"id\":\"12\",\"name\":\"Jack\",\"username\":\"jack\"}]},"
                + "\"errors\":[\(error)],\"meta\":{\"result_count\":1,\"next_token\":\"7140abc\"}}", to: "x.json")
        let problem = try write(
            #"{"title":"Unauthorized","type":"about:blank","status":401,"detail":"Unauthorized"}"#, to: "401.json")
        let store = directory.store()
        let result = try run("objdb-sync", ["import", "x", "--store", store, "--timeline", "home", page, problem])
        #expect(result.status == 1)
        #expect(result.output.contains("imported 1 of 2 files into \(store)"), "\(result.output)")
        let tweetRow = result.output.split(separator: "\n").first { $0.hasPrefix("Tweet ") }
        #expect(tweetRow?.split(separator: " ").map(String.init) == ["Tweet", "1", "0", "0"])
        #expect(result.output.contains("1 partial error reported beside the data"), "\(result.output)")
        #expect(result.output.contains("Could not find tweet with id: [9]."), "\(result.output)")
        #expect(
            result.error.contains("401.json: the X API answered with an error: Unauthorized (401)"), "\(result.error)")
        let dump = try run("objdb-inspect", [store, "dump", "Tweet", "--format", "ndjson", "--props", "id,text"])
        #expect(dump.output.contains("\"id\":1610947986263052289"), "\(dump.output)")
        let parse = try run("objdb-sync", ["parse", "x", page])
        #expect(parse.status == 0 && parse.output.contains("next_token: 7140abc"), "\(parse.output)")
        #expect(parse.output.contains("until_id:  1610947986263052289"), "\(parse.output)")
    }

    @Test(arguments: [["-h"], ["--help"], ["import", "-h"], ["x", "--help"]])
    func helpPrintsTheUsageAndExitsZero(arguments: [String]) throws {
        let result = try run("objdb-sync", arguments)
        #expect(result.status == 0, "\(arguments): \(result.error)")
        #expect(result.output.contains("usage: objdb-sync twitter|x home|mentions|user NAME|search QUERY"))
        #expect(result.output.contains("X_USER_ACCESS_TOKEN"))
    }

    @Test func usageErrorsExitWith2() throws {
        let file = try write("[]", to: "empty.json")
        let store = directory.store()
        for arguments in [
            ["import", "twitter", file], ["import", "twitter", "--store", store],
            ["import", "flickr", "--store", store, file], ["export", "twitter", "--store", store, file],
            ["import", "twitter", "--store", store, "--timeline", "list:x", file],
            ["import", "nyt", "--store", store, "--query", "q", "--from", "2012-01-01", file],
            ["import", "nyt", "--store", store, "--from", "20120101", file],
            ["import", "twitter", "--store", store, "--query", "q", file], [],
            ["import", "x", "--store", store, "--query", "q", file], ["import", "x", file], ["parse", "x"],
            ["x", "timeline", "--store", store], ["x", "home", "--store", store, "--older", "--newer"],
        ] {
            let result = try run("objdb-sync", arguments)
            #expect(result.status == 2, "\(arguments): \(result.error)")
            #expect(result.error.contains("usage: objdb-sync"), "\(arguments)")
        }
    }

    @Test func parsingReportsThePagingIDs() throws {
        let path = try write("[\(status(20)), \(status(10))]", to: "page.json")
        let result = try run("objdb-sync", ["parse", "twitter", path])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("since_id:  20"))
        #expect(result.output.contains("max_id:    9"))
    }

    @Test func parsingAMalformedPayloadFailsNamingThePath() throws {
        let path = try write("{\"statuses\": 3}", to: "page.json")
        let result = try run("objdb-sync", ["parse", "twitter", path])
        #expect(result.status == 1)
        #expect(result.error.contains("statuses: expected an array of statuses, found 3"), "\(result.error)")
    }
}
