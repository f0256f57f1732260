/// How a query finds its candidates: the cheapest access path the planner found.
///
/// Every candidate is then checked against the whole filter, so a plan only
/// narrows the search: it never decides a match alone.
enum QueryPlan: CustomStringConvertible {
    /// Every object of the type, in table-key order.
    case fullScan
    /// The objects whose table keys are given (primary key `==` or `IN`).
    case primaryKeyLookup([[UInt8]])
    /// The table keys between two bounds (primary key ranges and `BEGINSWITH`).
    case primaryKeyRange(lower: KeyBound?, upper: KeyBound?)
    /// The objects an index lists under the given keys (`==` or `IN` on an indexed property).
    case indexLookup(BoundProperty, [[UInt8]])
    /// The objects an index lists between two bounds.
    case indexRange(BoundProperty, lower: KeyBound?, upper: KeyBound?)
    /// Every object, in the order of an index: a sort the index already holds.
    case indexOrder(BoundProperty, descending: Bool)
    /// The objects a uniqueness constraint's index holds under the given keys (`==` on each of its properties).
    case compoundLookup(CompoundKey, [[UInt8]])
    /// The objects a full-text index finds for a search (`TEXT`), in table-key order.
    case fullText(BoundProperty, TextSearch)

    var description: String {
        switch self {
        case .fullScan: return "full scan"
        case .primaryKeyLookup(let keys): return "primary key lookup (\(keys.count) key\(keys.count == 1 ? "" : "s"))"
        case .primaryKeyRange: return "primary key range scan"
        case .indexLookup(let property, let keys):
            return "index lookup on \(property.schema.name) (\(keys.count) key\(keys.count == 1 ? "" : "s"))"
        case .indexRange(let property, _, _): return "index range scan on \(property.schema.name)"
        case .indexOrder(let property, let descending):
            return "index order scan on \(property.schema.name)\(descending ? " (descending)" : "")"
        case .compoundLookup(let compound, let keys):
            return "uniqueness constraint lookup on \(compound.label) (\(keys.count) key\(keys.count == 1 ? "" : "s"))"
        case .fullText(let property, let search):
            return "full-text search on \(property.schema.name) (\(search.summary))"
        }
    }

    /// Whether the candidates come out in the table's key order (primary-key order).
    var yieldsKeyOrder: Bool {
        switch self {
        case .fullScan, .primaryKeyRange, .fullText: return true
        case .primaryKeyLookup(let keys): return keys.count <= 1
        // One key of a regular index holds its objects' keys sorted (MDB_DUPSORT).
        case .indexLookup(let property, let keys): return keys.count <= 1 && property.schema.index == .regular
        case .compoundLookup(_, let keys): return keys.count <= 1
        default: return false
        }
    }
}

/// The planner's answer: how candidates are found, whether they come in the sort's order, and the
/// conjunct of the filter that finding them decides.
struct PlanChoice {
    var plan: QueryPlan
    var sortedByPlan: Bool
    /// The top-level conjunct every candidate matches, which the filter need not test again.
    var exactConjunct: Int?
    /// When a full-text search competes with other paths yielding the same order: every one of
    /// them, ``plan`` first, each with the conjunct it decides; a run starts from the smallest.
    var alternatives: [(plan: QueryPlan, exactConjunct: Int?)] = []
}

/// Chooses a ``QueryPlan`` for a filter and a sort.
struct QueryPlanner {
    let catalog: StoreCatalog
    let binding: TypeBinding

    /// The plan for `filter` and `sorts`, and whether the plan already yields the sort's order.
    func plan(filter: QueryExpression?, sorts: [SortKey]) throws -> (QueryPlan, sortedByPlan: Bool) {
        let choice = try choose(filter: filter, sorts: sorts)
        return (choice.plan, choice.sortedByPlan)
    }

