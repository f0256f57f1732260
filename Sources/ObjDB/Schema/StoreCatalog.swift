/// An open store's types and named databases: how each type is bound to its tables and
/// indexes, found by class or by name. Everything that reads or writes records finds its way
/// through the catalog; it never changes once the store is open.
final class StoreCatalog: Sendable {
    /// The store's environment.
    let environment: Environment
    /// The store's path, for messages.
    let path: String
    /// The schema in force.
    let schema: Schema
    /// The types by name, for the codecs.
    let schemaIndex: SchemaIndex
    /// Each type's binding, by name.
    let bindings: [String: TypeBinding]
    /// `objdb.meta`; `nil` only in a read-only store that lacks it.
    let meta: DatabaseHandle?
    /// `objdb.backlinks`.
    let backlinks: DatabaseHandle?
    /// The change log (`objdb.changes`); `nil` in a store opened read-only that predates it.
    let changeLog: DatabaseHandle?
    /// Where calls that cannot throw report the faults they meet.
    let faults: FaultReporter
    private let bindingsByClass: BindingsByClass
    /// The query shapes that compiled in this schema.
    let compiledQueryShapes = CompiledShapes()

    init(
        environment: Environment, path: String, schema: Schema, discovered: [DiscoveredType],
        handles: DatabaseHandles, faults: FaultReporter = FaultReporter(handler: nil)
    ) {
        self.faults = faults
        self.environment = environment
        self.path = path
        self.schema = schema
        self.schemaIndex = SchemaIndex(schema)
        self.meta = handles.meta
        self.backlinks = handles.backlinks
        self.changeLog = handles.changeLog
        self.maxKeySize = environment.maxKeySize
        self.maxTableKeySize = environment.maxKeySize - 3 - (schema.types.map(\.name.utf8.count).max() ?? 0)
        var bindings: [String: TypeBinding] = [:]
        var byClass: [ObjectIdentifier: TypeBinding] = [:]
        let linkTargets = Set(
            schema.types.flatMap { $0.properties.filter { $0.type == .object }.compactMap(\.objectType) })
        for type in schema.types {
            let known = discovered.first { $0.schema.name == type.name }
            let binding = TypeBinding(
                schema: type, swiftType: known?.swiftType, discovered: known, table: handles.tables[type.name],
                indexes: handles.indexes[type.name] ?? [:],
                fullTextSegments: handles.fullTextSegments[type.name] ?? [:],
                compoundIndexes: handles.compoundIndexes[type.name] ?? [:],
                isLinkTarget: linkTargets.contains(type.name),
                schemaIndex: schemaIndex)
            bindings[type.name] = binding
            if let known { byClass[ObjectIdentifier(known.swiftType)] = binding }
        }
        self.bindings = bindings
        self.bindingsByClass = BindingsByClass(byClass)
    }

    /// The binding of class `type`, or an error naming it.
    func binding(for type: ObjectBase.Type) throws -> TypeBinding {
        guard let binding = bindingsByClass[type] else {
            throw ObjDBError.unknownType(DiscoveredType.name(of: type))
        }
        return binding
    }

    /// The binding of class `type`, if the store was opened with it.
    func knownBinding(for type: ObjectBase.Type) -> TypeBinding? {
        bindingsByClass[type]
    }

    /// The binding of the type named `name`, or an error naming it.
    func binding(named name: String) throws -> TypeBinding {
        guard let binding = bindings[name] else { throw ObjDBError.unknownType(name) }
        return binding
    }

    /// LMDB's key size limit (kept here: reading it through the environment retained it per index key).
    let maxKeySize: Int

    /// The longest table key: LMDB's key limit less what a backlink puts around a key (a type
    /// name, its length, a property ID).
    let maxTableKeySize: Int

    /// Every named database a read may touch.
    var allDatabaseHandles: [DatabaseHandle] {
        [meta, backlinks, changeLog].compactMap { $0 }
            + bindings.values.flatMap { binding in
                [binding.table].compactMap { $0 } + binding.properties.compactMap(\.index)
                    + binding.properties.compactMap(\.fullTextSegment?.database)
                    + binding.compoundKeys.compactMap(\.index)
            }
    }

    /// Touches every database in `snapshot`: LMDB records a named database's root in the
    /// transaction on first use, and after that a read transaction is only read, so threads
    /// may share it.
    func warm(_ snapshot: Transaction) throws {
        for handle in allDatabaseHandles { _ = try snapshot.statistics(of: handle) }
    }
}

/// The named databases of an open store, as opening found or created them.
struct DatabaseHandles {
    var meta: DatabaseHandle?
    var backlinks: DatabaseHandle?
    var changeLog: DatabaseHandle?
    var tables: [String: DatabaseHandle] = [:]
    var indexes: [String: [String: DatabaseHandle]] = [:]
    /// Per type, its full-text indexes' segment databases (absent in a store of format 2 or 3).
    var fullTextSegments: [String: [String: DatabaseHandle]] = [:]
    /// Per type, the indexes of its uniqueness constraints, by their property IDs.
    var compoundIndexes: [String: [[UInt16]: DatabaseHandle]] = [:]
}
