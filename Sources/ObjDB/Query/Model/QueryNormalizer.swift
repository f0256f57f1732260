/// Puts a filter in the form the planner and the filter compiler read, knowing the schema, so
/// that each comparison is decided once: a ``QueryComparison`` is a test of values the compiled
/// program reads in place (through to-one links, or under a quantifier through one collection),
/// and an ``OperandComparison`` is everything the general evaluator answers.
///
/// It lowers general comparisons that are really `property op constant`: `x == {1, 2}` and
/// `{1, 2} == x` are `x IN {1, 2}` when `x` holds one value (for a list they compare element by
/// element), and `x == NONE {1, 2}` is `NOT x IN {1, 2}`. It raises the comparisons only the
/// general evaluator answers (a path through two collections, a map's values, a string's
/// `length`, an aggregate through objects, Realm's null patterns through a link). The parser
/// already lowers what needs no schema (`5 == x`, `x == ANY {1, 2}`, `ANY {1, 2} IN list`).
struct QueryNormalizer {
    let catalog: StoreCatalog
    let root: TypeBinding

    private var paths: SchemaPaths { SchemaPaths(catalog: catalog) }

    func normalize(_ expression: QueryExpression) throws -> QueryExpression {
        switch expression {
        case .constant: return expression
        case .comparison(let comparison): return decided(comparison)
        case .not(let inner):
            let normalized = try normalize(inner)
            return equality(negating: normalized) ?? .not(normalized)
        case .and(let parts): return .and(try parts.map(normalize))
        case .or(let parts):
            let normalized = try parts.map(normalize)
            return oneOf(normalized) ?? .or(normalized)
        // A lowering names one value through to-one links: a field test as it stands.
        case .operands(let comparison): return lowered(comparison) ?? expression
        }
    }

    /// The comparison in the form that answers it: a field test, or the general form.
    private func decided(_ comparison: QueryComparison) -> QueryExpression {
        if let rewritten = nullTextOperand(comparison) { return rewritten }
        if paths.needsOperandEvaluator(comparison.path[...], aggregate: comparison.aggregate, in: root) {
            return .operands(comparison.asOperands)
        }
        return .comparison(comparison)
    }

    private func lowered(_ comparison: OperandComparison) -> QueryExpression? {
        guard comparison.op == .equal || (comparison.op == .in && comparison.rightQuantifier == nil) else {
            return nil
        }
        let path: QueryKeyPath
        let values: [StoredValue]
        let quantifier: QueryQuantifier?
        switch (comparison.left, comparison.right) {
        case (.keyPath(let keyPath), .value(.list(let list))) where comparison.leftQuantifier == nil:
            (path, values, quantifier) = (keyPath, list, comparison.rightQuantifier)
        case (.value(.list(let list)), .keyPath(let keyPath)) where comparison.rightQuantifier == nil:
            (path, values, quantifier) = (keyPath, list, comparison.leftQuantifier)
        default:
            return nil
        }
        guard let names = path.names, paths.holdsOneValue(names[...], in: root) else { return nil }
        if comparison.op == .in, case .value = comparison.left { return nil }
        let oneOf = QueryExpression.comparison(
            QueryComparison(
                path: names, op: .in, value: .list(values), options: comparison.options,
                position: path.position ?? comparison.position))
        switch quantifier {
        case nil, .some(.any): return oneOf
        case .some(.none): return .not(oneOf)
        case .some(.all): return nil
        }
    }

    /// `x == 1 OR x == 2 OR x IN {3}` as `x IN {1, 2, 3}`, for one value `x`: the planner looks
    /// each key up instead of scanning.
    private func oneOf(_ parts: [QueryExpression]) -> QueryExpression? {
        guard parts.count > 1, case .comparison(let first) = parts[0] else { return nil }
        var values: [StoredValue] = []
        for part in parts {
            guard case .comparison(let comparison) = part, comparison.path == first.path,
                comparison.aggregate == nil, comparison.options == first.options
            else { return nil }
            switch (comparison.op, comparison.value) {
            case (.equal, let value) where !value.isNull: values.append(value)
            case (.in, .list(let list)) where !list.contains(where: \.isNull): values += list
            default: return nil
            }
        }
        guard paths.holdsOneValue(first.path[...], in: root),
            let property = paths.property(at: first.path[...], in: root),
            property.index != nil || property.schema.isPrimaryKey,
            values.allSatisfy({ ConstantFit.mergesIntoOneOf($0, of: property.schema.type) })
        else { return nil }
        var merged = first
        merged.op = .in
        merged.value = .list(values)
        return .comparison(merged)
    }

    /// `NOT (x != 5)` as `x == 5`, for one value `x` and a value that is not `nil` (so a `nil`
    /// `x` fails both): the planner can look it up.
    private func equality(negating expression: QueryExpression) -> QueryExpression? {
        guard case .comparison(var comparison) = expression, comparison.op == .notEqual,
            comparison.aggregate == nil, !comparison.value.isNull, paths.holdsOneValue(comparison.path[...], in: root)
        else { return nil }
        comparison.op = .equal
        return .comparison(comparison)
    }
}

extension QueryComparison {
    /// The comparison in the general form, for the paths only the ``OperandEvaluator`` walks
    /// (through two collections, into a map, an aggregate through objects).
    var asOperands: OperandComparison {
        let names = path + (aggregate.map { [$0.rawValue] } ?? [])
        let keyPath = QueryOperand.keyPath(QueryKeyPath(names: names, position: position))
        let written = quantifier == .any && !quantifierWritten ? nil : quantifier
        if op == .containsElement {
            // `NONE 'milk' IN items.allergens.name`: the quantifier ranges over the collection.
            guard let written, written != .any else {
                return OperandComparison(
                    left: .value(value), op: .in, options: options, right: keyPath, position: position)
            }
            return OperandComparison(
                left: keyPath, leftQuantifier: written, op: .equal, options: options, right: .value(value),
                position: position)
        }
        return OperandComparison(
            left: keyPath, leftQuantifier: written, op: op, options: options, right: .value(value),
            position: position)
    }
}
