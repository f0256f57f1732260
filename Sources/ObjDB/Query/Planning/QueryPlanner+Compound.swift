extension QueryPlanner {
    /// A lookup in the index of a uniqueness constraint when `conjuncts` compare every one of its
    /// properties with `==` and a value of the property's kind (`nil` is not indexed).
    func compoundLookup(_ conjuncts: [QueryExpression]) -> QueryPlan? {
        guard !binding.compoundKeys.isEmpty else { return nil }
        var equal: [String: StoredValue] = [:]
        let paths = SchemaPaths(catalog: catalog)
        for case .comparison(let comparison) in conjuncts
        where comparison.op == .equal && !comparison.quantifierWritten && !comparison.value.isNull {
            guard let property = paths.storedField(of: comparison, in: binding) else { continue }
            equal[property.schema.name] = comparison.value
        }
        let codec = ValueCodec(schema: catalog.schemaIndex)
        for compound in binding.compoundKeys where compound.index != nil {
            var values: [StoredValue] = []
            for property in compound.properties {
                guard let given = equal[property.schema.name], ConstantFit.isStoredKind(given, of: property.schema.type)
                else {
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
}
