/// One key of a sort order: a property path, a direction, and how strings compare.
///
/// ```swift
/// let photos = try view.objects(Photo.self).sorted(by: [SortKey("title", options: .caseInsensitive)])
/// ```
public struct SortKey: Hashable, Sendable {
    /// The property, through to-one links: `"user.screenName"`.
    public var keyPath: String
    /// Whether smaller values come first.
    public var ascending: Bool
    /// How strings compare.
    public var options: StringComparisonOptions

    /// A sort by `keyPath`.
    public init(_ keyPath: String, ascending: Bool = true, options: StringComparisonOptions = []) {
        self.keyPath = keyPath
        self.ascending = ascending
        self.options = options
    }
}

/// How strings compare in sorts.
public struct StringComparisonOptions: OptionSet, Hashable, Sendable {
    /// The options' bits.
    public let rawValue: UInt8
    /// Creates options from their raw bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Ignore case: `"apple"` and `"Apple"` sort together.
    public static let caseInsensitive = StringComparisonOptions(rawValue: 1)
    /// Ignore diacritics: `"é"` sorts with `"e"`.
    public static let diacriticInsensitive = StringComparisonOptions(rawValue: 2)
}
