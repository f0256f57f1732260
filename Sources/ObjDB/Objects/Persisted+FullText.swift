/// The index a `String` property can declare besides `indexed: true`.
public enum TextIndexing: Sendable {
    /// A full-text index: the property's words, for `TEXT` queries and ranked search.
    case fullText
}

/// The values a full-text index can hold: `String` and `String?`.
public protocol FullTextIndexable: Persistable {}
extension String: FullTextIndexable {}
extension Optional: FullTextIndexable where Wrapped == String {}

extension Persisted where Value: FullTextIndexable {
    /// Declares a string property with a full-text index, as Realm's `@FullText` does.
    ///
    /// ```swift
    /// final class Tweet: Object {
    ///     @Persisted(primaryKey: true) var id: Int64
    ///     @Persisted(indexed: .fullText) var text = ""
    /// }
    /// let found = try view.objects(Tweet.self).filter("text TEXT 'swift -objc'")
    /// ```
    ///
    /// The index holds each word (folded: `Café` is `cafe`), hashtag, mention and link of the
    /// value with its positions, and is written in the same transaction as the object.
    @inlinable
    public init(wrappedValue: Value, indexed: TextIndexing) {
        self.init(wrappedValue: wrappedValue)
        declaration = PersistedDeclaration(isPrimaryKey: false, index: .fullText)
    }

    /// Declares a string property with a full-text index that starts empty (`""` or `nil`).
    @inlinable
    public init(indexed: TextIndexing) {
        self.init(wrappedValue: Value._defaultValue, indexed: indexed)
    }
}
