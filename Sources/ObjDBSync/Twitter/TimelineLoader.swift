import Foundation
import ObjDB
import Observation
import Synchronization

/// Keeps a ``Timeline`` in a store up to date from Twitter API v1.1 or X API v2 without holes, as
/// the seed's TGRTimeline paged, done right: one paging algorithm over either API's client.
///
/// ```swift
/// let loader = TimelineLoader(.home, client: xClient, importer: XImporter(database: db))
/// try await loader.loadNewer()    // since_id = the newest entry, paging back until it meets the cache
/// try await loader.loadOlder()    // below the oldest entry (max_id, or until_id, = the oldest)
/// ```
///
/// ``loadNewer(maxPages:progress:)`` asks for posts above the timeline's newest entry. While a page
/// says there are more (v1.1: it came back full; v2: it has a `next_token`) it pages back (v1.1:
/// `max_id` = the lowest ID seen minus one; v2: `pagination_token`) until the range is done: it
/// met the cache. When it stops first (the page limit, an error, a cancel), the range it has not
/// fetched stays recorded as a ``TimelineGap``, written in the same transaction as the page before
/// it, and the next `loadNewer` fills the gaps, newest first, once it has caught up. On an empty
/// timeline it pages down from the newest. ``loadOlder(pages:progress:)`` extends the timeline
/// below its oldest entry.
///
/// One load at a time: a second one while ``isLoading`` is `true` throws
/// ``SyncError/Code/loadInProgress`` and fetches nothing. `isLoading` is observable
/// (Observation's `withObservationTracking`, or SwiftUI). A failed fetch leaves the store with
/// what it had, plus the pages already imported.
public final class TimelineLoader: Observable, Sendable {
    /// Posts asked for per page (`count`, or v2's `max_results`).
    public let pageSize: Int
    private let source: any TimelinePageSource
    private let registrar = ObservationRegistrar()
    private let loading = Mutex(false)

    /// A loader of Twitter API v1.1's `endpoint` into the timeline it names, `pageSize` statuses
    /// a page (v1.1 serves up to 200 on timelines and 100 on search).
    public init(_ endpoint: TwitterEndpoint, client: TwitterClient, importer: TwitterImporter, pageSize: Int = 200) {
        source = TwitterTimelineSource(endpoint: endpoint, client: client, importer: importer)
        self.pageSize = max(1, pageSize)
    }

    /// A loader of X API v2's `endpoint` into the timeline it names, `pageSize` posts a page
    /// (clamped to what the endpoint takes: at most 100; search at least 10, user and mentions 5).
    public init(_ endpoint: XEndpoint, client: XClient, importer: XImporter, pageSize: Int = 100) {
        source = XTimelineSource(endpoint: endpoint, client: client, importer: importer)
        self.pageSize = min(endpoint.pageSizes.upperBound, max(endpoint.pageSizes.lowerBound, pageSize))
    }

    /// The name of the timeline it fills.
    public var timelineName: String { source.timelineName }

    /// Whether a load is in flight. Observable.
    public var isLoading: Bool {
        registrar.access(self, keyPath: \.isLoading)
        return loading.withLock { $0 }
    }

    /// Fetches what is newer than the newest entry, then fills recorded gaps, at most `maxPages`
    /// requests in all. On an empty timeline, pages down from the newest, at most `maxPages` pages.
    ///
    /// - Parameter progress: called after each page is stored, with the load so far.
    /// - Throws: ``SyncError``: ``SyncError/Code/loadInProgress`` when a load is in flight,
    ///   otherwise what the fetch or the import threw. The pages imported before stay, with the
    ///   gap below them recorded.
    @discardableResult
    public func loadNewer(maxPages: Int = 10, progress: (@Sendable (TimelineLoad) -> Void)? = nil) async throws
        -> TimelineLoad
    {
        try begin()
        defer { end() }
        var load = TimelineLoad()
        var budget = max(1, maxPages)
        guard let newest = try stored().newestID else {
            try await fill(sinceID: nil, maxID: nil, budget: &budget, load: &load, progress: progress)
            return try finish(load)
        }
        try await fill(sinceID: newest, maxID: nil, budget: &budget, load: &load, progress: progress)
        while budget > 0, let gap = try stored().gaps.first {
            try await fill(sinceID: gap.sinceID, maxID: gap.maxID, budget: &budget, load: &load, progress: progress)
        }
        return try finish(load)
    }

