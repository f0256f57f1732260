import Foundation

extension QuerySpec {
    /// The types whose objects a query with this spec reaches through links or linking objects
    /// (in its filter, sorts and `distinct`), its own included when a link leads back to it.
    func linkedTypes(from binding: TypeBinding, in database: Database) -> Set<String> {
        var types: Set<String> = []
        var paths = orderingKeyPaths.map(SortPath.components)
        if let filter { paths += filter.comparisonPaths }
        for path in paths {
            var current = binding
            var skip = 0
            for (index, name) in path.enumerated() {
                if skip > 0 {
                    skip -= 1
                    continue
                }
                // `@links.Type.property` (#17): objects of `Type` linking here, without a declared property.
                if name == "@links", index + 2 < path.count, let source = database.bindings[path[index + 1]] {
                    types.insert(source.schema.name)
                    current = source
                    skip = 2
                    continue
                }
                if name == "@links" {
                    // `@links.@count`: every type with a link to this one.
                    let target = current.schema.name
                    for (typeName, other) in database.bindings
                    where other.properties.contains(where: {
                        $0.schema.objectType == target && $0.schema.type == .object
                    }) {
                        types.insert(typeName)
                    }
                    break
                }
                if name.hasPrefix("@") { continue }
                guard let property = current[name] else { break }
                if property.schema.type == .linkingObjects, let source = property.schema.objectType {
                    types.insert(source)
                    guard let next = database.bindings[source] else { break }
                    current = next
                } else if property.schema.type == .object, let target = property.schema.objectType,
                    let next = database.bindings[target]
                {
                    if path.last != name { types.insert(target) }
                    current = next
                } else {
                    break
                }
            }
        }
        return types
    }
}

extension QueryExpression {
    /// The key paths of every comparison in the expression.
    var comparisonPaths: [[String]] {
        switch self {
        case .constant: return []
        case .not(let inner): return inner.comparisonPaths
        case .and(let parts), .or(let parts): return parts.flatMap(\.comparisonPaths)
        case .comparison(let comparison): return [comparison.path]
        case .operands(let comparison): return comparison.keyPaths
        }
    }
}
