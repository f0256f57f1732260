/// How a query's results moved from one version to the next: the new keys, and the
/// deletions, insertions and modifications that turn the old keys into them.
struct ResultsDiff {
    var newKeys: KeyChunks
    /// Old indices, ascending.
    var deletions: [Int] = []
    /// New indices, ascending.
    var insertions: [Int] = []
    /// New indices of objects that stayed in place and changed, ascending.
    var modifications: [Int] = []

    /// Whether an observer has anything to hear.
    var isEmpty: Bool { deletions.isEmpty && insertions.isEmpty && modifications.isEmpty }
}

/// Computes ``ResultsDiff``s for one query.
///
/// With the change log, only the changed objects are looked at: each is located in the old
/// keys by binary search (ordered as the query orders them: sort values, then table key),
/// tested against the filter in the new snapshot, and put back by binary search. That costs
/// O(k log n) lookups for k changed objects, editing only the key chunks it touches. Queries whose
/// answer other changed types can alter (a filter or sort through a link), queries with a
/// limit or `distinct`, and changes too large for the log run the query again and compare
/// whole key lists instead (O(n)).
struct ResultsDiffer {
    /// The query of the results watched, prepared once: every round runs it, none prepares it again.
    let query: PreparedQuery
    var binding: TypeBinding { query.binding }
    var spec: QuerySpec { query.spec }
    /// The types whose changes can alter the results: its own, and those reached through links.
    let readTypes: Set<String>
    /// The types the query reaches through a link or linking objects (its own type too, when a
    /// link leads back to it): a change to one can move objects whose records did not change.
    let linkedTypes: Set<String>
    /// Whether a sort reads through a link: then unchanged records may still move.
    let sortsThroughLinks: Bool
    /// What counts as a modification.
    let observed: ObservedKeyPaths

    /// The properties whose changes count as modifications; `nil` for all.
    var observedProperties: Set<UInt16>? { observed.properties }

    /// A differ of the results of `query` reporting changes to what `observed` names (every
    /// property and linked object by default).
    init(query: PreparedQuery, database: Database, observed: ObservedKeyPaths? = nil) {
        self.query = query
        let binding = query.binding
        let spec = query.spec
        self.linkedTypes = spec.linkedTypes(from: binding, in: database)
        self.readTypes = linkedTypes.union([binding.schema.name])
        self.sortsThroughLinks = spec.effectiveSorts.contains { $0.keyPath.contains(".") }
        self.observed = observed ?? .everything(of: binding, in: database)
    }

    /// A differ of the results of `spec` over `binding`'s type, prepared now.
    ///
    /// - Throws: ``ObjDBError/invalidQuery(type:reason:)`` for a query the schema cannot run.
    init(binding: TypeBinding, spec: QuerySpec, database: Database, observed: ObservedKeyPaths? = nil) throws {
        self.init(
            query: try PreparedQuery(catalog: database.catalog, binding: binding, spec: spec), database: database,
            observed: observed)
    }

    /// The keys the query selects in `snapshot`.
    func keys(in snapshot: Snapshot) throws -> KeyChunks {
        KeyChunks(
            spec.isEverything
                ? try snapshot.source().allKeys(in: binding)
                : try query.matches(QueryReader(source: snapshot.source(), readsDamagedAsEmpty: false)).keys)
    }

    /// The diff from `oldKeys` (the results at `old`'s version) to the results at `new`'s; `nil`
    /// when `changes` shows the commits touched nothing the query reads.
    ///
    /// - Parameters:
    ///   - changes: the folded change log between the two versions, or `nil` when unknown.
    ///   - old: a context at the old version, if still held.
    func diff(from oldKeys: KeyChunks, changes: ChangeSet?, old: Snapshot?, new: Snapshot) throws
        -> ResultsDiff?
    {
        let ownDiff = try diffOfReadTypes(from: oldKeys, changes: changes, old: old, new: new)
        guard let changes, !observed.links.isEmpty else { return ownDiff }
        // Objects whose links reach a changed object: modified, unless they moved or are new.
        let linking = try observed.linkingSources(of: changes, in: new, binding: binding)
        guard !linking.isEmpty else { return ownDiff }
        var diff = ownDiff ?? ResultsDiff(newKeys: oldKeys)
        let order = QueryOrder(binding: binding, spec: spec, snapshot: new)
        var modifications = Set(diff.modifications)
        let inserted = Set(diff.insertions)
        for source in linking {
            // Ranked results are in score order, which no binary search knows.
            let position =
                spec.ranking != nil
                ? diff.newKeys.firstIndex(of: source.key)
                : try Self.index(of: source.key, in: diff.newKeys, by: { try order.precedes($0, $1) })
            if let position, !inserted.contains(position) {
                modifications.insert(position)
            }
        }
        diff.modifications = modifications.sorted()
        return diff
    }

