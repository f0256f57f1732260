import Foundation
import ObjDB
import Testing

@testable import ObjDBSync

/// What an Article Search payload holds, read with Foundation's parser, independently of the importer.
private struct ArticleFacts {
    var ids: [String] = []
    var withoutID = 0
    var publishedAt: [String: Date] = [:]
    var wordCount: [String: Int] = [:]
    var headline: [String: String] = [:]

    init(_ data: Data) throws {
        let root = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        let docs = (root["response"] as! [String: Any])["docs"] as! [[String: Any]]
        let iso = ISO8601DateFormatter()
        for doc in docs {
            guard let id = doc["_id"] as? String else {
                withoutID += 1
                continue
            }
            ids.append(id)
            if let date = doc["pub_date"] as? String {
                publishedAt[id] = iso.date(from: date.replacingOccurrences(of: "+0000", with: "Z"))
            }
            wordCount[id] = (doc["word_count"] as? Int) ?? Int(doc["word_count"] as? String ?? "")
            headline[id] = (doc["headline"] as? [String: Any])?["main"] as? String
        }
    }
}

@Suite("NYT: recorded payloads", .enabled(if: fixturesAvailable, fixturesAbsent))
struct NYTFixtureTests {
    @Test func everyPayloadStoresItsDocsWithTheirValues() throws {
        let names = try fixtureNames("nyt")
        #expect(names.count == 7)
        for name in names {
            let data = try fixture(name)
            let facts = try ArticleFacts(data)
            let store = try SyncStore()
            let page = try store.nyt.importPage(data, search: ArticleSearchQuery("bailout"))
            let view = try store.database.view()
            #expect(Set(view.objects(Article.self).map(\.id)) == Set(facts.ids), "\(name)")
            #expect(page.articleIDs == facts.ids, "\(name)")
            #expect(page.summary[Article.self].skipped == facts.withoutID, "\(name)")
            for id in facts.ids {
                let article = try #require(view.object(ofType: Article.self, forPrimaryKey: id))
                #expect(article.publishedAt == facts.publishedAt[id], "\(name) \(id)")
                #expect(article.wordCount == facts.wordCount[id], "\(name) \(id)")
                #expect(article.headline == facts.headline[id], "\(name) \(id)")
            }
            let search = view.object(ofType: ArticleSearch.self, forPrimaryKey: "bailout")
            #expect(search?.articles.map(\.id) == facts.ids, "\(name)")
        }
    }

    @Test func importingEveryPayloadTwiceChangesNothing() throws {
        for name in try fixtureNames("nyt") {
            let data = try fixture(name)
            let store = try SyncStore()
            try store.nyt.importPage(data, search: ArticleSearchQuery("q"))
            let before = try store.snapshot()
            let version = try store.version()
            let again = try store.nyt.importPage(data, search: ArticleSearchQuery("q"))
            #expect(!again.summary.changedAnything, "\(name): \(again.summary)")
            #expect(try store.version() == version, "\(name)")
            #expect(try store.snapshot() == before, "\(name)")
        }
    }

    @Test func keywordsBylinesAndRelativeImageURLsOfEveryEraMap() throws {
        let store = try SyncStore()
        try store.nyt.importPage(try fixture("nyt/articlesearch_2016_sjgraboski.json"))
        try store.nyt.importPage(try fixture("nyt/articlesearch_2018_rtimes_bailout.json"))
        let articles = try store.database.view().objects(Article.self)
        #expect(articles.contains { $0.keywords.contains(where: \.isMajor) })  // is_major "Y", 2016
        #expect(articles.contains { $0.byline == nil })  // byline null, 2018
        let images = articles.flatMap { Array($0.multimedia) }
        #expect(!images.isEmpty)
        #expect(images.allSatisfy { $0.url.hasPrefix("https://www.nytimes.com/images/") })
    }
}

