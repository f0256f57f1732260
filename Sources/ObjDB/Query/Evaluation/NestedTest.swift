import Foundation

/// A test that reaches past the record's own scalar fields: through a to-one link or an embedded
/// object, over the elements of a collection, over linking objects, or of an aggregate.
///
/// Nested programs are compiled for the type they reach, and their tests read that type's
/// records in place; only the walk itself (following a key, reading linking objects) costs more
/// than a field read.
enum NestedTest {
    /// Through a to-one link: the linked object's record, or `nilOutcome` without one.
    case link(slot: Int, target: TypeBinding, program: FilterProgram, nilOutcome: Bool)
    /// Through an embedded object, whose record is the field itself.
    case embedded(slot: Int, program: FilterProgram, nilOutcome: Bool)
    /// Over a list or set of links (or embedded objects, `target == nil`), quantified.
    case objects(
        slot: Int, schema: PropertySchema, target: TypeBinding?, quantifier: QueryQuantifier, program: FilterProgram)
    /// Over a list or set of values, each tested by `test`, quantified.
    case elements(slot: Int, schema: PropertySchema, quantifier: QueryQuantifier, test: Int)
    /// An aggregate of a list or set of values (or its count), tested by `test` as a `Double`;
    /// `nil` (an empty `@min`, `@max` or `@avg`) gives the test's `nilOutcome`.
    case aggregate(slot: Int, schema: PropertySchema, aggregate: QueryAggregate, test: Int)
    /// The number of entries of a map, tested as a `Double`.
    case mapCount(slot: Int, test: Int)
    /// Over the objects of `origin` whose `property` links here, quantified; with no program, their count
    /// is tested by `countTest`.
    case linkingObjects(
        of: TypeBinding, origin: TypeBinding, property: UInt16, quantifier: QueryQuantifier, program: FilterProgram?,
        countTest: Int)
    /// A comparison of two operands (key paths, aggregates, arithmetic, subqueries), run by its evaluator
    /// on the object of `binding`'s type.
    case operands(OperandEvaluator, of: TypeBinding)
    /// A full-text search of a string field (`TEXT`), tokenized as the index tokenizes it.
    case textSearch(slot: Int, search: TextSearch, isOptional: Bool)

    func matches(
        _ reader: RecordReader, key: UnsafeRawBufferPointer, in source: QueryReader, program: FilterProgram.Runner
    )
        throws -> Bool
    {
        switch self {
        case .operands(let evaluator, let binding):
            return try evaluator.matches(reader, key: key, of: binding, in: source)

        case .textSearch(let slot, let search, let isOptional):
            switch reader.field(slot) {
            case .bytes(let text): return search.matches(text)
            case .null: return false
            case .absent: return !isOptional && search.matches(UnsafeRawBufferPointer(start: nil, count: 0))
            }

        case .link(let slot, let target, let nested, let nilOutcome):
            guard case .bytes(let linkKey) = reader.field(slot),
                let linked = try source.record(in: target, key: linkKey)
            else { return nilOutcome }
            return try nested.matches(linked, key: linkKey, in: source)

        case .embedded(let slot, let nested, let nilOutcome):
            guard case .bytes(let bytes) = reader.field(slot) else { return nilOutcome }
            return try nested.matches(try Self.embeddedRecord(bytes, source), key: key, in: source)

        case .objects(let slot, let schema, let target, let quantifier, let nested):
            guard case .bytes(let field) = reader.field(slot) else { return quantifier.outcomeWhenEmpty }
            var tally = QuantifierTally(quantifier)
            var failure: (any Error)?
            ValueCodec(schema: source.catalog.schemaIndex).forEachElement(field, as: schema) { element in
                guard failure == nil, !tally.isDecided, let element else { return }
                do {
                    if let target {
                        guard let linked = try source.record(in: target, key: element) else { return }
                        tally.add(try nested.matches(linked, key: element, in: source))
                    } else {
                        tally.add(try nested.matches(try Self.embeddedRecord(element, source), key: key, in: source))
                    }
                } catch {
                    failure = error
                }
            }
            if let failure { throw failure }
            return tally.outcome

        case .elements(let slot, let schema, let quantifier, let testIndex):
            guard case .bytes(let field) = reader.field(slot) else { return quantifier.outcomeWhenEmpty }
            let test = program.test(testIndex)
            var tally = QuantifierTally(quantifier)
            ValueCodec(schema: source.catalog.schemaIndex).forEachElement(field, as: schema) { element in
                guard !tally.isDecided else { return }
                tally.add(element.map { test.matches($0, program.constants) } ?? test.nilOutcome)
            }
            return tally.outcome

        case .aggregate(let slot, let schema, let aggregate, let testIndex):
            let test = program.test(testIndex)
            var field: UnsafeRawBufferPointer?
            if case .bytes(let bytes) = reader.field(slot) { field = bytes }
            guard let value = Self.reduce(field, schema, aggregate, source) else { return test.nilOutcome }
            return test.matches(double: value, program.constants)

        case .mapCount(let slot, let testIndex):
            var count = 0
            if case .bytes(let field) = reader.field(slot) { count = FieldReads.elementCount(field) }
            return program.test(testIndex).matches(double: Double(count), program.constants)

        case .linkingObjects(let linked, let origin, let property, let quantifier, let nested, let countTest):
            var tally = QuantifierTally(nested == nil ? .any : quantifier)
            var count = 0
            for link in try source.incomingLinks(to: key, in: linked)
            where link.typeName == origin.schema.name && link.propertyID == property {
                guard let linking = try link.key.withUnsafeBytes({ try source.record(in: origin, key: $0) }) else {
                    continue
                }
                // A list holding this object twice links to it twice, as Realm counts.
                count +=
                    nested == nil
                    ? Self.occurrences(of: key, in: linking, property: property, origin: origin, source) : 1
                if let nested {
                    try link.key.withUnsafeBytes { tally.add(try nested.matches(linking, key: $0, in: source)) }
                    if tally.isDecided { return tally.outcome }
                }
            }
            if nested != nil { return tally.outcome }
            return program.test(countTest).matches(double: Double(count), program.constants)
        }
    }