    /// The diff as far as the types the query reads go; `nil` when none of them changed.
    private func diffOfReadTypes(from oldKeys: KeyChunks, changes: ChangeSet?, old: Snapshot?, new: Snapshot)
        throws -> ResultsDiff?
    {
        if let changes, readTypes.allSatisfy({ !changes.touches($0) }) { return nil }
        let own = changes?.types[binding.schema.name]
        let linkedChanged = changes.map { changes in linkedTypes.contains { changes.touches($0) } }
        if let changes, let own, !own.isWholesale, linkedChanged == false, spec.limit == nil, spec.then.isEmpty,
            spec.distinctPaths.isEmpty, spec.sorts.isEmpty || old != nil,
            changes.touches(binding.schema.name)
        {
            return try incremental(from: oldKeys, changes: own, old: old, new: new)
        }
        return try wholesale(from: oldKeys, changes: own, old: old, new: new)
    }

    // MARK: - Incremental

    private func incremental(from oldKeys: KeyChunks, changes: TypeChangeSet, old: Snapshot?, new: Snapshot)
        throws -> ResultsDiff
    {
        let queryReader = QueryReader(source: try new.source(), readsDamagedAsEmpty: false)
        let oldOrder = old.map { QueryOrder(binding: binding, spec: spec, snapshot: $0) }
        let newOrder = QueryOrder(binding: binding, spec: spec, snapshot: new)
        var removals: [Int] = []
        var inPlace: [(key: [UInt8], relevant: Bool)] = []
        var additions: [[UInt8]] = []

        for (key, change) in changes.objects {
            var oldIndex: Int?
            var oldValues: [StoredValue] = []
            if change.existedBefore {
                if spec.sorts.isEmpty {
                    oldIndex = Self.index(of: key, in: oldKeys) { $0.lexicographicallyPrecedes($1) }
                } else if let oldOrder {
                    oldValues = try oldOrder.sortValues(of: key)
                    oldIndex = try Self.index(of: key, in: oldKeys) {
                        try oldOrder.precedes($0, $1, knownValues: (key, oldValues))
                    }
                }
            }
            var isMember = false
            var newValues: [StoredValue] = []
            if change.existsAfter, let reader = try new.record(in: binding, key: key) {
                isMember = try key.withUnsafeBytes { try query.matchesFilter(reader, key: $0, queryReader) }
                if isMember && !spec.sorts.isEmpty { newValues = try newOrder.sortValues(of: key) }
            }
            if oldIndex != nil, isMember, spec.sorts.isEmpty || newOrder.sameOrder(oldValues, newValues) {
                inPlace.append((key, isRelevant(change)))
                continue
            }
            if let oldIndex { removals.append(oldIndex) }
            if isMember { additions.append(key) }
        }
        removals.sort()

        // Edit a copy of the old keys in place: only the chunks touched are copied.
        var keys = oldKeys
        for index in removals.reversed() { keys.remove(at: index) }
        var diff = ResultsDiff(newKeys: KeyChunks())
        diff.deletions = removals
        // In ascending order, so each insertion lands after the ones before it and their
        // indices (in the new list) stay put.
        for key in try additions.sorted(by: { try newOrder.precedes($0, $1) }) {
            let position = try Self.lowerBound(of: key, in: keys) { try newOrder.precedes($0, $1) }
            keys.insert(key, at: position)
            diff.insertions.append(position)
        }
        for (key, relevant) in inPlace where relevant {
            if let position = try Self.index(of: key, in: keys, by: { try newOrder.precedes($0, $1) }) {
                diff.modifications.append(position)
            }
        }
        diff.newKeys = keys
        diff.modifications.sort()
        return diff
    }

    // MARK: - Whole lists

