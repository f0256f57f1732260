import Foundation

/// A query with its comparisons' constants erased to their kinds: what a `where` closure or a
/// predicate with `%@` arguments asks each time, with other values.
///
/// Whether a filter compiles depends on its shape (the paths, the operators, the kinds of the
/// constants), not on the constants' values, for the kinds erased here. So a shape that compiled
/// once in a store's schema compiles again, and a query of that shape need not compile its whole
/// filter before it is used: ``PreparedQuery`` compiles it at first use (an index lookup, whose
/// plan decides the filter, never does). The profile of W5 in BENCHMARKS.md put the compile at
/// 8% of an indexed query that reads 100 objects.
struct QueryShape: Hashable, Sendable {
    private let spec: QuerySpec

    /// The shape of `spec`, whose filter is normalized (``QueryNormalizer``).
    init(of spec: QuerySpec) {
        var shape = spec
        shape.filter = spec.filter.map(Self.erasingConstants)
        self.spec = shape
    }

    /// `expression` with each erasable constant replaced by a value of its kind. A kind whose
    /// values compile differently (a `LIKE` pattern, an infinite `Double`, a list, a link) stays
    /// as it is: such a query only matches its own shape.
    private static func erasingConstants(_ expression: QueryExpression) -> QueryExpression {
        switch expression {
        case .constant, .operands: return expression
        case .not(let inner): return .not(erasingConstants(inner))
        case .and(let parts): return .and(parts.map(erasingConstants))
        case .or(let parts): return .or(parts.map(erasingConstants))
        case .comparison(var comparison):
            // Where it stood in the text only names it in an error, and an erased shape has compiled.
            comparison.position = nil
            switch comparison.value {
            case .int: comparison.value = .int(0)
            case .bool: comparison.value = .bool(false)
            case .date: comparison.value = .date(Date(timeIntervalSinceReferenceDate: 0))
            case .double(let number) where number.isFinite: comparison.value = .double(0)
            case .string where comparison.op != .like && comparison.op != .text: comparison.value = .string("")
            default: break
            }
            return .comparison(comparison)
        }
    }
}