    /// How many times the `origin` record links to `key` through `property`: a list may hold it twice.
    private static func occurrences(
        of key: UnsafeRawBufferPointer, in record: RecordReader, property: UInt16, origin: TypeBinding,
        _ source: QueryReader
    ) -> Int {
        guard let linking = origin.properties.first(where: { $0.schema.id == property }),
            linking.schema.collection == .list, case .bytes(let bytes) = record.field(linking.slot)
        else { return 1 }
        var count = 0
        ValueCodec(schema: source.catalog.schemaIndex).forEachElement(bytes, as: linking.schema) { element in
            if let element, element.elementsEqual(key) { count += 1 }
        }
        return max(count, 1)
    }

    /// The record of an embedded object stored in `bytes`.
    private static func embeddedRecord(_ bytes: UnsafeRawBufferPointer, _ source: QueryReader) throws -> RecordReader {
        if let reader = RecordReader(header: bytes) { return reader }
        return try source.damaged("embedded object")
    }

    /// Count, sum, min, max or average of a collection field of numbers; `nil` for an empty min, max or average.
    private static func reduce(
        _ field: UnsafeRawBufferPointer?, _ schema: PropertySchema, _ aggregate: QueryAggregate, _ source: QueryReader
    ) -> Double? {
        if aggregate == .count { return Double(field.map(FieldReads.elementCount) ?? 0) }
        guard let field else { return aggregate == .sum ? 0 : nil }
        var count = 0
        var sum = 0.0
        var minimum = 0.0
        var maximum = 0.0
        let codec = ValueCodec(schema: source.catalog.schemaIndex)
        codec.forEachElement(field, as: schema) { element in
            guard let element, let value = codec.decodeValue(element, as: schema) else { return }
            let number: Double
            switch value {
            case .int(let integer): number = Double(integer)
            case .float(let float): number = Double(float)
            case .double(let double): number = double
            case .decimal(let decimal): number = NSDecimalNumber(decimal: decimal).doubleValue
            default: return
            }
            // As `Sequence.min()` and `max()` order them (a NaN met first stays).
            if count == 0 || number < minimum { minimum = number }
            if count == 0 || number > maximum { maximum = number }
            count += 1
            sum += number
        }
        switch aggregate {
        case .sum: return sum
        case .min: return count == 0 ? nil : minimum
        case .max: return count == 0 ? nil : maximum
        case .average: return count == 0 ? nil : sum / Double(count)
        case .count: return Double(count)
        }
    }
}

extension QueryQuantifier {
    /// The answer over no elements: `ANY` is false, `ALL` and `NONE` are true.
    var outcomeWhenEmpty: Bool { self != .any }
}

/// The running answer of `ANY`, `ALL` or `NONE` over elements, decided as early as it can be.
struct QuantifierTally {
    let quantifier: QueryQuantifier
    private(set) var outcome: Bool
    private(set) var isDecided = false

    init(_ quantifier: QueryQuantifier) {
        self.quantifier = quantifier
        self.outcome = quantifier.outcomeWhenEmpty
    }

    mutating func add(_ matched: Bool) {
        switch quantifier {
        case .any where matched: (outcome, isDecided) = (true, true)
        case .all where !matched: (outcome, isDecided) = (false, true)
        case .none where matched: (outcome, isDecided) = (false, true)
        default: break
        }
    }
}
