import Foundation
import ObjDB

/// A search of the Article Search API and its results, in the API's order.
///
/// Running a search again (importing its first page) replaces ``articles``; later pages extend
/// it at their offset. The articles themselves stay in the store either way: other searches may
/// hold them, and the cache should keep what it has.
public final class ArticleSearch: Object {
    /// The search's identity: its query and dates (``ArticleSearchQuery/identifier``).
    @Persisted(primaryKey: true) public var id = ""
    /// The query (`q`).
    @Persisted public var query = ""
    /// The first day searched (`begin_date`), if bounded.
    @Persisted public var beginDate: Date?
    /// The last day searched (`end_date`), if bounded.
    @Persisted public var endDate: Date?
    /// How many documents the API said match.
    @Persisted public var hits = 0
    /// The results imported so far, in the API's order.
    @Persisted public var articles: List<Article>
}

/// What a search asked for: the query and the days it covers.
public struct ArticleSearchQuery: Sendable, Hashable {
    /// The query (`q`).
    public var query: String
    /// The first day (`begin_date`), if any.
    public var beginDate: Date?
    /// The last day (`end_date`), if any.
    public var endDate: Date?
    /// A filter query in Lucene syntax (`fq`), such as `section_name:("Business")`, if any.
    public var filter: String?
    /// The order of results (`sort`); `nil` leaves it to the API (relevance).
    public var sort: ArticleSearchSort?

    /// A search for `query`, optionally between two days, filtered and sorted.
    public init(
        _ query: String, from beginDate: Date? = nil, to endDate: Date? = nil, filter: String? = nil,
        sort: ArticleSearchSort? = nil
    ) {
        self.query = query
        self.beginDate = beginDate
        self.endDate = endDate
        self.filter = filter
        self.sort = sort
    }

    /// The primary key of its ``ArticleSearch``: the query, then the days as the API writes them,
    /// `bailout 20081001-20081201`, then the filter and the order when given (`fq:…`, `sort:…`).
    public var identifier: String {
        var identifier = query
        if beginDate != nil || endDate != nil {
            identifier += " \(beginDate.map(Self.dayString) ?? "")-\(endDate.map(Self.dayString) ?? "")"
        }
        if let filter { identifier += " fq:\(filter)" }
        if let sort { identifier += " sort:\(sort.rawValue)" }
        return identifier
    }

    /// A day as the API writes it: `yyyyMMdd`, in UTC.
    public static func dayString(_ date: Date) -> String {
        let components = Calendar(identifier: .gregorian).dateComponents(
            in: TimeZone(identifier: "UTC")!, from: date)
        let year = components.year ?? 0
        let month = components.month ?? 0
        let day = components.day ?? 0
        return String(format: "%04d%02d%02d", year, month, day)
    }
}
