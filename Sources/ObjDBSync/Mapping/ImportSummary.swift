/// What an import did, per object type: how many objects it inserted, updated and left unchanged.
///
/// ```swift
/// let summary = try db.importJSON(data, at: "data", using: beers)
/// print(summary[Beer.self].inserted, summary[Brewery.self].unchanged)
/// print(summary)   // "Beer: 2 inserted, 0 updated, 0 unchanged; Brewery: 3 inserted, …"
/// ```
///
/// Each object counts once however often the payload holds it. Embedded objects count as part of
/// their owner.
public struct ImportSummary: Sendable, Hashable, CustomStringConvertible {
    /// The counts for one type.
    public struct Counts: Sendable, Hashable {
        /// Objects that were not in the store.
        public var inserted = 0
        /// Objects that were, and changed.
        public var updated = 0
        /// Objects that were, and already held every value the payload gave.
        public var unchanged = 0
        /// Objects left out because the payload did not identify them (a mapping that skips those).
        public var skipped = 0

        /// Counts of these numbers (zero by default).
        public init(inserted: Int = 0, updated: Int = 0, unchanged: Int = 0, skipped: Int = 0) {
            self.inserted = inserted
            self.updated = updated
            self.unchanged = unchanged
            self.skipped = skipped
        }

        /// Objects inserted or updated.
        public var changed: Int { inserted + updated }
    }

    /// The counts, by type name (the name the store and `objdb-inspect` use).
    public private(set) var countsByType: [String: Counts] = [:]

    /// What the API reported beside the data of a page that still imported, in payload order: X API
    /// v2's partial errors (a post deleted, or not visible to the caller), each with its problem type
    /// as the code. They fail nothing.
    public var partialErrors: [SyncError.APIMessage] = []

    /// An empty summary.
    public init() {}

    /// The counts for the type named `typeName`; zero when the import did not meet it.
    public subscript(typeName: String) -> Counts {
        get { countsByType[typeName] ?? Counts() }
        set { countsByType[typeName] = newValue }
    }

    /// The counts for `type`.
    public subscript(type: Any.Type) -> Counts {
        self[String(describing: type)]
    }

    /// Whether the import inserted or updated anything.
    public var changedAnything: Bool { countsByType.values.contains { $0.changed > 0 } }

    /// The type names met, sorted.
    public var typeNames: [String] { countsByType.keys.sorted() }

    /// Adds `other`'s counts to these: the summary of several imports.
    public mutating func add(_ other: ImportSummary) {
        for (name, counts) in other.countsByType {
            var sum = self[name]
            sum.inserted += counts.inserted
            sum.updated += counts.updated
            sum.unchanged += counts.unchanged
            sum.skipped += counts.skipped
            self[name] = sum
        }
        partialErrors += other.partialErrors
    }

    /// `Type: n inserted, n updated, n unchanged` per type, sorted by name, then the partial errors' count.
    public var description: String {
        let errors =
            partialErrors.isEmpty ? "" : "; \(partialErrors.count) partial error\(partialErrors.count == 1 ? "" : "s")"
        if countsByType.isEmpty { return "nothing imported" + errors }
        return typeNames.map { name in
            let counts = self[name]
            var text = "\(name): \(counts.inserted) inserted, \(counts.updated) updated, \(counts.unchanged) unchanged"
            if counts.skipped > 0 { text += ", \(counts.skipped) skipped" }
            return text
        }.joined(separator: "; ") + errors
    }
}
