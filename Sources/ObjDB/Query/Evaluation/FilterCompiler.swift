import Foundation

/// Compiles a ``QueryExpression`` into a ``FilterProgram`` for records of one type.
///
/// Compiling checks the whole filter against the schema (every property exists, every operator
/// applies to its operands), so a query that cannot run fails here, once, not while it runs.
struct FilterCompiler {
    let catalog: StoreCatalog
    let root: TypeBinding

    /// The deepest expression compiled: compiling and matching recurse, and every front-end can nest
    /// (a string predicate up to ``PredicateParser/maximumDepth`` levels, each up to an OR, an AND and a NOT deep).
    static let maximumDepth = 4 * PredicateParser.maximumDepth

    func compile(_ expression: QueryExpression) throws -> FilterProgram {
        guard Self.depth(of: expression) <= Self.maximumDepth else {
            throw invalid("the query nests deeper than \(Self.maximumDepth) levels")
        }
        QueryInstrumentation.current?.count(.compilation)
        var builder = ProgramBuilder()
        try emit(expression, in: root, into: &builder)
        return builder.finish()
    }

    /// The expression's depth, found without recursing (it may be deep).
    private static func depth(of expression: QueryExpression) -> Int {
        var deepest = 0
        var pending = [(expression, 1)]
        while let (next, level) = pending.popLast() {
            deepest = max(deepest, level)
            switch next {
            case .not(let operand): pending.append((operand, level + 1))
            case .and(let operands), .or(let operands): pending += operands.map { ($0, level + 1) }
            case .constant, .comparison, .operands: break
            }
        }
        return deepest
    }

    // MARK: Logic

    private func emit(_ expression: QueryExpression, in binding: TypeBinding, into builder: inout ProgramBuilder)
        throws
    {
        switch expression {
        case .constant(let value):
            builder.emit(.constant, flag: value)
        case .not(let operand):
            try emit(operand, in: binding, into: &builder)
            builder.emit(.not)
        case .and(let operands), .or(let operands):
            let isAnd: Bool
            if case .and = expression { isAnd = true } else { isAnd = false }
            guard !operands.isEmpty else {
                builder.emit(.constant, flag: isAnd)
                return
            }
            var jumps: [Int] = []
            for (position, operand) in operands.enumerated() {
                try emit(operand, in: binding, into: &builder)
                if position < operands.count - 1 { jumps.append(builder.emit(isAnd ? .jumpIfFalse : .jumpIfTrue)) }
            }
            for jump in jumps { builder.patchJump(at: jump) }
        case .operands(let comparison):
            try locating(comparison.position) {
                let evaluator = try OperandCompiler(catalog: catalog, root: binding).compile(comparison)
                builder.emitNested(.operands(evaluator, of: binding))
            }
        case .comparison(let comparison):
            try locating(comparison.position) { try emit(comparison, in: binding, into: &builder) }
        }
    }

    /// Runs `body`, adding `position` to the message of an invalid query it throws that names none.
    private func locating(_ position: Int?, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as ObjDBError where error.code == .invalidQuery && position != nil {
            let reason = error.details.first ?? error.message
            guard !reason.contains("(at position "), let position else { throw error }
            throw ObjDBError.invalidQuery(
                type: error.typeName ?? root.schema.name, reason: "\(reason) (at position \(position))")
        }
    }

    /// A comparison ``QueryNormalizer`` left as a field test: the compiled program reads its values
    /// in place (the normalizer raised the rest to the general form).
    private func emit(_ comparison: QueryComparison, in binding: TypeBinding, into builder: inout ProgramBuilder)
        throws
    {
        if comparison.quantifierWritten || comparison.quantifier != .any || comparison.aggregate != nil {
            // As in Realm ("The keypath following 'ANY' must contain a list"): `ANY age > 3` and
            // `ANY owner.name == 'x'` (through a to-one link) quantify one value.
            let path = comparison.path.joined(separator: ".")
            let needs = "needs a list, a set, a map or linking objects in the key path"
            guard paths.passesCollection(comparison.path[...], in: binding) else {
                let what = comparison.aggregate?.rawValue ?? comparison.quantifier.rawValue
                throw invalid("\(what) \(needs), but \(path) is one value")
            }
            if comparison.quantifierWritten, let aggregate = comparison.aggregate {
                let quantifier = comparison.quantifier.rawValue
                throw invalid("\(quantifier) \(needs), but \(path).\(aggregate.rawValue) is one value")
            }
        }
        try emit(comparison, path: comparison.path[...], in: binding, quantified: false, into: &builder)
    }

    private var paths: SchemaPaths { SchemaPaths(catalog: catalog) }

    // MARK: Paths

    /// A program of one comparison, for the records a nested test reaches.
    private func program(
        _ comparison: QueryComparison, path: ArraySlice<String>, in binding: TypeBinding, quantified: Bool
    ) throws -> FilterProgram {
        var builder = ProgramBuilder()
        try emit(comparison, path: path, in: binding, quantified: quantified, into: &builder)
        return builder.finish()
    }

