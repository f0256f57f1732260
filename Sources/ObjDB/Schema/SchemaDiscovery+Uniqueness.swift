extension DiscoveredType {
    /// Checks a type's uniqueness constraints: each names two or more distinct stored properties
    /// of one indexable value each (a single property is `@Persisted(unique: true)`).
    static func validateUniquenessConstraints(of schema: ObjectSchema) throws {
        func invalid(_ reason: String) -> ObjDBError { .invalidSchema(type: schema.name, reason: reason) }
        guard !schema.uniquenessConstraints.isEmpty else { return }
        if schema.isEmbedded { throw invalid("embedded objects have no uniqueness constraints") }
        var seen = Set<[String]>()
        for names in schema.uniquenessConstraints {
            let label = "the uniqueness constraint (" + names.joined(separator: ", ") + ")"
            guard names.count >= 2 else {
                throw invalid("\(label) names \(names.count) properties; for one, declare @Persisted(unique: true)")
            }
            guard Set(names).count == names.count else { throw invalid("\(label) names a property twice") }
            guard seen.insert(names).inserted else { throw invalid("\(label) is declared twice") }
            for name in names {
                guard let property = schema[name] else { throw invalid("\(label) names no property \(name)") }
                guard property.collection == .single, property.type.canBeIndexed, property.type != .object else {
                    throw invalid(
                        "\(label): \(name) (\(property.typeDescription)) cannot be part of it; use stored values "
                            + "of a type an index holds (not a collection or a link)")
                }
            }
        }
    }
}

extension ObjectSchema {
    /// The property IDs of each uniqueness constraint, in the constraint's order (names the type
    /// lacks are left out; the schema's validation refuses them).
    var uniquenessConstraintIDs: [[UInt16]] {
        uniquenessConstraints.map { names in names.compactMap { self[$0]?.id } }.filter { $0.count >= 2 }
    }
}
