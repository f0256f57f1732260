import Foundation
import Testing

@testable import ObjDBSync

/// `../shared/fixtures` beside the checkout: real API payloads, never copied into the repository.
let fixtures = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("shared/fixtures")
let fixturesAvailable = FileManager.default.fileExists(atPath: fixtures.path)

func fixture(_ name: String) throws -> Data {
    try Data(contentsOf: fixtures.appendingPathComponent(name))
}

@Suite("Twitter timeline payloads")
struct TwitterTimelinePageTests {
    @Test(.enabled(if: fixturesAvailable, "../shared/fixtures is absent: real-payload tests skipped"))
    func everyRecordedTimelineAndSearchPayloadDecodes() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: fixtures.appendingPathComponent("twitter").path)
            .filter { !$0.hasPrefix("error_") && !$0.hasPrefix("users_show") }
        #expect(names.count >= 17)
        for name in names {
            #expect(throws: Never.self, "\(name)") { try TwitterTimelinePage(json: try fixture("twitter/" + name)) }
        }
    }

    @Test(.enabled(if: fixturesAvailable, "../shared/fixtures is absent: real-payload tests skipped"))
    func aHomeTimelineDecodesItsStatusesRetweetsAndAuthors() throws {
        let page = try TwitterTimelinePage(json: try fixture("twitter/home_timeline_2013_tweepy.json"))
        #expect(page.statuses.count == 20)
        #expect(page.statuses.filter { $0.retweetedStatus != nil }.count == 2)
        #expect(Set(page.statuses.map(\.user.id)).count == 6)
        #expect(page.newestID == 368_780_970_888_925_185)
        #expect(page.olderPageMaxID == 368_417_891_802_419_200)
        let first = page.statuses[0]
        #expect(first.createdAt == Date(timeIntervalSince1970: 1_376_759_209))  // Sat Aug 17 17:06:49 +0000 2013
    }

    @Test(.enabled(if: fixturesAvailable, "../shared/fixtures is absent: real-payload tests skipped"))
    func extendedModeTakesTheFullText() throws {
        let page = try TwitterTimelinePage(json: try fixture("twitter/user_timeline_2022_rtweet_extended.json"))
        #expect(page.statuses.count == 20)
        #expect(page.statuses.contains { $0.text.count > 140 })
    }

    @Test(.enabled(if: fixturesAvailable, "../shared/fixtures is absent: real-payload tests skipped"))
    func anErrorPayloadThrowsTheAPIError() throws {
        #expect(throws: TwitterPayloadError.apiError(code: 215, message: "Bad Authentication data.")) {
            try TwitterTimelinePage(json: try fixture("twitter/error_215_bad_auth_2015_tweepy.json"))
        }
    }

    @Test func anEmptyArrayIsAnEmptyPageWithNoPagingIDs() throws {
        let page = try TwitterTimelinePage(json: Data("[]".utf8))
        #expect(page.statuses.isEmpty)
        #expect(page.newestID == nil)
        #expect(page.olderPageMaxID == nil)
    }

    @Test func idsAbove2To53AreKeptExactlyFromIDStr() throws {
        let json = """
            [{"id": 9007199254740993, "id_str": "9007199254740993", "created_at": "Sat Aug 17 17:06:49 +0000 2013",
              "text": "hi", "user": {"id": 1, "id_str": "1", "name": "A", "screen_name": "a"}}]
            """
        let page = try TwitterTimelinePage(json: Data(json.utf8))
        #expect(page.statuses[0].id == 9_007_199_254_740_993)
    }

    @Test func malformedPayloadsAreTypedErrorsNamingTheField() throws {
        let missingUser = """
            [{"id_str": "1", "created_at": "Sat Aug 17 17:06:49 +0000 2013", "text": "hi"}]
            """
        #expect {
            try TwitterTimelinePage(json: Data(missingUser.utf8))
        } throws: { error in
            guard case TwitterPayloadError.notATimeline(let detail) = error else { return false }
            return detail.contains("user")
        }
        let badDate = """
            [{"id_str": "1", "created_at": "yesterday", "text": "hi",
              "user": {"id_str": "1", "name": "A", "screen_name": "a"}}]
            """
        #expect(throws: TwitterPayloadError.self) { try TwitterTimelinePage(json: Data(badDate.utf8)) }
        #expect(throws: TwitterPayloadError.self) { try TwitterTimelinePage(json: Data("{not json".utf8)) }
        #expect(throws: TwitterPayloadError.self) { try TwitterTimelinePage(json: Data()) }
    }
}
