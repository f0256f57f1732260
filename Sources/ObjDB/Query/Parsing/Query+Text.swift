extension Query where Value == String {
    /// The string holds the words of a full-text search, as `TEXT` does in a string predicate:
    /// every word (in any case, with any diacritics), none of the `-excluded` ones, `prefix*`
    /// words and `"exact phrases"`.
    ///
    /// ```swift
    /// let found = tweets.where { $0.text.matches("swift concurrency -objc") && $0.retweetCount > 10 }
    /// ```
    ///
    /// With `@Persisted(indexed: .fullText)` the property's index answers; without, each object's
    /// text is tokenized as the index would tokenize it.
    public func matches(_ search: String) -> Query<Bool> {
        comparing(.text, .string(search))
    }
}

extension Query where Value == String? {
    /// The string holds the words of a full-text search (`nil` matches nothing), as the non-optional
    /// property's `matches` does.
    public func matches(_ search: String) -> Query<Bool> {
        comparing(.text, .string(search))
    }
}