    private func emit(
        _ comparison: QueryComparison, path: ArraySlice<String>, in binding: TypeBinding, quantified: Bool,
        into builder: inout ProgramBuilder
    ) throws {
        guard let name = path.first else { throw invalid("an empty key path") }
        guard let property = binding[name] else { throw invalid("\(binding.schema.name) has no property \(name)") }
        let rest = path.dropFirst()
        let schema = property.schema
        let slot = property.slot

        if schema.type == .linkingObjects {
            guard let originName = schema.objectType, let origin = catalog.bindings[originName],
                let originProperty = schema.originProperty.flatMap({ origin[$0] })
            else { throw invalid("\(name) has no origin") }
            if rest.isEmpty {
                guard comparison.aggregate == .count else {
                    throw invalid("\(name) holds objects; compare \(name).@count or a property of them")
                }
                let countTest = builder.addTest(try numberTest(comparison, into: &builder))
                builder.emitNested(
                    .linkingObjects(
                        of: binding, origin: origin, property: originProperty.schema.id, quantifier: .any,
                        program: nil, countTest: countTest))
                return
            }
            guard !quantified else { throw invalid("a key path may pass through one collection only") }
            let inner = try program(comparison, path: rest, in: origin, quantified: true)
            builder.emitNested(
                .linkingObjects(
                    of: binding, origin: origin, property: originProperty.schema.id,
                    quantifier: comparison.quantifier, program: inner, countTest: 0))
            return
        }

        if !rest.isEmpty {
            guard let target = paths.target(of: property) else {
                throw invalid("\(name) is not a link, so \(path.joined(separator: ".")) leads nowhere")
            }
            let isEmbedded = schema.type == .embedded
            if schema.collection == .single {
                let inner = try program(comparison, path: rest, in: target, quantified: quantified)
                let nilOutcome = try outcomeForNil(comparison, path: rest, in: target)
                builder.emitNested(
                    isEmbedded
                        ? .embedded(slot: slot, program: inner, nilOutcome: nilOutcome)
                        : .link(slot: slot, target: target, program: inner, nilOutcome: nilOutcome))
                return
            }
            guard schema.collection != .map else { throw invalid("maps can be queried by @count only") }
            guard !quantified else { throw invalid("a key path may pass through one collection only") }
            let inner = try program(comparison, path: rest, in: target, quantified: true)
            builder.emitNested(
                .objects(
                    slot: slot, schema: schema, target: isEmbedded ? nil : target, quantifier: comparison.quantifier,
                    program: inner))
            return
        }

        // The last property of the path.
        switch schema.collection {
        case .single:
            if let aggregate = comparison.aggregate {
                throw invalid("\(aggregate.rawValue) needs a collection, but \(name) holds one value")
            }
            if comparison.op == .text {
                builder.emitNested(try textSearchTest(comparison, for: schema, slot: slot))
                return
            }
            var comparison = comparison
            if comparison.op == .containsElement {
                // `'milk' IN items.name` is `ANY items.name == 'milk'`, as in Realm.
                guard quantified else {
                    throw invalid("\(comparison.value) IN \(name) needs a collection, but \(name) holds one value")
                }
                comparison.op = .equal
            }
            var test = try valueTest(comparison, for: schema, into: &builder)
            test.slot = slot
            builder.emitTest(test)
        case .list, .set:
            if comparison.op == .containsElement {
                let test = try valueTest(
                    QueryComparison(
                        path: comparison.path, op: .equal, value: comparison.value, options: comparison.options),
                    for: schema, into: &builder)
                // `NONE 7 IN luckyNumbers`: the quantifier ranges over the elements.
                builder.emitNested(
                    .elements(
                        slot: slot, schema: schema, quantifier: comparison.quantifier, test: builder.addTest(test)))
                return
            }
            if let aggregate = comparison.aggregate {
                if aggregate != .count, !schema.type.isNumeric {
                    throw invalid(
                        "\(aggregate.rawValue) needs a collection of numbers; \(schema.name) holds \(schema.type.rawValue)"
                    )
                }
                let test = try numberTest(comparison, into: &builder)
                builder.emitNested(
                    .aggregate(slot: slot, schema: schema, aggregate: aggregate, test: builder.addTest(test)))
                return
            }
            let test = try valueTest(comparison, for: schema, into: &builder)
            builder.emitNested(
                .elements(slot: slot, schema: schema, quantifier: comparison.quantifier, test: builder.addTest(test)))
        case .map:
            guard comparison.aggregate == .count else { throw invalid("maps can be queried by @count only") }
            let test = try numberTest(comparison, into: &builder)
            builder.emitNested(.mapCount(slot: slot, test: builder.addTest(test)))
        }
    }

    /// What a comparison through a `nil` to-one link gives: as if the final value were `nil`.
    private func outcomeForNil(_ comparison: QueryComparison, path: ArraySlice<String>, in binding: TypeBinding) throws
        -> Bool
    {
        guard let name = path.first, let property = binding[name] else { return false }
        let schema = property.schema
        let isCollection = schema.collection != .single || schema.type == .linkingObjects
        if path.count > 1, !isCollection, let target = paths.target(of: property) {
            return try outcomeForNil(comparison, path: path.dropFirst(), in: target)
        }
        var scratch = ProgramBuilder()
        if isCollection {
            if let aggregate = comparison.aggregate {
                // An empty collection: a count or sum of zero, no min, max or average.
                let test = try numberTest(comparison, into: &scratch)
                guard aggregate == .count || aggregate == .sum else { return test.nilOutcome }
                return test.matches(double: 0, scratch.finish().runner.constants)
            }
            return comparison.quantifier.outcomeWhenEmpty
        }
        return try valueTest(comparison, for: schema, into: &scratch).nilOutcome
    }

    func invalid(_ reason: String) -> ObjDBError {
        .invalidQuery(type: root.schema.name, reason: reason)
    }
}

extension PropertyType {
    /// Whether values of the type are numbers (`@sum`, `@min`, `@max`, `@avg` apply).
    var isNumeric: Bool {
        switch self {
        case .int, .int8, .int16, .int32, .int64, .float, .double, .decimal: return true
        default: return false
        }
    }
}