@Suite("NYT: generated payloads")
struct NYTImportTests {
    @Test func theMultimediaObjectSent2025BecomesOneImagePerCrop() throws {
        var generator = NYTPayloadGenerator(seed: 3)
        let store = try SyncStore()
        try store.nyt.importPage(generator.page(count: 10, shape: .current))
        let id = NYTPayloadGenerator.identifier(number: 0, shape: .current)
        let article = try #require(try store.database.view().object(ofType: Article.self, forPrimaryKey: id))
        #expect(id.hasPrefix("nyt://article/"))
        #expect(article.multimedia.map(\.cropName) == ["default", "thumbnail"])
        #expect(article.multimedia.map(\.width) == [2048, 75])
        #expect(
            article.multimedia.allSatisfy {
                $0.caption == "A trading floor." && $0.credit == "Photo by A. Photographer"
            })
        #expect(article.multimedia[0].url.hasPrefix("https://static01.nyt.com/images/2025/"))
        #expect(article.byline == "By Jane Doe")
        #expect(article.keywords.map(\.rank) == [1, 2])
        #expect(article.headline.hasPrefix("Story 0:"))
    }

    @Test func theClassicShapeWithNullBylinesAndMajorKeywordsMaps() throws {
        var generator = NYTPayloadGenerator(seed: 4)
        let store = try SyncStore()
        try store.nyt.importPage(generator.page(count: 10, shape: .classic))
        let article = try #require(
            try store.database.view().object(
                ofType: Article.self, forPrimaryKey: NYTPayloadGenerator.identifier(number: 3, shape: .classic)))
        #expect(article.byline == nil)
        #expect(article.multimedia.first?.url.hasPrefix("https://www.nytimes.com/images/2018/") == true)
        #expect(article.keywords.first?.isMajor == false)
        #expect(article.uri?.hasPrefix("nyt://article/") == true)
    }

    @Test func runningASearchAgainReplacesItsListButKeepsTheArticles() throws {
        var generator = NYTPayloadGenerator(seed: 5)
        let store = try SyncStore()
        let query = ArticleSearchQuery("bailout", from: Date(timeIntervalSince1970: 1_222_819_200))
        try store.nyt.importPage(generator.page(count: 10, offset: 0, hits: 30), search: query)
        try store.nyt.importPage(generator.page(count: 10, offset: 10, hits: 30), search: query)
        let view = try store.database.view()
        let search = try #require(view.object(ofType: ArticleSearch.self, forPrimaryKey: query.identifier))
        #expect(
            search.articles.map(\.id) == (0..<20).map { NYTPayloadGenerator.identifier(number: $0, shape: .current) })
        #expect(search.hits == 30)
        #expect(query.identifier == "bailout 20081001-")

        // The search run again: its first page now holds other docs.
        var later = NYTPayloadGenerator(seed: 6)
        let rerun = later.page(count: 10, offset: 0, hits: 12)
            .replacingOccurrences(of: "00000000-0000-4000-8000", with: "11111111-0000-4000-8000")
        try store.nyt.importPage(rerun, search: query)
        try view.refresh()
        let replaced = try #require(view.object(ofType: ArticleSearch.self, forPrimaryKey: query.identifier))
        #expect(replaced.articles.count == 10)
        #expect(replaced.articles.allSatisfy { $0.id.contains("11111111") })
        #expect(replaced.hits == 12)
        #expect(view.objects(Article.self).count == 30)
    }

    @Test func faultsAndErrorStatusesAreTypedErrors() throws {
        let store = try SyncStore()
        let cases: [(Data, SyncError.Code, [SyncError.APIMessage])] = [
            (
                NYTPayloadGenerator.faultBody("Invalid ApiKey", code: "oauth.v2.InvalidApiKey"), .apiError,
                [.init(code: "oauth.v2.InvalidApiKey", message: "Invalid ApiKey")]
            ),
            (
                NYTPayloadGenerator.rateLimitBody, .rateLimited,
                [
                    .init(
                        code: "policies.ratelimit.QuotaViolation",
                        message: "Rate limit quota violation. Quota limit  exceeded. Identifier : 0000")
                ]
            ),
            (
                NYTPayloadGenerator.statusErrorBody(["Invalid Date: 2014-11-24.", "Not Found"]), .apiError,
                [.init(code: nil, message: "Invalid Date: 2014-11-24."), .init(code: nil, message: "Not Found")]
            ),
        ]
        for (body, code, messages) in cases {
            let error = try #require(throws: SyncError.self) {
                try store.nyt.importPage(body, search: ArticleSearchQuery("q"))
            }
            #expect(error.code == code)
            #expect(error.apiMessages == messages)
        }
        #expect(try store.counts().values.allSatisfy { $0 == 0 })
    }
}

extension Data {
    fileprivate func replacingOccurrences(of target: String, with replacement: String) -> Data {
        Data(String(decoding: self, as: UTF8.self).replacingOccurrences(of: target, with: replacement).utf8)
    }
}
