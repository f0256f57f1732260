import Foundation

/// What a ranked search orders by: a full-text indexed property and the search's text.
struct TextRanking: Hashable, Sendable {
    var property: String
    var search: String
}

extension Results {
    /// The `limit` objects whose `property` best matches a full-text search, best first, as live
    /// results: ranked by BM25 (as SQLite's FTS5 `bm25()` ranks), ties in primary-key order.
    ///
    /// ```swift
    /// let top = try tweets.search("swift concurrency", in: "text", limit: 20)
    /// for tweet in top { print(top.score(of: tweet) ?? 0, tweet.text) }
    /// ```
    ///
    /// The search is written as for `TEXT` (every word, `-excluded`, `prefix*`, `"a phrase"`), and
    /// what these results filter already applies too. The results are live like any others: an
    /// observer hears how the top `limit` changed.
    ///
    /// - Throws: ``ObjDBError/invalidQuery(type:reason:)`` when `property` has no full-text index.
    public func search(_ search: String, in property: String, limit: Int) throws -> Results {
        guard let bound = binding[property], bound.schema.index == .fullText, bound.index != nil else {
            throw ObjDBError.invalidQuery(
                type: binding.schema.name,
                reason:
                    "ranked search needs a full-text index on \(property): declare it @Persisted(indexed: .fullText)")
        }
        var spec = self.spec.filtered(
            by: .comparison(QueryComparison(path: [property], op: .text, value: .string(search))))
        spec.sorts = []
        spec.distinctPaths = []
        spec.then = []
        spec.ranking = TextRanking(property: property, search: search)
        spec.limit = Swift.max(0, limit)
        return try Results(snapshot: snapshot, binding: binding, preparing: spec)
    }

    /// Ranked search on a property the compiler checks; see ``search(_:in:limit:)-(_,String,_)``.
    ///
    /// - Precondition: the property has a full-text index.
    public func search(_ search: String, in keyPath: KeyPath<Element, String>, limit: Int) -> Results {
        let name = PropertyTracer.propertyName(keyPath)
        do {
            return try self.search(search, in: name, limit: limit)
        } catch {
            preconditionFailure("\(Element.self).\(name) cannot be searched: \(error)")
        }
    }

    /// The BM25 score of `object` for these results' ranked search (higher is better), in the
    /// snapshot the results read; `nil` when they are not a ranked search or it does not match.
    public func score(of object: Element) -> Double? {
        guard let ranking = spec.ranking, let accessor = object.accessor,
            let property = binding[ranking.property], property.index != nil
        else { return nil }
        do {
            let source = try snapshot.source()
            guard let record = try source.record(in: binding, key: accessor.key),
                let text = WriteScope.fullTextValue(record.field(property.slot), of: property.schema)
            else { return nil }
            guard
                let searcher = FullTextSearcher(
                    transaction: source.transaction, property: property,
                    kind: PostingCodec.KeyKind.forPrimaryKey(binding.primaryKey?.schema.type))
            else { return nil }
            return try searcher.score(text: text, for: TextSearch(ranking.search))
        } catch {
            return nil
        }
    }
}

extension FullTextSearcher {
    /// The BM25 score of one value for `search`, with the index's statistics; `nil` when it does not match.
    func score(text: UnsafeRawBufferPointer, for search: TextSearch) throws -> Double? {
        guard search.matches(text) else { return nil }
        let tokens = TokenList(text)
        let statistics = try self.statistics()
        let documents = Double(Swift.max(statistics.documents, 1))
        let average = Double(statistics.tokens) / documents
        let length = Double(tokens.count)
        var score = 0.0
        for phrase in search.required {
            let hits = Double(try documentCount(of: phrase))
            var idf = log((documents - hits + 0.5) / (hits + 0.5))
            if idf <= 0 { idf = 1e-6 }
            let tf = Double(tokens.occurrences(of: phrase))
            let norm = average > 0 ? length / average : 1
            score += idf * tf * (Self.k1 + 1) / (tf + Self.k1 * (1 - Self.b + Self.b * norm))
        }
        return score
    }
}
