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
}