    /// Fetches up to `pages` pages below the oldest entry (v1.1: `max_id` = its ID minus one; v2:
    /// `until_id` = its ID, then `pagination_token`); on an empty timeline, from the newest. Stops
    /// at the timeline's end: a page that is not full (v1.1), or has no `next_token` (v2).
    ///
    /// - Parameter progress: called after each page is stored, with the load so far.
    /// - Throws: as ``loadNewer(maxPages:progress:)``.
    @discardableResult
    public func loadOlder(pages: Int = 1, progress: (@Sendable (TimelineLoad) -> Void)? = nil) async throws
        -> TimelineLoad
    {
        try begin()
        defer { end() }
        var load = TimelineLoad()
        var cursor = TimelineCursor(maxID: try stored().oldestID.map { $0 - 1 })
        for _ in 0..<max(1, pages) {
            let body = try await source.fetch(sinceID: nil, cursor: cursor, count: pageSize)
            let page = try source.importPage(body, editingGaps: nil)
            load.add(page)
            progress?(load)
            guard let next = source.cursor(after: TimelinePageFacts(page), asked: cursor, count: pageSize) else {
                load.reachedEnd = true
                break
            }
            cursor = next
        }
        return try finish(load)
    }

    /// Fetches the pages of `(sinceID, maxID]` from the top down while they say there is more and
    /// the budget lasts; each page's import rewrites the gap it leaves. Without `sinceID` (an
    /// empty timeline) it pages down from `maxID` and records no gap: what lies below is
    /// ``loadOlder(pages:progress:)``'s.
    private func fill(
        sinceID: Int64?, maxID: Int64?, budget: inout Int, load: inout TimelineLoad,
        progress: (@Sendable (TimelineLoad) -> Void)?
    ) async throws {
        let source = self.source
        let pageSize = self.pageSize
        var cursor = TimelineCursor(maxID: maxID)
        // The top of the recorded gap this request fills: the range's own, then the one each page leaves.
        var filling = maxID
        while budget > 0 {
            budget -= 1
            let body = try await source.fetch(sinceID: sinceID, cursor: cursor, count: pageSize)
            let asked = cursor
            let gap = filling
            let page = try source.importPage(body) { gaps, facts in
                guard let sinceID else { return gaps }
                let more = source.cursor(after: facts, asked: asked, count: pageSize) != nil
                let lowest = facts.statusIDs.min()
                // An empty page that promises more leaves the range as unfetched as it was.
                if lowest == nil && more { return gaps }
                var gaps = gaps
                if let gap { gaps.removeAll { $0 == TimelineGapRange(sinceID: sinceID, maxID: gap) } }
                if more, let lowest, lowest - 1 > sinceID {
                    gaps.append(TimelineGapRange(sinceID: sinceID, maxID: lowest - 1))
                }
                return gaps.sorted { $0.maxID > $1.maxID }
            }
            load.add(page)
            progress?(load)
            guard let next = source.cursor(after: TimelinePageFacts(page), asked: cursor, count: pageSize) else {
                return
            }
            if let lowest = page.oldestID {
                if let sinceID, lowest - 1 <= sinceID { return }
                filling = lowest - 1
            }
            cursor = next
        }
    }

    private struct StoredState {
        var newestID: Int64?
        var oldestID: Int64?
        var gaps: [TimelineGapRange] = []
    }

    /// The timeline's cursors and gaps as stored now.
    private func stored() throws -> StoredState {
        let view = try source.database.view()
        guard let timeline = view.object(ofType: Timeline.self, forPrimaryKey: timelineName) else {
            return StoredState()
        }
        return StoredState(
            newestID: timeline.newestId, oldestID: timeline.oldestId,
            gaps: timeline.gaps.map { TimelineGapRange(sinceID: $0.sinceId, maxID: $0.maxId) })
    }

    private func finish(_ load: TimelineLoad) throws -> TimelineLoad {
        var load = load
        load.gapsLeft = try stored().gaps.count
        return load
    }

    private func begin() throws {
        let started = loading.withLock { isLoading in
            if isLoading { return false }
            isLoading = true
            return true
        }
        guard started else {
            throw SyncError(.loadInProgress, "a load of timeline \(timelineName) is already in flight")
        }
        registrar.withMutation(of: self, keyPath: \.isLoading) {}
    }

    private func end() {
        registrar.withMutation(of: self, keyPath: \.isLoading) { loading.withLock { $0 = false } }
    }
}

extension TimelinePageFacts {
    /// What an imported page told.
    init(_ page: TwitterPage) {
        self.init(statusIDs: page.statusIDs, nextToken: page.nextToken)
    }
}

/// What one ``TimelineLoader`` load fetched and stored.
public struct TimelineLoad: Sendable, Hashable {
    /// Pages fetched and imported.
    public var pages = 0
    /// Posts on them (the timeline's own, not retweeted or quoted ones).
    public var statusCount = 0
    /// The timeline's gaps when the load ended: 0 means it has no holes.
    public var gapsLeft = 0
    /// Whether ``TimelineLoader/loadOlder(pages:progress:)`` reached the timeline's oldest status.
    public var reachedEnd = false
    /// The inserted, updated and unchanged objects per type, and v2's partial errors.
    public var summary = ImportSummary()

    mutating func add(_ page: TwitterPage) {
        pages += 1
        statusCount += page.statusIDs.count
        summary.add(page.summary)
    }
}