    /// The plan for `filter` and `sorts`: the access path, whether it yields the sort's order, and
    /// which top-level conjunct (if any) it decides exactly, so the filter need not test it again.
    func choose(filter: QueryExpression?, sorts: [SortKey]) throws -> PlanChoice {
        var best: (access: Access, conjunct: Int)?
        var ranges: [Access] = []
        var candidates: [(access: Access, conjunct: Int)] = []
        for (position, conjunct) in (filter?.conjuncts ?? []).enumerated() {
            guard case .comparison(let comparison) = conjunct, let candidate = try access(for: comparison) else {
                continue
            }
            candidates.append((candidate, position))
            if candidate.plan.isRange { ranges.append(candidate) }
            if best == nil || candidate.rank < best!.access.rank { best = (candidate, position) }
        }
        // `x >= a AND x <= b` is one range, as `x BETWEEN {a, b}` is: the conjuncts stay in the
        // filter, so the narrower walk only skips entries they would reject.
        if let narrowed = Self.intersection(of: ranges), best == nil || narrowed.rank < best!.access.rank {
            best = (narrowed, -1)
        }
        // Equality on every property of a uniqueness constraint: one lookup in its index.
        if let compound = compoundLookup(filter?.conjuncts ?? []), best == nil || best!.access.rank > 0 {
            best = (Access(plan: compound, rank: 0), -1)
        }
        if case .constant(false)? = filter { return PlanChoice(plan: .primaryKeyLookup([]), sortedByPlan: true) }
        let primaryKeySort =
            sorts.count == 1 && sorts[0].keyPath == binding.primaryKey?.schema.name
            && sorts[0].options.isEmpty && sorts[0].ascending
        if let best {
            return PlanChoice(
                plan: best.access.plan, sortedByPlan: primaryKeySort && best.access.plan.yieldsKeyOrder,
                exactConjunct: best.access.isExact ? best.conjunct : nil,
                alternatives: Self.competing(candidates, best: best))
        }
        if sorts.isEmpty || primaryKeySort { return PlanChoice(plan: .fullScan, sortedByPlan: true) }
        if sorts.count == 1, sorts[0].options.isEmpty, let property = binding[sorts[0].keyPath],
            property.index != nil, property.schema.index == .regular,
            property.schema.type != .string, property.schema.type != .data
        {
            return PlanChoice(plan: .indexOrder(property, descending: !sorts[0].ascending), sortedByPlan: true)
        }
        return PlanChoice(plan: .fullScan, sortedByPlan: false)
    }

    /// The paths a run chooses among by size (best first): those that yield candidates in the
    /// best one's order, when one of them is a full-text search, whose cost no static rank knows.
    private static func competing(
        _ candidates: [(access: Access, conjunct: Int)], best: (access: Access, conjunct: Int)
    )
        -> [(plan: QueryPlan, exactConjunct: Int?)]
    {
        guard candidates.contains(where: { $0.access.plan.isFullText }), best.access.plan.canCompete else { return [] }
        var competing = [(plan: best.access.plan, exactConjunct: best.access.isExact ? best.conjunct : Int?.none)]
        for candidate in candidates.sorted(by: { $0.access.rank < $1.access.rank })
        where candidate.conjunct != best.conjunct && candidate.access.plan.canCompete
            && candidate.access.plan.yieldsKeyOrder == best.access.plan.yieldsKeyOrder
        {
            competing.append((candidate.access.plan, candidate.access.isExact ? candidate.conjunct : nil))
        }
        return competing.count > 1 && competing.contains(where: { $0.plan.isFullText }) ? competing : []
    }

    /// The range on one property that the ranges of several conjuncts on it share, ranked below
    /// each of them; `nil` unless two ranges are on the same property.
    private static func intersection(of ranges: [Access]) -> Access? {
        var merged: Access?
        for (index, first) in ranges.enumerated() {
            for second in ranges[(index + 1)...] {
                guard let plan = first.plan.intersected(with: second.plan) else { continue }
                let candidate = Access(plan: plan, rank: Swift.min(first.rank, second.rank) - 1)
                if merged == nil || candidate.rank < merged!.rank { merged = candidate }
            }
        }
        return merged
    }

    /// A candidate access path: its plan, its rank (lower is cheaper), and whether every candidate
    /// it yields matches its comparison (so the comparison need not be tested again).
    private struct Access {
        var plan: QueryPlan
        var rank: Int
        var isExact = false
    }

