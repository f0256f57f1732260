extension DatabaseNames {
    /// The database of an index of kind `kind` on property ID `id` of type `type`: `idx.<Type>.<id>`
    /// (regular, `MDB_DUPSORT`), `uidx.<Type>.<id>` (unique) or `fts.<Type>.<id>` (full-text).
    package static func index(_ type: String, propertyID id: UInt16, kind: IndexKind) -> String {
        switch kind {
        case .regular: return "idx.\(type).\(id)"
        case .unique: return "uidx.\(type).\(id)"
        case .fullText: return "fts.\(type).\(id)"
        }
    }

    /// The database of the statistics and recent segment of the full-text index on property ID `id`
    /// of type `type` (format 4): `fts.<Type>.<id>.recent`. Apart from the chunks, so that a write of
    /// a new object copies one or two of its pages instead of a path through the chunks' B-tree.
    package static func fullTextSegment(_ type: String, propertyID id: UInt16) -> String {
        "fts.\(type).\(id).recent"
    }
}
