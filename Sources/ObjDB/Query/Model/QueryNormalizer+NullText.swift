extension QueryNormalizer {
    /// What `path BEGINSWITH NULL` (and `ENDSWITH`, `CONTAINS`, `LIKE`) compiles as, Realm's way: the
    /// null string is the pattern. On a string or binary property of the object itself, realm-core's
    /// string node answers: every value starts with, ends with and contains the null string (`nil`
    /// included), and only `nil` is `LIKE` it; binary data alike, except `CONTAINS[c]`, which skips
    /// `nil` (test_parser.cpp, Parser_StringOperations and Parser_NullableBinaries). Through a link
    /// or a collection realm-core compares values (`query_conditions.hpp`'s `QueryValue` forms), as
    /// ``OperandEvaluator`` does. `nil` when `comparison` is not such a comparison.
    func nullTextOperand(_ comparison: QueryComparison) -> QueryExpression? {
        guard comparison.value.isNull, comparison.aggregate == nil,
            [.beginsWith, .endsWith, .contains, .like].contains(comparison.op)
        else { return nil }
        guard comparison.path.count == 1, let property = root[comparison.path[0]],
            property.schema.collection == .single,
            property.schema.type == .string || property.schema.type == .data, !comparison.quantifierWritten
        else { return .operands(comparison.asOperands) }
        var test = comparison
        test.options = []
        switch comparison.op {
        case .like:
            test.op = .equal
            return .comparison(test)
        case .contains where property.schema.type == .data && comparison.options.contains(.caseInsensitive):
            test.op = .notEqual
            return .comparison(test)
        default:
            return .constant(true)
        }
    }
}
