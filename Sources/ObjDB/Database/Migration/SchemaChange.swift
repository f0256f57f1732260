/// Applies a new schema to the file in the opening write transaction: tables and
/// indexes for what is new, the migration closure, then the cleanup of what was removed.
struct SchemaChange {
    let from: Schema?
    let to: Schema
    let migrate: (@Sendable (Migration, UInt64) throws -> Void)?

    init(from: Schema?, to: Schema, migrate: (@Sendable (Migration, UInt64) throws -> Void)?) {
        self.from = from
        self.to = to
        self.migrate = migrate
    }

    func run(on database: Database, transaction: Transaction) throws {
        let snapshot = Snapshot(owner: database, adopting: transaction)
        let scope = WriteScope(migratingWith: database, snapshot: snapshot)
        defer { snapshot.releaseAdoptedTransaction() }
        if let from {
            let oldBindings = try bindings(for: from, in: transaction)
            if let migrate {
                try migrate(
                    Migration(scope: scope, oldSchema: from, newSchema: to, oldBindings: oldBindings), from.version)
            }
            try removeDropped(from: from, oldBindings: oldBindings, scope: scope)
            try rebuildIndexes(from: from, database: database, scope: scope)
            if linksChanged(from: from) { try rebuildBacklinks(database: database, scope: scope) }
            if let deferred = scope.deferredError { throw deferred }
        }
        try scope.flushSequences(in: transaction)
        try StoredSchema.write(to, in: transaction)
    }

    /// Bindings that read records as the old schema describes them.
    private func bindings(for schema: Schema, in transaction: Transaction) throws -> [String: TypeBinding] {
        var bindings: [String: TypeBinding] = [:]
        let index = SchemaIndex(schema)
        for type in schema.types {
            let table =
                type.isEmbedded
                ? nil : try transaction.openDatabaseIfPresent(named: DatabaseNames.table(type.name))
            bindings[type.name] = TypeBinding(
                schema: type, swiftType: nil, discovered: nil, table: table, indexes: [:], schemaIndex: index)
        }
        return bindings
    }

    /// Empties the tables of removed types and the indexes no longer declared.
    private func removeDropped(from: Schema, oldBindings: [String: TypeBinding], scope: WriteScope) throws {
        let transaction = try scope.writeTransaction("migration")
        for type in from.types where !type.isEmbedded {
            let kept = to[type.name]
            if kept == nil, let table = oldBindings[type.name]?.table {
                try transaction.removeAll(in: table)
                scope.didWrite()
            }
            let keptConstraints = Set(kept?.uniquenessConstraintIDs ?? [])
            for ids in type.uniquenessConstraintIDs where !keptConstraints.contains(ids) {
                if let index = try transaction.openDatabaseIfPresent(
                    named: DatabaseNames.compoundIndex(type.name, propertyIDs: ids))
                {
                    try transaction.removeAll(in: index)
                    scope.didWrite()
                }
            }
            for property in type.properties where property.isIndexed {
                let stillIndexed =
                    kept?.properties.contains { $0.id == property.id && $0.index == property.index } ?? false
                if !stillIndexed,
                    let index = try transaction.openDatabaseIfPresent(
                        named: DatabaseNames.index(type.name, propertyID: property.id, kind: property.index!))
                {
                    try transaction.removeAll(in: index)
                    scope.didWrite()
                }
                if !stillIndexed, property.index == .fullText,
                    let segment = try transaction.openDatabaseIfPresent(
                        named: DatabaseNames.fullTextSegment(type.name, propertyID: property.id))
                {
                    try transaction.removeAll(in: segment)
                    scope.didWrite()
                }
            }
        }
    }

    /// Fills the indexes that are new in this schema.
    private func rebuildIndexes(from: Schema, database: Database, scope: WriteScope) throws {
        for type in to.types {
            guard let binding = database.bindings[type.name] else { continue }
            for property in binding.properties where property.schema.isIndexed {
                let old = from[type.name]?.properties.first { $0.id == property.schema.id }
                if old?.index != property.schema.index {
                    try scope.buildIndex(of: property, in: binding)
                }
            }
            let oldConstraints = Set(from[type.name]?.uniquenessConstraintIDs ?? [])
            for compound in binding.compoundKeys where !oldConstraints.contains(compound.propertyIDs) {
                try scope.buildCompoundIndex(compound, in: binding)
            }
        }
    }

    private func linksChanged(from: Schema) -> Bool {
        func links(_ schema: Schema) -> Set<String> {
            Set(
                schema.types.flatMap { type in
                    type.properties.filter { $0.type == .object || $0.type == .embedded }
                        .map { "\(type.name).\($0.id).\($0.objectType ?? "")" }
                })
        }
        return links(from) != links(to)
    }

    /// Recomputes every backlink from the records (after links were added, removed or retyped).
    private func rebuildBacklinks(database: Database, scope: WriteScope) throws {
        let transaction = try scope.writeTransaction("migration")
        guard let backlinks = database.backlinks else { return }
        try transaction.removeAll(in: backlinks)
        scope.didWrite()
        for binding in database.bindings.values where !binding.schema.isEmbedded {
            for key in try scope.allKeys(in: binding) {
                guard let reader = try scope.record(in: binding, key: key) else { continue }
                try scope.updateBacklinks(
                    from: nil, to: scope.values(of: reader, in: binding), key: key, in: binding)
            }
        }
    }
}
