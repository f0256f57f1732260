/// The names of the LMDB databases in a store (FORMAT.md, "Databases").
///
/// | name | holds |
/// |---|---|
/// | `objdb.meta` | the header, the stored schema, internal-ID counters, where the change log starts |
/// | `objdb.backlinks` | for every link, its target → its source (``BacklinkCodec``) |
/// | `objdb.changes` | the change log, one entry per commit (``ChangeLogCodec``) |
/// | `obj.<Type>` | the records of one type, by table key |
/// | `idx.<Type>.<id>` | a regular index of property ID `id` (`MDB_DUPSORT`) |
/// | `uidx.<Type>.<id>` | a unique index of property ID `id` |
package enum DatabaseNames {
    /// The metadata database.
    package static let meta = "objdb.meta"
    /// The backlinks database.
    package static let backlinks = "objdb.backlinks"
    /// The change log.
    package static let changes = "objdb.changes"

    /// The object table of type `type`.
    package static func table(_ type: String) -> String { "obj.\(type)" }

    /// The index of property ID `id` of type `type`: the kind is in the name, because LMDB
    /// keeps a database's `MDB_DUPSORT` flag for good.
    package static func index(_ type: String, propertyID id: UInt16, unique: Bool) -> String {
        unique ? "uidx.\(type).\(id)" : "idx.\(type).\(id)"
    }
}
