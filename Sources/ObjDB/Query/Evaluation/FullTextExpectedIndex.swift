/// The postings a full-text index should hold, rebuilt in memory from its type's records the way
/// a write builds them: what `objdb-inspect check` compares the stored index with. The full-text
/// layer as the package's tools see it.
package struct FullTextExpectedIndex {
    private var builder: FullTextIndexBuilder
    private let property: BoundProperty

    /// An empty index of `property`, a full-text indexed property of `binding`'s type.
    package init(of property: BoundProperty, in binding: TypeBinding) {
        builder = FullTextIndexBuilder(kind: Self.keyKind(of: binding))
        self.property = property
    }

    /// How the chunks of `binding`'s type write its table keys.
    package static func keyKind(of binding: TypeBinding) -> PostingCodec.KeyKind {
        .forPrimaryKey(binding.primaryKey?.schema.type)
    }

    /// The objects indexed.
    package var documents: Int { builder.documents }
    /// The tokens of every object indexed, repeats counted.
    package var tokens: Int { builder.tokens }

    /// Adds the object `key` whose record is `record`, after every key added before.
    package mutating func add(key: UnsafeRawBufferPointer, record: RecordReader) {
        builder.add(key: key, text: WriteScope.fullTextValue(record.field(property.slot), of: property.schema))
    }

    /// The tokens gathered, in the index's key order.
    package func sortedTokens() -> [[UInt8]] { builder.sortedTokens() }

    /// Every posting of `token`, in table-key order, as one chunk.
    package func postings(of token: [UInt8]) -> PostingCodec.Chunk { builder.postings(of: token) }
}