    private func wholesale(from oldKeys: KeyChunks, changes: TypeChangeSet?, old: Snapshot?, new: Snapshot)
        throws -> ResultsDiff
    {
        let newKeys = try keys(in: new)
        var oldIndex: [[UInt8]: Int] = [:]
        oldIndex.reserveCapacity(oldKeys.count)
        for (index, key) in oldKeys.enumerated() { oldIndex[key] = index }
        var common: [(old: Int, new: Int)] = []
        var inNew = [Bool](repeating: false, count: oldKeys.count)
        for (index, key) in newKeys.enumerated() {
            if let old = oldIndex[key] {
                common.append((old, index))
                inNew[old] = true
            }
        }
        // Unchanged objects keep their relative order, so they all stay; a changed one stays
        // when it still sits between the same unchanged neighbours (and, among changed ones in
        // one gap, in a longest run that kept its order). The rest moved.
        // Sorted through a link, an object whose record did not change can still move.
        var isChanged: [Bool] = []
        for pair in common {
            isChanged.append(
                try sortsThroughLinks || wasChanged(newKeys[pair.new], changes: changes, old: old, new: new))
        }
        let stays = Self.stayingPositions(common.map(\.old), isChanged: isChanged)
        var diff = ResultsDiff(newKeys: newKeys)
        var moved = Set<Int>()
        for (position, pair) in common.enumerated() where !stays.contains(position) {
            moved.insert(pair.old)
            diff.insertions.append(pair.new)
        }
        diff.deletions = oldKeys.indices.filter { !inNew[$0] || moved.contains($0) }
        var isCommonNew = [Bool](repeating: false, count: newKeys.count)
        for pair in common { isCommonNew[pair.new] = true }
        diff.insertions += newKeys.indices.filter { !isCommonNew[$0] }
        diff.insertions.sort()
        for position in stays {
            let pair = common[position]
            let key = newKeys[pair.new]
            if try wasModified(key, changes: changes, old: old, new: new) { diff.modifications.append(pair.new) }
        }
        diff.modifications.sort()
        return diff
    }

    /// Whether an object present at both versions changed at all (so it may have moved).
    private func wasChanged(_ key: [UInt8], changes: TypeChangeSet?, old: Snapshot?, new: Snapshot) throws
        -> Bool
    {
        if let changes, !changes.isWholesale { return changes.objects[key] != nil }
        guard let old else { return true }
        guard let before = try old.record(in: binding, key: key), let after = try new.record(in: binding, key: key)
        else { return true }
        return !before.record.elementsEqual(after.record)
    }

    /// The positions (in `oldIndices`, listed in new order) of the objects that stay in place.
    static func stayingPositions(_ oldIndices: [Int], isChanged: [Bool]) -> Set<Int> {
        var stays = Set<Int>()
        var gap: [Int] = []  // positions of changed objects since the last unchanged one
        var lowerBound = -1
        func closeGap(upperBound: Int) {
            let candidates = gap.filter { oldIndices[$0] > lowerBound && oldIndices[$0] < upperBound }
            for index in longestIncreasingRun(candidates.map { oldIndices[$0] }) {
                stays.insert(candidates[index])
            }
            gap.removeAll()
        }
        for position in oldIndices.indices {
            if isChanged[position] {
                gap.append(position)
            } else {
                closeGap(upperBound: oldIndices[position])
                stays.insert(position)
                lowerBound = oldIndices[position]
            }
        }
        closeGap(upperBound: Int.max)
        return stays
    }

    /// Whether an object present at both versions changed in an observed property.
    private func wasModified(_ key: [UInt8], changes: TypeChangeSet?, old: Snapshot?, new: Snapshot) throws
        -> Bool
    {
        if let changes, !changes.isWholesale {
            return changes.objects[key].map(isRelevant) ?? false
        }
        guard let old else { return true }
        guard let before = try old.record(in: binding, key: key), let after = try new.record(in: binding, key: key)
        else { return true }
        if before.record.elementsEqual(after.record) { return false }
        guard let observedProperties else { return true }
        return binding.properties.contains { property in
            observedProperties.contains(property.schema.id) && property.schema.isStored
                && !before.field(property.slot).hasSameBytes(as: after.field(property.slot))
        }
    }

    private func isRelevant(_ change: LoggedObjectChange) -> Bool {
        guard let observedProperties else { return change.allProperties || !change.properties.isEmpty }
        return change.allProperties || !change.properties.isDisjoint(with: observedProperties)
    }

    // MARK: - Searching

    /// The index of `key` in `keys` (ordered by `precedes`), or `nil`.
    static func index<Keys: RandomAccessCollection<[UInt8]>>(
        of key: [UInt8], in keys: Keys, by precedes: ([UInt8], [UInt8]) throws -> Bool
    ) rethrows -> Int? where Keys.Index == Int {
        let position = try lowerBound(of: key, in: keys, by: precedes)
        return position < keys.count && keys[position] == key ? position : nil
    }

    /// The first position in `keys` (ordered by `precedes`) whose key does not precede `key`.
    static func lowerBound<Keys: RandomAccessCollection<[UInt8]>>(
        of key: [UInt8], in keys: Keys, by precedes: ([UInt8], [UInt8]) throws -> Bool
    ) rethrows -> Int where Keys.Index == Int {
        var low = 0
        var high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if try precedes(keys[middle], key) { low = middle + 1 } else { high = middle }
        }
        return low
    }

}
