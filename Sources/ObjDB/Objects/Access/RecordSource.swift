/// Records, cursors and backlinks in one transaction: the narrow interface queries, the
/// notifier's differ and the store check read through.
///
/// A source is a value: make one per read (``Snapshot/source()``) and do not keep it past a
/// write, which may move the pages its pointers point into.
package struct RecordSource {
    /// The transaction read.
    package let transaction: Transaction
    /// The store's types and databases.
    let catalog: StoreCatalog

    /// The record of the object whose table key is `key`, or `nil` when there is none.
    func record(in binding: TypeBinding, key: UnsafeRawBufferPointer) throws -> RecordReader? {
        guard let table = binding.table else { return nil }
        guard let bytes = try transaction.get(key, in: table) else { return nil }
        CachePrefetch.load(bytes)
        guard let reader = RecordReader(header: bytes) else {
            throw ObjDBError.corruptRecord(
                path: catalog.path, type: binding.schema.name,
                reason: RecordReader.damage(in: bytes)?.description ?? "its slot table is inconsistent")
        }
        return reader
    }

    /// The record of the object whose table key is `key`, or `nil` when there is none.
    func record(in binding: TypeBinding, key: [UInt8]) throws -> RecordReader? {
        try key.withUnsafeBytes { try record(in: binding, key: $0) }
    }

    /// A cursor over a type's object table, in table-key order; `nil` for an embedded type.
    func tableCursor(_ binding: TypeBinding) throws -> Cursor? {
        guard let table = binding.table else { return nil }
        return try transaction.cursor(table)
    }

    /// A cursor over the index of `property`, if it has one.
    func indexCursor(_ property: BoundProperty) throws -> Cursor? {
        guard let index = property.index else { return nil }
        return try transaction.cursor(index)
    }

    /// The number of objects of a type, from the table's statistics.
    func count(of binding: TypeBinding) throws -> Int {
        guard let table = binding.table else { return 0 }
        return try transaction.statistics(of: table).entries
    }

    /// Every table key of a type, in key order.
    func allKeys(in binding: TypeBinding) throws -> [[UInt8]] {
        guard let cursor = try tableCursor(binding) else { return [] }
        var keys: [[UInt8]] = []
        try cursor.forEach { entry in
            keys.append(Array(entry.key))
            return true
        }
        return keys
    }

    /// The links to the object `key` of `binding`'s type, from the backlinks database.
    package func incomingLinks(to key: some Collection<UInt8>, in binding: TypeBinding) throws -> [BacklinkCodec.Source]
    {
        guard let backlinks = catalog.backlinks else { return [] }
        let targetKey = BacklinkCodec.targetKey(type: binding.schema.name, key: key)
        let cursor = try transaction.cursor(backlinks)
        var sources: [BacklinkCodec.Source] = []
        guard try targetKey.withUnsafeBytes({ try cursor.seek(exactly: $0) }) != nil else { return [] }
        var entry = try cursor.current()
        while let current = entry {
            guard let source = BacklinkCodec.source(current.value) else {
                throw ObjDBError.corruptRecord(
                    path: catalog.path, type: binding.schema.name, reason: "a backlink entry is damaged")
            }
            sources.append(source)
            entry = try cursor.nextValueOfKey()
        }
        return sources
    }

    /// Every stored value of a record, parallel to the type's properties.
    package func values(of reader: RecordReader, in binding: TypeBinding) -> [StoredValue] {
        Self.values(of: reader, in: binding, schema: catalog.schemaIndex)
    }

    /// Every stored value of a record, parallel to the type's properties.
    static func values(of reader: RecordReader, in binding: TypeBinding, schema: SchemaIndex) -> [StoredValue] {
        let codec = ValueCodec(schema: schema)
        return binding.properties.map { property in
            property.schema.isStored ? codec.decodeField(reader.field(property.slot), of: property.schema) : .null
        }
    }
}
