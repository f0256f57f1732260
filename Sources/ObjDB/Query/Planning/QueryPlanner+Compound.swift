extension QueryPlanner {
    /// A lookup in the index of a uniqueness constraint when `conjuncts` compare every one of its
    /// properties with `==` and a value of the property's kind (`nil` is not indexed).
    func compoundLookup(_ conjuncts: [QueryExpression]) -> QueryPlan? {
        guard !binding.compoundKeys.isEmpty else { return nil }
        var equal: [String: StoredValue] = [:]
        for case .comparison(let comparison) in conjuncts
        where comparison.op == .equal && comparison.path.count == 1 && comparison.aggregate == nil
            && comparison.options.isEmpty && !comparison.quantifierWritten && !comparison.value.isNull
        {
            equal[comparison.path[0]] = comparison.value
        }
        let codec = ValueCodec(schema: catalog.schemaIndex)
        for compound in binding.compoundKeys where compound.index != nil {
            var values: [StoredValue] = []
            for property in compound.properties {
                guard let given = equal[property.schema.name], Self.keyable(given, as: property.schema.type) else {
                    break
                }
                values.append(codec.canonical(given, for: property.schema))
            }
            guard values.count == compound.properties.count else { continue }
            switch CompoundKeyCodec.entry(for: values, maxKeySize: catalog.maxKeySize) {
            case .key(let key): return .compoundLookup(compound, [key])
            case .tooLarge: return .compoundLookup(compound, [])  // no object can hold values this long
            case .none: continue
            }
        }
        return nil
    }

    /// Whether `value` is of the kind a property of `type` stores, so its index key is the stored one.
    private static func keyable(_ value: StoredValue, as type: PropertyType) -> Bool {
        switch (value, type) {
        case (.int, _) where type.isInteger: return true
        case (.string, .string), (.bool, .bool), (.date, .date), (.uuid, .uuid), (.data, .data): return true
        case (.double, .double), (.float, .float): return true
        default: return false
        }
    }
}
