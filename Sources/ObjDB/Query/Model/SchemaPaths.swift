/// What a comparison's key path and constant mean in the schema: the one analysis the
/// normalizer, the planner and the filter compiler read, so the three agree on which
/// comparisons test one stored value, which reach through a collection, which need the general
/// evaluator, and which constants an index key stands for.
struct SchemaPaths {
    let catalog: StoreCatalog

    /// The type a link or an embedded object leads to; `nil` for any other property.
    func target(of property: BoundProperty) -> TypeBinding? {
        guard property.schema.type == .object || property.schema.type == .embedded,
            let name = property.schema.objectType
        else { return nil }
        return catalog.bindings[name]
    }

    /// The property a path through to-one links and embedded objects ends at.
    func property(at path: ArraySlice<String>, in binding: TypeBinding) -> BoundProperty? {
        guard let name = path.first, let property = binding[name] else { return nil }
        if path.count == 1 { return property }
        guard property.schema.collection == .single, let target = target(of: property) else { return nil }
        return self.property(at: path.dropFirst(), in: target)
    }

    /// Whether the path names properties through to-one links, ending at one stored value.
    func holdsOneValue(_ path: ArraySlice<String>, in binding: TypeBinding) -> Bool {
        guard let name = path.first, let property = binding[name], property.schema.collection == .single,
            property.schema.type != .linkingObjects
        else { return false }
        if path.count == 1 { return property.schema.type != .embedded }
        guard let target = target(of: property) else { return false }
        return holdsOneValue(path.dropFirst(), in: target)
    }

    /// Whether the path passes through (or ends at) a list, a set, a map or linking objects.
    func passesCollection(_ path: ArraySlice<String>, in binding: TypeBinding) -> Bool {
        guard let name = path.first, let property = binding[name] else { return false }
        if property.schema.collection != .single || property.schema.type == .linkingObjects { return true }
        guard path.count > 1, let target = target(of: property) else { return false }
        return passesCollection(path.dropFirst(), in: target)
    }

    /// Whether `path op constant` needs the general evaluator (``OperandEvaluator``) rather than a
    /// field test: a path through two collections, a map's values, an aggregate of a property
    /// through a collection of objects, a string's length, or a name starting with `@`.
    func needsOperandEvaluator(
        _ path: ArraySlice<String>, aggregate: QueryAggregate?, in binding: TypeBinding, collections: Int = 0
    ) -> Bool {
        guard let name = path.first else { return false }
        guard let property = binding[name] else {
            // `@links…`: names the general evaluator resolves (or rejects).
            return name.hasPrefix("@")
        }
        let schema = property.schema
        let rest = path.dropFirst()
        let isCollection = schema.collection != .single || schema.type == .linkingObjects
        if schema.collection == .map { return !(rest.isEmpty && aggregate == .count) }
        if isCollection && collections > 0 { return true }
        let next =
            schema.type == .linkingObjects ? schema.objectType.flatMap { catalog.bindings[$0] } : target(of: property)
        if rest.isEmpty {
            // An aggregate of one value (a string's @count) or of values reached through objects.
            return aggregate != nil && (!isCollection || collections > 0)
        }
        guard let next else { return rest.first.map { $0.lowercased() == "length" || $0.hasPrefix("@") } ?? false }
        return needsOperandEvaluator(
            rest, aggregate: aggregate, in: next, collections: collections + (isCollection ? 1 : 0))
    }

    /// The property of `binding` itself that `comparison` tests as it is stored, one value with
    /// no aggregate and no `[c]`/`[d]`: the comparisons an index or a primary key can answer.
    func storedField(of comparison: QueryComparison, in binding: TypeBinding) -> BoundProperty? {
        guard comparison.path.count == 1, comparison.aggregate == nil, comparison.options.isEmpty,
            let property = binding[comparison.path[0]], property.schema.collection == .single
        else { return nil }
        return property
    }
}

/// How a constant relates to the values a property of some type stores.
enum ConstantFit {
    /// Whether `value` is of the kind `type` stores, so its index key is the stored one.
    static func isStoredKind(_ value: StoredValue, of type: PropertyType) -> Bool {
        switch (value, type) {
        case (.int, _) where type.isInteger: return true
        case (.string, .string), (.bool, .bool), (.date, .date), (.uuid, .uuid), (.data, .data): return true
        case (.double, .double), (.float, .float): return true
        default: return false
        }
    }

    /// Whether an index of `type` orders `value` as it orders the property's values (a double
    /// bound on an integer index would not); `nil` fits every type.
    static func ordersAsStored(_ value: StoredValue, of type: PropertyType) -> Bool {
        switch (value, type) {
        case (.int, .double), (.int, .float), (.double, .float), (.float, .double), (.null, _): return true
        default: return isStoredKind(value, of: type)
        }
    }

    /// Whether `x == value` means what `x IN {value}` does, so equalities can merge into one
    /// `IN`: a stored kind, but not a floating-point value (an infinity or a `NaN` keeps its own
    /// comparison) nor data.
    static func mergesIntoOneOf(_ value: StoredValue, of type: PropertyType) -> Bool {
        guard isStoredKind(value, of: type) else { return false }
        switch type {
        case .double, .float, .data: return false
        default: return true
        }
    }
}