    /// An access path for one comparison, with a rank (lower is cheaper), or `nil`.
    private func access(for comparison: QueryComparison) throws -> Access? {
        guard let property = SchemaPaths(catalog: catalog).storedField(of: comparison, in: binding) else { return nil }
        let isPrimaryKey = property.schema.isPrimaryKey
        guard isPrimaryKey || property.index != nil else { return nil }
        if comparison.op == .text || property.schema.index == .fullText {
            // Only TEXT reads a full-text index; it decides the comparison exactly.
            guard comparison.op == .text, property.schema.index == .fullText, case .string(let text) = comparison.value
            else { return nil }
            let search = TextSearch(text)
            if search.matchesNothing { return Access(plan: .primaryKeyLookup([]), rank: 0, isExact: true) }
            guard !search.required.isEmpty else { return nil }
            return Access(plan: .fullText(property, search), rank: 3, isExact: true)
        }
        let bonus = isPrimaryKey ? 0 : 1

        let codec = ValueCodec(schema: catalog.schemaIndex)
        let maximum = catalog.maxKeySize
        /// The key of `given`; `nil` when no plan fits; `[]` when no stored object can hold it (too long).
        func key(_ given: StoredValue) throws -> [UInt8]? {
            guard ConstantFit.ordersAsStored(given, of: property.schema.type) else { return nil }
            let value = codec.canonical(given, for: property.schema)
            if isPrimaryKey {
                guard let objectKey = ObjectKeyCodec.key(fromPrimaryKey: value, type: property.schema.type) else {
                    return nil
                }
                let encoded = ObjectKeyCodec.encode(objectKey)
                return encoded.count > catalog.maxTableKeySize ? [] : encoded
            }
            switch IndexKeyCodec.entry(for: value, unique: property.schema.index == .unique, maxKeySize: maximum) {
            case .key(let key): return key
            case .none: return nil
            case .tooLarge: return []  // a unique index holds no value this long
            }
        }

        switch comparison.op {
        case .equal:
            guard !comparison.value.isNull || !isPrimaryKey, let key = try key(comparison.value) else { return nil }
            if comparison.value.isNull && property.schema.index == .unique { return nil }
            return Access(
                plan: lookup(property, key.isEmpty ? [] : [key], isPrimaryKey), rank: 0 + bonus,
                isExact: isExactKey(comparison.value, property))
        case .in:
            guard case .list(let values) = comparison.value else { return nil }
            var keys: [[UInt8]] = []
            for value in values {
                guard !value.isNull, let key = try key(value) else { return nil }
                if !key.isEmpty { keys.append(key) }
            }
            return Access(
                plan: lookup(property, Array(Set(keys)).sorted { $0.lexicographicallyPrecedes($1) }, isPrimaryKey),
                rank: 2 + bonus, isExact: values.allSatisfy { isExactKey($0, property) })
        case .less, .lessOrEqual, .greater, .greaterOrEqual, .between:
            guard !comparison.value.isNull else { return nil }
            var lower: KeyBound?
            var upper: KeyBound?
            switch comparison.op {
            case .less, .lessOrEqual:
                guard let bound = try key(comparison.value), !bound.isEmpty else { return nil }
                upper = KeyBound(bound, inclusive: true)
                lower = KeyBound([KeyEncoding.valueTag], inclusive: true)
            case .greater, .greaterOrEqual:
                guard let bound = try key(comparison.value), !bound.isEmpty else { return nil }
                lower = KeyBound(bound, inclusive: true)
            default:
                guard case .list(let ends) = comparison.value, ends.count == 2,
                    let low = try key(ends[0]), let high = try key(ends[1]), !low.isEmpty, !high.isEmpty
                else { return nil }
                lower = KeyBound(low, inclusive: true)
                upper = KeyBound(high, inclusive: true)
            }
            return Access(plan: range(property, lower, upper, isPrimaryKey), rank: 4 + bonus)
        case .beginsWith:
            guard property.schema.type == .string, case .string(let prefix) = comparison.value else { return nil }
            // Index keys are cut at LMDB's limit: a longer prefix narrows by its first bytes only.
            let low = Array(([KeyEncoding.valueTag] + Array(prefix.utf8)).prefix(maximum))
            if isPrimaryKey, low.count > catalog.maxTableKeySize {
                return Access(plan: lookup(property, [], true), rank: 0, isExact: true)
            }
            return Access(
                plan: range(property, KeyBound(low, inclusive: true), upperBound(forPrefix: low), isPrimaryKey),
                rank: 4 + bonus)
        default:
            return nil
        }
    }

