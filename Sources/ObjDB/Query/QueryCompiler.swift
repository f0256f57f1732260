import Foundation

/// Turns a ``QueryExpression`` into a ``RowMatcher`` over records of one type.
struct QueryCompiler {
    let source: RecordSource
    let root: TypeBinding

    private var catalog: StoreCatalog { source.catalog }
    private var codec: ValueCodec { ValueCodec(schema: catalog.schemaIndex) }

    /// The deepest expression compiled: compiling and matching recurse, and every front-end can nest
    /// (a string predicate up to ``PredicateParser/maximumDepth`` levels, each up to an OR, an AND and a NOT deep).
    static let maximumDepth = 4 * PredicateParser.maximumDepth

    func compile(_ expression: QueryExpression) throws -> RowMatcher {
        guard Self.depth(of: expression) <= Self.maximumDepth else {
            throw invalid("the query nests deeper than \(Self.maximumDepth) levels")
        }
        return try compile(expression, in: root)
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
            case .constant, .comparison: break
            }
        }
        return deepest
    }

    private func compile(_ expression: QueryExpression, in binding: TypeBinding) throws -> RowMatcher {
        switch expression {
        case .constant(let value):
            return { _ in value }
        case .not(let operand):
            let inner = try compile(operand, in: binding)
            return { !inner($0) }
        case .and(let operands):
            let inner = try operands.map { try compile($0, in: binding) }
            if inner.count == 2 {
                let first = inner[0]
                let second = inner[1]
                return { first($0) && second($0) }
            }
            return { row in inner.allSatisfy { $0(row) } }
        case .or(let operands):
            let inner = try operands.map { try compile($0, in: binding) }
            if inner.count == 2 {
                let first = inner[0]
                let second = inner[1]
                return { first($0) || second($0) }
            }
            return { row in inner.contains { $0(row) } }
        case .comparison(let comparison):
            if comparison.quantifier != .any || comparison.aggregate != nil {
                guard try pathHasCollection(comparison.path[...], in: binding) else {
                    let what = comparison.aggregate?.rawValue ?? comparison.quantifier.rawValue
                    throw invalid(
                        "\(what) needs a list, a set or linking objects in \(comparison.path.joined(separator: "."))")
                }
            }
            return try compile(comparison, path: comparison.path[...], in: binding, quantified: false)
        }
    }

    /// Whether the path passes through (or ends at) a list, a set, a map or linking objects.
    private func pathHasCollection(_ path: ArraySlice<String>, in binding: TypeBinding) throws -> Bool {
        guard let name = path.first, let property = binding[name] else { return false }
        if property.schema.collection != .single || property.schema.type == .linkingObjects { return true }
        guard path.count > 1, property.schema.type == .object, let target = property.schema.objectType,
            let targetBinding = catalog.bindings[target]
        else { return false }
        return try pathHasCollection(path.dropFirst(), in: targetBinding)
    }

    // MARK: Paths

    private func compile(
        _ comparison: QueryComparison, path: ArraySlice<String>, in binding: TypeBinding, quantified: Bool
    ) throws -> RowMatcher {
        guard let name = path.first else { throw invalid("an empty key path") }
        guard let property = binding[name] else {
            throw invalid("\(binding.schema.name) has no property \(name)")
        }
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
                let matcher = try numberMatcher(comparison)
                return { row in
                    let count = self.linkingKeys(of: row.key, in: binding, origin: originName, property: originProperty)
                        .count
                    return withUnsafeBytes(of: Double(count)) { matcher.matches($0) }
                }
            }
            guard !quantified else { throw invalid("a key path may pass through one collection only") }
            let inner = try compile(comparison, path: rest, in: origin, quantified: true)
            return { row in
                let keys = self.linkingKeys(of: row.key, in: binding, origin: originName, property: originProperty)
                return self.quantify(
                    comparison.quantifier,
                    keys.lazy.map { key in
                        key.withUnsafeBytes { keyBytes in
                            guard let reader = try? self.source.record(in: origin, key: key) else { return false }
                            return inner(QueryRow(reader: reader, key: keyBytes))
                        }
                    })
            }
        }

        if !rest.isEmpty {
            guard schema.type == .object, let targetName = schema.objectType, let target = catalog.bindings[targetName]
            else { throw invalid("\(name) is not a link, so \(path.joined(separator: ".")) leads nowhere") }
            if schema.collection == .single {
                let inner = try compile(comparison, path: rest, in: target, quantified: quantified)
                let nilOutcome = try outcomeForNil(comparison, path: rest, in: target)
                return { row in
                    guard case .bytes(let key) = row.reader.field(slot),
                        let reader = try? self.source.record(in: target, key: key)
                    else { return nilOutcome }
                    return inner(QueryRow(reader: reader, key: key))
                }
            }
            guard !quantified else { throw invalid("a key path may pass through one collection only") }
            let inner = try compile(comparison, path: rest, in: target, quantified: true)
            return { row in
                guard case .bytes(let field) = row.reader.field(slot) else {
                    return self.quantify(comparison.quantifier, [Bool]())
                }
                var outcomes: [Bool] = []
                self.codec.forEachElement(field, as: schema) { element in
                    guard let element, let reader = try? self.source.record(in: target, key: element) else {
                        return
                    }
                    outcomes.append(inner(QueryRow(reader: reader, key: element)))
                }
                return self.quantify(comparison.quantifier, outcomes)
            }
        }

        // The last property of the path.
        switch schema.collection {
        case .single:
            if comparison.aggregate != nil {
                throw invalid("\(comparison.aggregate!.rawValue) needs a collection, but \(name) holds one value")
            }
            if let fused = fusedMatcher(comparison, schema: schema, slot: slot) { return fused }
            let matcher = try valueMatcher(comparison, for: schema)
            let absent = absentOutcome(matcher, schema)
            return { row in
                switch row.reader.field(slot) {
                case .bytes(let bytes): return matcher.matches(bytes)
                case .null: return matcher.nilOutcome
                case .absent: return absent
                }
            }
        case .list, .set:
            if comparison.op == .containsElement {
                let matcher = try valueMatcher(
                    QueryComparison(
                        path: comparison.path, op: .equal, value: comparison.value, options: comparison.options),
                    for: schema)
                return { row in
                    guard case .bytes(let field) = row.reader.field(slot) else { return false }
                    var found = false
                    self.codec.forEachElement(field, as: schema) { element in
                        if !found { found = element.map(matcher.matches) ?? matcher.nilOutcome }
                    }
                    return found
                }
            }
            if let aggregate = comparison.aggregate {
                let reduce = try aggregator(aggregate, for: schema)
                let matcher = try numberMatcher(comparison)
                return { row in
                    let field: UnsafeRawBufferPointer?
                    if case .bytes(let bytes) = row.reader.field(slot) { field = bytes } else { field = nil }
                    guard let value = reduce(field) else { return matcher.nilOutcome }
                    return withUnsafeBytes(of: value) { matcher.matches($0) }
                }
            }
            let matcher = try valueMatcher(comparison, for: schema)
            return { row in
                guard case .bytes(let field) = row.reader.field(slot) else {
                    return self.quantify(comparison.quantifier, [Bool]())
                }
                var outcomes: [Bool] = []
                self.codec.forEachElement(field, as: schema) { element in
                    outcomes.append(element.map(matcher.matches) ?? matcher.nilOutcome)
                }
                return self.quantify(comparison.quantifier, outcomes)
            }
        case .map:
            guard comparison.aggregate == .count else { throw invalid("maps can be queried by @count only") }
            let matcher = try numberMatcher(comparison)
            return { row in
                var count = 0.0
                if case .bytes(let field) = row.reader.field(slot) { count = Double(ValueCodec.elementCount(field)) }
                return withUnsafeBytes(of: count) { matcher.matches($0) }
            }
        }
    }

    /// One closure for the commonest comparisons (an integer against an integer, a string
    /// equal to a string), reading the field and comparing in place.
    private func fusedMatcher(_ comparison: QueryComparison, schema: PropertySchema, slot: Int) -> RowMatcher? {
        guard comparison.aggregate == nil, comparison.options.isEmpty, !schema.isOptional else { return nil }
        switch (schema.type, comparison.value) {
        case (.int, .int(let constant)), (.int64, .int(let constant)):
            let absent = ordered(comparison.op, 0, constant)
            guard absent != nil else { return nil }
            let op = comparison.op
            return { row in
                guard case .bytes(let bytes) = row.reader.field(slot), let value = FieldDecoding.integer(bytes) else {
                    return absent!
                }
                return ordered(op, value, constant)!
            }
        case (.string, .string(let text)) where comparison.op == .equal || comparison.op == .notEqual:
            let constant = Array(text.utf8)
            let equal = comparison.op == .equal
            return { row in
                guard case .bytes(let bytes) = row.reader.field(slot) else { return constant.isEmpty == equal }
                guard bytes.count == constant.count else { return !equal }
                guard let address = bytes.baseAddress else { return equal }
                let same = constant.withUnsafeBytes { memcmp($0.baseAddress!, address, bytes.count) == 0 }
                return same == equal
            }
        default:
            return nil
        }
    }

    /// What a comparison through a `nil` to-one link gives: as if the final value were `nil`.
    private func outcomeForNil(_ comparison: QueryComparison, path: ArraySlice<String>, in binding: TypeBinding) throws
        -> Bool
    {
        // As if what lies beyond the nil link were nil: a nil value, or an empty collection.
        guard let name = path.first, let property = binding[name] else { return false }
        let schema = property.schema
        let isCollection = schema.collection != .single || schema.type == .linkingObjects
        if path.count > 1, !isCollection, schema.type == .object, let target = schema.objectType,
            let targetBinding = catalog.bindings[target]
        {
            return try outcomeForNil(comparison, path: path.dropFirst(), in: targetBinding)
        }
        if isCollection {
            if let aggregate = comparison.aggregate {
                // An empty collection: a count or sum of zero, no min, max or average.
                guard aggregate == .count || aggregate == .sum else { return try numberMatcher(comparison).nilOutcome }
                return withUnsafeBytes(of: 0.0) { (try? numberMatcher(comparison))?.matches($0) ?? false }
            }
            return quantify(comparison.quantifier, [Bool]())
        }
        return try valueMatcher(comparison, for: schema).nilOutcome
    }

    private func absentOutcome(_ matcher: ValueMatcher, _ schema: PropertySchema) -> Bool {
        if schema.isOptional || schema.type == .object { return matcher.nilOutcome }
        var writer = RecordWriter(slotCount: 1)
        try? codec.encodeField(
            codec.zeroValue(of: schema), of: PropertySchema(id: 0, name: "", type: schema.type), in: "", into: &writer)
        let record = writer.finish()
        return record.withUnsafeBytes { bytes in
            guard let reader = RecordReader(validating: bytes), case .bytes(let field) = reader.field(0) else {
                return false
            }
            return matcher.matches(field)
        }
    }

    private func quantify<Outcomes: Sequence>(_ quantifier: QueryQuantifier, _ outcomes: Outcomes) -> Bool
    where Outcomes.Element == Bool {
        switch quantifier {
        case .any: return outcomes.contains(true)
        case .all: return outcomes.allSatisfy { $0 }
        case .none: return !outcomes.contains(true)
        }
    }

    private func linkingKeys(
        of key: UnsafeRawBufferPointer, in binding: TypeBinding, origin: String, property: BoundProperty
    )
        -> [[UInt8]]
    {
        let sources = (try? source.incomingLinks(to: key, in: binding)) ?? []
        guard let originBinding = catalog.bindings[origin] else { return [] }
        return sources.filter { source in
            source.typeName == origin && source.propertyID == property.schema.id
                && ((try? self.source.record(in: originBinding, key: source.key)) ?? nil) != nil
        }.map(\.key)
    }

    func invalid(_ reason: String) -> ObjDBError {
        .invalidQuery(type: root.schema.name, reason: reason)
    }
}

/// `lhs op rhs` for the ordered operators; `nil` for others.
@inline(__always)
private func ordered(_ op: QueryOperator, _ lhs: Int64, _ rhs: Int64) -> Bool? {
    switch op {
    case .equal: return lhs == rhs
    case .notEqual: return lhs != rhs
    case .less: return lhs < rhs
    case .lessOrEqual: return lhs <= rhs
    case .greater: return lhs > rhs
    case .greaterOrEqual: return lhs >= rhs
    default: return nil
    }
}
