import Foundation
import ObjDB

/// What ``TimelineLoader`` pages through: one API's client and importer. The loader's algorithm
/// (since the newest, down page by page, gaps recorded and filled) is the same for v1.1 and v2;
/// a source says only how a request is spelled and whether a page had more after it.
protocol TimelinePageSource: Sendable {
    /// The timeline the pages join.
    var timelineName: String { get }
    /// The store.
    var database: Database { get }
    /// Fetches posts with IDs above `sinceID` and within `cursor`, newest first, at most `count`.
    func fetch(sinceID: Int64?, cursor: TimelineCursor, count: Int) async throws -> Data
    /// Imports a fetched body into the timeline, rewriting its gaps with `editGaps` in the same transaction.
    func importPage(_ body: Data, editingGaps editGaps: GapEdit?) throws -> TwitterPage
    /// The request of the rest of the range after `page` (asked with `cursor`), or `nil` when the
    /// page was the range's last.
    func cursor(after page: TimelinePageFacts, asked cursor: TimelineCursor, count: Int) -> TimelineCursor?
}

/// Where in a range of IDs a request starts: at most `maxID`, and for v2, past the page a
/// `token` continues.
struct TimelineCursor: Sendable, Hashable {
    var maxID: Int64?
    var token: String?
}

/// Twitter API v1.1: `since_id`, `max_id` (inclusive) and `count`; a page as long as `count`
/// says there may be more, to be asked for below its lowest ID.
struct TwitterTimelineSource: TimelinePageSource {
    let endpoint: TwitterEndpoint
    let client: TwitterClient
    let importer: TwitterImporter

    var timelineName: String { endpoint.timelineName }
    var database: Database { importer.database }

    func fetch(sinceID: Int64?, cursor: TimelineCursor, count: Int) async throws -> Data {
        try await client.fetchPage(endpoint, sinceID: sinceID, maxID: cursor.maxID, count: count)
    }

    func importPage(_ body: Data, editingGaps editGaps: GapEdit?) throws -> TwitterPage {
        try importer.importPage(body, timeline: timelineName, editingGaps: editGaps)
    }

    func cursor(after page: TimelinePageFacts, asked cursor: TimelineCursor, count: Int) -> TimelineCursor? {
        guard page.statusIDs.count >= count, let lowest = page.statusIDs.min() else { return nil }
        return TimelineCursor(maxID: lowest - 1)
    }
}

/// X API v2: `since_id` and `until_id` (both exclusive) bound the range, `pagination_token`
/// walks it; a page says there is more by its `meta.next_token`.
struct XTimelineSource: TimelinePageSource {
    let endpoint: XEndpoint
    let client: XClient
    let importer: XImporter

    var timelineName: String { endpoint.timelineName }
    var database: Database { importer.database }

    func fetch(sinceID: Int64?, cursor: TimelineCursor, count: Int) async throws -> Data {
        let untilID = cursor.maxID.flatMap { $0 < Int64.max ? $0 + 1 : nil }
        return try await client.fetchPage(
            endpoint, sinceID: sinceID, untilID: untilID, paginationToken: cursor.token, maxResults: count)
    }

    func importPage(_ body: Data, editingGaps editGaps: GapEdit?) throws -> TwitterPage {
        try importer.importPage(body, timeline: timelineName, editingGaps: editGaps)
    }

    func cursor(after page: TimelinePageFacts, asked cursor: TimelineCursor, count: Int) -> TimelineCursor? {
        page.nextToken.map { TimelineCursor(maxID: cursor.maxID, token: $0) }
    }
}
