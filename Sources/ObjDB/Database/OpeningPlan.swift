/// What opening a database must do to the file: decided from the stored and the declared schema.
struct OpeningPlan {
    /// The schema the database will use.
    let schema: Schema
    /// The work to do in the opening transaction, if the stored schema must change.
    let migration: SchemaChange?

    init(configuration: Configuration, discovered: [DiscoveredType], transaction: Transaction) throws {
        let path = configuration.path
        let stored = try StoredSchema.read(in: transaction)
        if discovered.isEmpty {
            // The dynamic API: the stored schema is the schema.
            schema = stored ?? Schema(version: 0, types: [])
            migration = nil
            return
        }
        let declared = StoredSchema.assignIDs(
            to: discovered.map(\.schema), version: configuration.schemaVersion, stored: stored)
        try declared.validate()
        guard let stored else {
            if configuration.readOnly {
                throw ObjDBError.schemaMismatch(
                    path: path, differences: declared.types.map { "type \($0.name) is new" })
            }
            schema = declared
            migration = SchemaChange(from: nil, to: declared, migrate: nil)
            return
        }
        if stored.version > configuration.schemaVersion {
            throw ObjDBError.newerSchemaVersion(
                path: path, stored: stored.version, declared: configuration.schemaVersion)
        }
        let differences = StoredSchema.differences(stored: stored, declared: declared)
        if stored.version == configuration.schemaVersion {
            guard differences.isEmpty else { throw ObjDBError.schemaMismatch(path: path, differences: differences) }
            schema = declared
            migration = nil
            return
        }
        if configuration.readOnly {
            throw ObjDBError.schemaMismatch(
                path: path,
                differences: [
                    "schema version \(configuration.schemaVersion) declared, \(stored.version) stored; "
                        + "a read-only store cannot migrate"
                ] + differences)
        }
        for type in declared.types {
            if let old = stored[type.name],
                old.primaryKey?.name != type.primaryKey?.name
                    || (old.primaryKey.map { StoredSchema.sameStorage($0, type.primaryKey!) } == false)
            {
                throw ObjDBError.invalidSchema(
                    type: type.name,
                    reason: "its primary key changed from \(old.primaryKey?.name ?? "none") to "
                        + "\(type.primaryKey?.name ?? "none"); copy the objects to a new type instead")
            }
        }
        schema = declared
        migration = SchemaChange(from: stored, to: declared, migrate: configuration.migration)
    }

    /// The databases of every type, created when missing and the transaction may write.
    /// `segmentsApart`: whether full-text indexes keep their statistics and recent segment in a
    /// database of their own (format 4, or an open that may write, which moves them there).
    func openDatabases(in transaction: Transaction, segmentsApart: Bool) throws -> DatabaseHandles {
        let create: DatabaseOptions = transaction.isReadOnly ? [] : .create
        var handles = DatabaseHandles()
        handles.meta = try transaction.openDatabaseIfPresent(named: DatabaseNames.meta, options: create)
        handles.backlinks = try transaction.openDatabaseIfPresent(
            named: DatabaseNames.backlinks, options: create.union(.duplicateSort))
        handles.changeLog = try transaction.openDatabaseIfPresent(named: DatabaseNames.changes, options: create)
        for type in schema.types where !type.isEmbedded {
            handles.tables[type.name] = try transaction.openDatabaseIfPresent(
                named: DatabaseNames.table(type.name), options: create)
            for property in type.properties where property.isIndexed {
                let options = property.index == .regular ? create.union(.duplicateSort) : create
                handles.indexes[type.name, default: [:]][property.name] = try transaction.openDatabaseIfPresent(
                    named: DatabaseNames.index(type.name, propertyID: property.id, kind: property.index!),
                    options: options)
                if property.index == .fullText, segmentsApart {
                    handles.fullTextSegments[type.name, default: [:]][property.name] =
                        try transaction.openDatabaseIfPresent(
                            named: DatabaseNames.fullTextSegment(type.name, propertyID: property.id), options: create)
                }
            }
            for ids in type.uniquenessConstraintIDs {
                handles.compoundIndexes[type.name, default: [:]][ids] = try transaction.openDatabaseIfPresent(
                    named: DatabaseNames.compoundIndex(type.name, propertyIDs: ids), options: create)
            }
        }
        return handles
    }
}
