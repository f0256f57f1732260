import ObjDB

extension Timeline {
    /// Adds `ids` to the timeline `name` (creating it), keeping its entries ordered by ID,
    /// descending, and rewrites its gaps with `editGaps`, in the import's transaction. Both
    /// importers, v1.1's and v2's, merge through it, so both APIs fill the same timelines.
    ///
    /// `editChains` are the edit histories (oldest first, more than one ID) of the page's posts: an
    /// entry that is an older version of a post whose newest version is also an entry leaves the
    /// timeline, which shows each post once, as its newest version.
    ///
    /// Reads and writes the entries as stored links, so a long timeline costs no object per entry.
    static func merge(
        _ ids: [Int64], into name: String, editingGaps editGaps: (([TimelineGapRange]) -> [TimelineGapRange])?,
        editChains: [[Int64]] = [], in session: JSONImportSession
    ) throws {
        let transaction = session.transaction
        let key = ObjectKey.string(name)
        let stored = try transaction.dynamicObjects("Timeline").first { $0.objectKey == key }
        var old: [Int64] = []
        if let stored, case .list(let links) = try stored.value(forKey: "entries") {
            old = links.compactMap { link in
                guard case .link(_, .int(let id)) = link else { return nil }
                return id
            }
        }
        var merged = old
        let known = Set(old)
        var added = Set<Int64>()
        for id in ids where !known.contains(id) && added.insert(id).inserted { merged.append(id) }
        if !added.isEmpty || !merged.elementsEqual(merged.sorted(by: >)) { merged.sort(by: >) }
        if !editChains.isEmpty {
            let present = Set(merged)
            var superseded = Set<Int64>()
            for chain in editChains {
                guard let newest = chain.max(), present.contains(newest) else { continue }
                for id in chain where id != newest { superseded.insert(id) }
            }
            if !superseded.isEmpty { merged.removeAll { superseded.contains($0) } }
        }
        let newest = merged.first.map { StoredValue.int($0) } ?? .null
        let oldest = merged.last.map { StoredValue.int($0) } ?? .null
        var oldGaps: [TimelineGapRange] = []
        if let stored, case .list(let gaps) = try stored.value(forKey: "gaps") {
            oldGaps = gaps.compactMap(TimelineGapRange.init)
        }
        let gaps = editGaps.map { $0(oldGaps) } ?? oldGaps
        if let stored, merged == old, gaps == oldGaps, stored["newestId"] == newest, stored["oldestId"] == oldest {
            session.record(.unchanged, typeName: "Timeline", key: key)
            return
        }
        do {
            try transaction.dynamicCreate(
                "Timeline",
                value: [
                    "name": name, "entries": StoredValue.list(merged.map { .link(type: "Tweet", key: .int($0)) }),
                    "newestId": newest, "oldestId": oldest, "gaps": StoredValue.list(gaps.map(\.storedValue)),
                ], update: .modified)
        } catch {
            throw SyncError(.store, "the store refused timeline \(name): \(error)", underlyingError: error)
        }
        session.record(stored == nil ? .inserted : .updated, typeName: "Timeline", key: key)
    }

    /// Throws ``SyncError/Code/invalidArgument`` unless `name` is a timeline name.
    static func validate(_ name: String?) throws {
        if let name, !isValidName(name) {
            throw SyncError(
                .invalidArgument, "'\(name)' is not a timeline name: use home, mentions, user:NAME or search:QUERY")
        }
    }
}

/// What the loader learns from a page, inside the page's transaction: its own status IDs and, for
/// X API v2, the token of the next page.
struct TimelinePageFacts: Sendable, Hashable {
    var statusIDs: [Int64]
    var nextToken: String? = nil
}

/// Rewrites a timeline's gaps, given them and what a page held.
typealias GapEdit = @Sendable (_ gaps: [TimelineGapRange], _ page: TimelinePageFacts) -> [TimelineGapRange]

/// A ``TimelineGap`` as a value: IDs above `sinceID`, at most `maxID`.
struct TimelineGapRange: Hashable, Sendable {
    var sinceID: Int64
    var maxID: Int64

    init(sinceID: Int64, maxID: Int64) {
        self.sinceID = sinceID
        self.maxID = maxID
    }

    init?(_ value: StoredValue) {
        guard case .embedded(let fields) = value, case .int(let since)? = fields["sinceId"],
            case .int(let max)? = fields["maxId"]
        else { return nil }
        self.init(sinceID: since, maxID: max)
    }

    var storedValue: StoredValue { .embedded(["sinceId": .int(sinceID), "maxId": .int(maxID)]) }
}
