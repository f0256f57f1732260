import Foundation
import ObjDB
import Observation
import Synchronization

/// Keeps a ``Timeline`` in a store up to date from the Twitter API without holes, as the seed's
/// TGRTimeline paged, done right.
///
/// ```swift
/// let loader = TimelineLoader(.home, client: client, importer: TwitterImporter(database: db))
/// try await loader.loadNewer()    // since_id = the newest entry, paging back until it meets the cache
/// try await loader.loadOlder()    // max_id = the oldest entry minus one
/// ```
///
/// ``loadNewer(maxPages:progress:)`` asks for statuses above the timeline's newest entry. While pages
/// come back full it pages back, `max_id` = the lowest ID seen minus one, until a page that is
/// not full shows it met the cache. When it stops first (the page limit, an error, a cancel),
/// the range it has not fetched stays recorded as a ``TimelineGap``, written in the same
/// transaction as the page before it, and the next `loadNewer` fills the gaps, newest first,
/// once it has caught up. ``loadOlder(pages:progress:)`` extends the timeline below its oldest entry.
///
/// One load at a time: a second one while ``isLoading`` is `true` throws
/// ``SyncError/Code/loadInProgress`` and fetches nothing. `isLoading` is observable
/// (Observation's `withObservationTracking`, or SwiftUI). A failed fetch leaves the store with
/// what it had, plus the pages already imported.
public final class TimelineLoader: Observable, Sendable {
    /// The endpoint fetched.
    public let endpoint: TwitterEndpoint
    /// The client that fetches.
    public let client: TwitterClient
    /// The importer that stores.
    public let importer: TwitterImporter
    /// Statuses asked for per page (`count`).
    public let pageSize: Int
    private let registrar = ObservationRegistrar()
    private let loading = Mutex(false)

    /// A loader of `endpoint` into the timeline it names, `pageSize` statuses a page (Twitter
    /// serves up to 200 on timelines and 100 on search).
    public init(_ endpoint: TwitterEndpoint, client: TwitterClient, importer: TwitterImporter, pageSize: Int = 200) {
        self.endpoint = endpoint
        self.client = client
        self.importer = importer
        self.pageSize = max(1, pageSize)
    }

    /// The name of the timeline it fills.
    public var timelineName: String { endpoint.timelineName }

    /// Whether a load is in flight. Observable.
    public var isLoading: Bool {
        registrar.access(self, keyPath: \.isLoading)
        return loading.withLock { $0 }
    }

    /// Fetches what is newer than the newest entry, then fills recorded gaps, at most `maxPages`
    /// requests in all. On an empty timeline, fetches the newest page.
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
            try await page(sinceID: nil, maxID: nil, budget: &budget, load: &load, progress: progress)
            return try finish(load)
        }
        try await page(sinceID: newest, maxID: nil, budget: &budget, load: &load, progress: progress)
        while budget > 0, let gap = try stored().gaps.first {
            try await page(sinceID: gap.sinceID, maxID: gap.maxID, budget: &budget, load: &load, progress: progress)
        }
        return try finish(load)
    }

    /// Fetches up to `pages` pages below the oldest entry (`max_id` = its ID minus one); on an
    /// empty timeline, from the newest. Stops at a page that is not full: the timeline's end.
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
        for _ in 0..<max(1, pages) {
            let oldest = try stored().oldestID
            let body = try await client.fetchPage(endpoint, maxID: oldest.map { $0 - 1 }, count: pageSize)
            let imported = try importer.importPage(body, timeline: timelineName, editingGaps: nil)
            load.add(imported)
            progress?(load)
            if imported.statusIDs.count < pageSize {
                load.reachedEnd = true
                break
            }
        }
        return try finish(load)
    }

    /// Fetches pages of `(sinceID, maxID]` from the top down while they come back full and the
    /// budget lasts; each page's import rewrites the gap it leaves.
    private func page(
        sinceID: Int64?, maxID: Int64?, budget: inout Int, load: inout TimelineLoad,
        progress: (@Sendable (TimelineLoad) -> Void)?
    ) async throws {
        var maxID = maxID
        let pageSize = self.pageSize
        while budget > 0 {
            budget -= 1
            let body = try await client.fetchPage(endpoint, sinceID: sinceID, maxID: maxID, count: pageSize)
            let asked = maxID
            let imported = try importer.importPage(body, timeline: timelineName) { gaps, ids in
                guard let sinceID else { return gaps }
                var gaps = gaps
                if let asked { gaps.removeAll { $0 == TimelineGapRange(sinceID: sinceID, maxID: asked) } }
                if ids.count >= pageSize, let lowest = ids.min(), lowest - 1 > sinceID {
                    gaps.append(TimelineGapRange(sinceID: sinceID, maxID: lowest - 1))
                }
                return gaps.sorted { $0.maxID > $1.maxID }
            }
            load.add(imported)
            progress?(load)
            guard let sinceID, imported.statusIDs.count >= pageSize, let lowest = imported.oldestID,
                lowest - 1 > sinceID
            else { return }
            maxID = lowest - 1
        }
    }

    private struct StoredState {
        var newestID: Int64?
        var oldestID: Int64?
        var gaps: [TimelineGapRange] = []
    }

    /// The timeline's cursors and gaps as stored now.
    private func stored() throws -> StoredState {
        let view = try importer.database.view()
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

/// What one ``TimelineLoader`` load fetched and stored.
public struct TimelineLoad: Sendable, Hashable {
    /// Pages fetched and imported.
    public var pages = 0
    /// Statuses on them (the timeline's own, not retweeted or quoted ones).
    public var statusCount = 0
    /// The timeline's gaps when the load ended: 0 means it has no holes.
    public var gapsLeft = 0
    /// Whether ``TimelineLoader/loadOlder(pages:progress:)`` reached the timeline's oldest status.
    public var reachedEnd = false
    /// The inserted, updated and unchanged objects per type.
    public var summary = ImportSummary()

    mutating func add(_ page: TwitterPage) {
        pages += 1
        statusCount += page.statusIDs.count
        summary.add(page.summary)
    }
}