    /// Whether looking `value` up finds exactly the objects whose property equals it: keys of
    /// integers, booleans and UUIDs are never cut short or shared by other values, nor are primary keys.
    private func isExactKey(_ value: StoredValue, _ property: BoundProperty) -> Bool {
        guard !value.isNull else { return false }
        switch (property.schema.type, value) {
        case (_, .int) where property.schema.type.isInteger: return true
        case (.bool, .bool), (.uuid, .uuid): return true
        case (.string, .string): return property.schema.isPrimaryKey
        default: return false
        }
    }

    private func lookup(_ property: BoundProperty, _ keys: [[UInt8]], _ isPrimaryKey: Bool) -> QueryPlan {
        isPrimaryKey ? .primaryKeyLookup(keys) : .indexLookup(property, keys)
    }

    private func range(_ property: BoundProperty, _ lower: KeyBound?, _ upper: KeyBound?, _ isPrimaryKey: Bool)
        -> QueryPlan
    {
        isPrimaryKey ? .primaryKeyRange(lower: lower, upper: upper) : .indexRange(property, lower: lower, upper: upper)
    }

    /// The smallest key above every key starting with `prefix`, or `nil` when there is none.
    private func upperBound(forPrefix prefix: [UInt8]) -> KeyBound? {
        var bytes = prefix
        while let last = bytes.last {
            if last < 0xFF {
                bytes[bytes.count - 1] = last + 1
                return KeyBound(bytes, inclusive: false)
            }
            bytes.removeLast()
        }
        return nil
    }
}

extension QueryPlan {
    /// Whether the plan is a full-text search.
    var isFullText: Bool {
        if case .fullText = self { return true }
        return false
    }

    /// Whether a run may weigh the plan against others by size: a lookup, a range or a search.
    var canCompete: Bool {
        switch self {
        case .fullScan, .indexOrder: return false
        case .primaryKeyLookup(let keys): return keys.count > 1
        default: return true
        }
    }

    /// Whether the plan walks the keys between two bounds.
    var isRange: Bool {
        switch self {
        case .primaryKeyRange, .indexRange: return true
        default: return false
        }
    }

    /// The range both plans walk, when both are ranges over the same keys.
    func intersected(with other: QueryPlan) -> QueryPlan? {
        switch (self, other) {
        case (.primaryKeyRange(let lower, let upper), .primaryKeyRange(let otherLower, let otherUpper)):
            return .primaryKeyRange(
                lower: Self.higher(lower, otherLower), upper: Self.lower(upper, otherUpper))
        case (.indexRange(let property, let lower, let upper), .indexRange(let other, let otherLower, let otherUpper))
        where property === other:
            return .indexRange(property, lower: Self.higher(lower, otherLower), upper: Self.lower(upper, otherUpper))
        default:
            return nil
        }
    }

    /// The tighter of two lower bounds (`nil` is unbounded).
    private static func higher(_ first: KeyBound?, _ second: KeyBound?) -> KeyBound? {
        guard let first else { return second }
        guard let second else { return first }
        if first.key == second.key { return KeyBound(first.key, inclusive: first.isInclusive && second.isInclusive) }
        return first.key.lexicographicallyPrecedes(second.key) ? second : first
    }

    /// The tighter of two upper bounds (`nil` is unbounded).
    private static func lower(_ first: KeyBound?, _ second: KeyBound?) -> KeyBound? {
        guard let first else { return second }
        guard let second else { return first }
        if first.key == second.key { return KeyBound(first.key, inclusive: first.isInclusive && second.isInclusive) }
        return first.key.lexicographicallyPrecedes(second.key) ? first : second
    }
}
