import Foundation

/// Resolves an ``OperandComparison`` against the schema into an ``OperandEvaluator``: every
/// name becomes a property, an aggregate, a map access or a length, and every operand gets a
/// kind, so a comparison Realm rejects (`@sum` of strings, arithmetic on strings, a string
/// compared with a number, `SUBQUERY` over one object) fails here, naming the problem and its
/// position in the predicate.
struct OperandCompiler {
    let catalog: StoreCatalog
    let root: TypeBinding

    func compile(_ comparison: OperandComparison) throws -> OperandEvaluator {
        let left = try operand(comparison.left, at: comparison.position)
        let right = try operand(comparison.right, at: comparison.position)
        var op = comparison.op
        var rightQuantifier = comparison.rightQuantifier
        var leftQuantifier = comparison.leftQuantifier
        for (quantifier, side) in [(leftQuantifier, left), (rightQuantifier, right)] where quantifier != nil {
            guard side.isList else {
                throw invalid(
                    "\(quantifier!.rawValue) needs a list, a set, a map or linking objects, but \(side.label) is one value",
                    at: side.position)
            }
        }
        switch op {
        case .text:
            throw invalid(
                "TEXT compares one String property with the words to search for, as in text TEXT 'swift -objc'",
                at: comparison.position)
        case .in:
            // `a IN b` is `a == ANY b`.
            guard right.isList else {
                throw invalid(
                    "IN needs a list or a collection on its right, but \(right.label) is one value", at: right.position)
            }
            op = .equal
            // Two lists without a quantifier compare element by element, as `==` does: realm-core
            // compiles `IN` to `Compare<Equal>`, so `{4.5, 6.0} IN beers.abv` needs those two, in order.
            if rightQuantifier == nil, !(left.isList && leftQuantifier == nil) { rightQuantifier = .any }
        case .containsElement:
            // `b CONTAINS ELEMENT a`, as QueryComparison spells `a IN b`.
            op = .equal
            swap(&leftQuantifier, &rightQuantifier)
        case .between:
            guard case .constantList(let ends) = right.node, ends.count == 2 else {
                throw invalid("BETWEEN needs a list of two values, such as {1, 10}", at: right.position)
            }
        default:
            break
        }
        try check(left, op, right, options: comparison.options)
        return OperandEvaluator(
            left: left, leftQuantifier: leftQuantifier, op: op, options: comparison.options, right: right,
            rightQuantifier: rightQuantifier, schema: catalog.schemaIndex)
    }

    // MARK: Operands

    private func operand(_ operand: QueryOperand, at position: Int?) throws -> CompiledOperand {
        switch operand {
        case .value(.list(let values)):
            let kinds = Set(values.map(OperandKind.init(constant:)))
            return CompiledOperand(
                node: .constantList(values.map(OperandItem.init(constant:))),
                kind: kinds.count == 1 ? kinds.first! : (values.isEmpty ? .null : .mixed(kinds)),
                isList: true, label: operand.text, position: position)
        case .value(let value):
            return CompiledOperand(
                node: .constant(OperandItem(constant: value)), kind: OperandKind(constant: value), isList: false,
                label: operand.text, position: position)
        case .keyPath(let path):
            return try keyPath(path, from: root, at: path.position ?? position)
        case .arithmetic(let op, let left, let right):
            let left = try self.operand(left, at: position)
            let right = try self.operand(right, at: position)
            for side in [left, right] where side.kind != .number && side.kind != .null {
                throw invalid(
                    "arithmetic (\(op.rawValue)) needs numbers, but \(side.label) is \(side.kind.name)",
                    at: side.position)
            }
            return CompiledOperand(
                node: .arithmetic(op, left.node, right.node), kind: .number, isList: left.isList || right.isList,
                label: operand.text, position: left.position)
        case .subqueryCount(let subquery):
            let at = subquery.collection.position ?? position
            let collection = try keyPath(subquery.collection, from: root, at: at)
            let text = subquery.collection.text
            guard collection.isList else {
                throw invalid(
                    "SUBQUERY needs a list, a set or linking objects of objects, but \(text) is \(collection.kind.name)",
                    at: at)
            }
            guard case .link(let typeName) = collection.kind, let target = catalog.bindings[typeName] else {
                // Realm: "A subquery can not operate on a list of primitive values".
                throw invalid(
                    "a SUBQUERY cannot operate on a collection of plain values, as in Realm, and \(text) holds "
                        + "\(collection.kind.name) each; compare the values themselves, such as ANY \(text) == x "
                        + "or \(text).@count",
                    at: at)
            }
            let predicate = try QueryNormalizer(catalog: catalog, root: target).normalize(subquery.predicate)
            let program = try FilterCompiler(catalog: catalog, root: target).compile(predicate)
            guard case .path(let steps) = collection.node else { throw invalid("SUBQUERY needs a key path", at: at) }
            return CompiledOperand(
                node: .subqueryCount(steps, target, program), kind: .number, isList: false, label: operand.text,
                position: at)
        }
    }

    /// Where a key path's walk stands: on objects of a type, on values of a property, on a map
    /// whose access the next step says, or on a number an aggregate made.
    private enum PathPosition {
        case objects(TypeBinding, embedded: Bool)
        case values(PropertySchema)
        case map(BoundProperty, target: TypeBinding?)
        case number(PropertyType)
    }

    private func keyPath(_ path: QueryKeyPath, from start: TypeBinding, at position: Int?) throws -> CompiledOperand {
        var cursor = PathPosition.objects(start, embedded: false)
        var isList = false
        var steps: [OperandStep] = []
        /// `items.@sum.price`: the aggregate waits for the property it aggregates.
        var pendingAggregate: QueryAggregate?
        /// Whether the last step reached a list, a set or linking objects of each item, which an
        /// `[index]` then picks from (each item's own, as Realm indexes `items.allergens[0]`).
        var afterCollection = false
        /// Whether the items were already many before that collection (so an index keeps a list).
        var listBeforeCollection = false
        func enterCollection() {
            listBeforeCollection = isList
            isList = true
            afterCollection = true
        }
        /// Whether the last step read a collection of values (a list or set of them, or a map's), and
        /// whether the items were many before it: an aggregate of such values is worked out for each
        /// collection, as realm-core's `CollectionColumnAggregate` and `ColumnListSize` do.
        var valuesFromCollection = false
        var listBeforeValues = false
        var index = 0
        let label = path.text

        func finishMap(_ access: MapAccess) {
            guard case .map(let property, let target) = cursor else { return }
            steps.append(.map(slot: property.slot, schema: property.schema, target: target, access: access))
            listBeforeValues = isList
            valuesFromCollection = false
            switch access {
            case .key: break
            case .keys, .values:
                isList = true
                valuesFromCollection = target == nil || access == .keys
            }
            switch access {
            case .keys: cursor = .values(PropertySchema(id: 0, name: property.schema.name, type: .string))
            default:
                cursor =
                    target.map { .objects($0, embedded: property.schema.type == .embedded) } ?? .values(property.schema)
            }
        }

        func aggregate(_ kind: QueryAggregate) throws {
            guard isList else {
                throw invalid(
                    "\(kind.rawValue) needs a list, a set, a map or linking objects in \(label)", at: position)
            }
            switch cursor {
            case .values(let schema):
                let type = schema.type
                if kind != .count {
                    let allowed = type.isNumeric || ((kind == .min || kind == .max) && type == .date)
                    guard allowed else {
                        throw invalid(
                            "\(kind.rawValue) needs numbers\(kind == .min || kind == .max ? " or dates" : ""), but \(label) holds \(type.rawValue)",
                            at: position)
                    }
                }
                cursor = .number(kind == .count ? .int : (kind == .average ? .double : type))
                if valuesFromCollection {
                    // `photos.ratings.@count`: one count per photo, compared as ANY when there are several.
                    steps.append(.collectionAggregate(kind))
                    isList = listBeforeValues
                    valuesFromCollection = false
                    return
                }
                steps.append(.aggregate(kind))
            case .objects:
                guard kind == .count else {
                    throw invalid(
                        "\(kind.rawValue) of objects needs a property to aggregate, such as \(label).\(kind.rawValue).price",
                        at: position)
                }
                steps.append(.aggregate(.count))
                cursor = .number(.int)
            case .map, .number:
                throw invalid("\(kind.rawValue) does not apply in \(label)", at: position)
            }
            isList = false
        }

        while index < path.steps.count {
            let step = path.steps[index]
            index += 1
            let followsCollection = afterCollection
            afterCollection = false
            if case .map = cursor {
                switch step {
                case .key(let key):
                    finishMap(.key(key))
                    continue
                case .index, .element:
                    throw invalid("a map is subscripted by a key, such as map['key'], in \(label)", at: position)
                case .name(let name):
                    switch name.lowercased() {
                    case "@keys": finishMap(.keys)
                    case "@values": finishMap(.values)
                    case "@count", "@size":
                        finishMap(.values)
                        try aggregate(.count)
                    case "@sum", "@min", "@max", "@avg":
                        finishMap(.values)
                        try aggregate(QueryAggregate(rawValue: name.lowercased())!)
                    default:
                        finishMap(.key(name))
                    }
                    continue
                }
            }
            switch step {
            case .element:
                // A SUBQUERY's variable alone: the element the walk starts from.
                guard index == 1 else { throw invalid("\(label) leads nowhere", at: position) }
                continue
            case .key(let key):
                throw invalid("['\(key)'] subscripts a map, and \(label) has none there", at: position)
            case .index(let listIndex):
                guard isList else {
                    throw invalid("[\(listIndex.text)] needs a list, but \(label) has one value there", at: position)
                }
                if case .all = listIndex {
                    // `[*]`: every element, as the path already reaches them.
                    afterCollection = followsCollection
                    continue
                }
                guard followsCollection else {
                    throw invalid(
                        "[\(listIndex.text)] picks from a list, so it follows one (items[0], items.allergens[0]), "
                            + "but in \(label) it follows one value of each element, as Realm does not allow",
                        at: position)
                }
                steps.append(.index(listIndex))
                valuesFromCollection = false
                isList = listBeforeCollection
                if case .size = listIndex { cursor = .number(.int) }
                continue
            case .name(let name):
                let lowered = name.lowercased()
                switch cursor {
                case .number:
                    throw invalid("\(label) has nothing after an aggregate or a count", at: position)
                case .values(let schema):
                    switch lowered {
                    case "@count", "@size", "length":
                        if isList, lowered != "length" {
                            try aggregate(.count)
                        } else {
                            guard schema.type == .string || schema.type == .data else {
                                throw invalid(
                                    "\(name) needs a string, binary data or a collection, but \(label) holds \(schema.type.rawValue)",
                                    at: position)
                            }
                            // A nil string in a list has length 0 (realm-core's ColumnListElementLength); one
                            // optional string's length is nil when it is.
                            steps.append(valuesFromCollection ? .elementLength : .length)
                            valuesFromCollection = false
                            cursor = .number(.int)
                        }
                    case "@sum", "@min", "@max", "@avg":
                        try aggregate(QueryAggregate(rawValue: lowered)!)
                    default:
                        throw invalid(
                            "\(schema.name) holds \(schema.type.rawValue), so \(label) leads nowhere", at: position)
                    }
                case .objects(let binding, let embedded):
                    switch lowered {
                    case "@count", "@size":
                        try aggregate(.count)
                        continue
                    case "@sum", "@min", "@max", "@avg":
                        guard isList else {
                            throw invalid("\(name) needs a collection in \(label)", at: position)
                        }
                        guard index < path.steps.count else {
                            throw invalid(
                                "\(name) of objects needs a property to aggregate, such as \(label).price", at: position
                            )
                        }
                        pendingAggregate = QueryAggregate(rawValue: lowered)!
                        continue
                    case "@links":
                        guard !embedded else { throw invalid("embedded objects have no links to them", at: position) }
                        let (backlinks, consumed) = try self.backlinks(
                            after: index, in: path, to: binding, at: position)
                        index += consumed
                        steps.append(backlinks.step)
                        if let origin = backlinks.origin {
                            cursor = .objects(origin, embedded: false)
                            enterCollection()
                        } else {
                            cursor = .number(.int)
                            isList = false
                        }
                        continue
                    default:
                        break
                    }
                    guard let property = binding[name] else {
                        throw invalid("\(binding.schema.name) has no property \(name) (in \(label))", at: position)
                    }
                    let schema = property.schema
                    if schema.type == .linkingObjects {
                        guard let originName = schema.objectType, let origin = catalog.bindings[originName],
                            let originProperty = schema.originProperty.flatMap({ origin[$0] })
                        else { throw invalid("\(name) has no origin", at: position) }
                        steps.append(.backlinks(origin: origin, propertyID: originProperty.schema.id))
                        cursor = .objects(origin, embedded: false)
                        enterCollection()
                        continue
                    }
                    let target = schema.objectType.flatMap { catalog.bindings[$0] }
                    switch schema.collection {
                    case .map:
                        cursor = .map(property, target: target)
                    case .list, .set:
                        steps.append(.property(slot: property.slot, schema: schema, target: target))
                        enterCollection()
                        valuesFromCollection = target == nil
                        listBeforeValues = listBeforeCollection
                        cursor = target.map { .objects($0, embedded: schema.type == .embedded) } ?? .values(schema)
                    case .single:
                        steps.append(.property(slot: property.slot, schema: schema, target: target))
                        valuesFromCollection = false
                        cursor = target.map { .objects($0, embedded: schema.type == .embedded) } ?? .values(schema)
                    }
                case .map:
                    break  // handled above
                }
            }
        }
        if case .map = cursor { finishMap(.values) }
        if let pendingAggregate { try aggregate(pendingAggregate) }
        let kind: OperandKind
        switch cursor {
        case .objects(let binding, let embedded): kind = embedded ? .embedded : .link(binding.schema.name)
        case .values(let schema): kind = OperandKind(schema.type)
        case .number(let type): kind = OperandKind(type)
        case .map: kind = .null
        }
        return CompiledOperand(node: .path(steps), kind: kind, isList: isList, label: label, position: position)
    }

    /// `@links.@count` or `@links.Type.property`, after `@links` at `index`: the step and how many
    /// names it consumed.
    private func backlinks(after index: Int, in path: QueryKeyPath, to binding: TypeBinding, at position: Int?) throws
        -> (step: (step: OperandStep, origin: TypeBinding?), consumed: Int)
    {
        func name(_ offset: Int) -> String? {
            guard index + offset < path.steps.count, case .name(let name) = path.steps[index + offset] else {
                return nil
            }
            return name
        }
        if let count = name(0), ["@count", "@size"].contains(count.lowercased()) {
            return ((.allBacklinksCount, nil), 1)
        }
        guard let typeName = name(0), let propertyName = name(1) else {
            throw invalid(
                "@links is followed by .@count or by a type and its property, such as @links.Tweet.user", at: position)
        }
        guard let origin = catalog.bindings[typeName] else {
            throw invalid("@links.\(typeName): there is no type \(typeName)", at: position)
        }
        guard let property = origin[propertyName], property.schema.type == .object,
            property.schema.objectType == binding.schema.name
        else {
            throw invalid(
                "@links.\(typeName).\(propertyName): \(typeName).\(propertyName) is not a link to \(binding.schema.name)",
                at: position)
        }
        return ((.backlinks(origin: origin, propertyID: property.schema.id), origin), 2)
    }

    // MARK: Checks

    private func check(
        _ left: CompiledOperand, _ op: QueryOperator, _ right: CompiledOperand, options: QueryStringOptions
    )
        throws
    {
        let pair = "\(left.label) (\(left.kind.name)) and \(right.label) (\(right.kind.name))"
        if !options.isEmpty {
            // As in Realm, `[c]` also reads binary data as text.
            for side in [left, right]
            where side.kind != .string && side.kind != .null && !side.kind.isMixed
                && !(side.kind == .data && options == .caseInsensitive)
            {
                throw invalid("[c] and [d] compare strings, but \(side.label) is \(side.kind.name)", at: side.position)
            }
        }
        switch op {
        case .beginsWith, .endsWith, .contains, .like:
            for side in [left, right] {
                switch side.kind {
                case .string, .null, .mixed: continue
                case .data: continue
                default:
                    throw invalid(
                        "\(op.spelling) compares strings, but \(side.label) is \(side.kind.name)", at: side.position)
                }
            }
            guard left.kind.isComparable(with: right.kind) else {
                throw invalid("\(op.spelling) cannot compare \(pair)", at: left.position)
            }
        case .less, .lessOrEqual, .greater, .greaterOrEqual, .between:
            for side in [left, right] where !side.kind.isOrdered {
                throw invalid(
                    "\(op.spelling) needs values with an order, but \(side.label) is \(side.kind.name)",
                    at: side.position)
            }
            guard left.kind.isComparable(with: right.kind) else {
                throw invalid("cannot compare \(pair)", at: left.position)
            }
        default:
            guard left.kind.isComparable(with: right.kind) else {
                throw invalid("cannot compare \(pair)", at: left.position)
            }
        }
    }

    private func invalid(_ reason: String, at position: Int?) -> ObjDBError {
        .invalidQuery(type: root.schema.name, reason: position.map { "\(reason) (at position \($0))" } ?? reason)
    }
}

/// What kind of value an operand yields, for the checks Realm makes before a query runs.
enum OperandKind: Hashable {
    case number, string, data, bool, date, uuid
    case link(String)
    case embedded
    case null
    /// A constant list of several kinds.
    case mixed(Set<OperandKind>)

    init(_ type: PropertyType) {
        switch type {
        case .int, .int8, .int16, .int32, .int64, .float, .double, .decimal: self = .number
        case .string: self = .string
        case .data: self = .data
        case .bool: self = .bool
        case .date: self = .date
        case .uuid: self = .uuid
        case .object, .linkingObjects: self = .link("")
        case .embedded: self = .embedded
        }
    }

    init(constant: StoredValue) {
        switch constant {
        case .null: self = .null
        case .bool: self = .bool
        case .int, .float, .double, .decimal: self = .number
        case .string: self = .string
        case .data: self = .data
        case .date: self = .date
        case .uuid: self = .uuid
        case .link(let type, _): self = .link(type)
        case .embedded: self = .embedded
        case .list(let values): self = .mixed(Set(values.map(OperandKind.init(constant:))))
        case .map: self = .mixed([])
        }
    }

    var isMixed: Bool {
        if case .mixed = self { return true }
        return false
    }

    var name: String {
        switch self {
        case .number: return "a number"
        case .string: return "a string"
        case .data: return "binary data"
        case .bool: return "a bool"
        case .date: return "a date"
        case .uuid: return "a UUID"
        case .link(let type): return type.isEmpty ? "an object" : "a \(type)"
        case .embedded: return "an embedded object"
        case .null: return "nil"
        case .mixed: return "a list of values"
        }
    }

    var isOrdered: Bool {
        switch self {
        case .number, .string, .data, .date, .uuid, .null: return true
        case .mixed(let kinds): return kinds.allSatisfy(\.isOrdered)
        default: return false
        }
    }

    func isComparable(with other: OperandKind) -> Bool {
        switch (self, other) {
        case (.null, _), (_, .null): return true
        case (.mixed(let kinds), _): return kinds.allSatisfy { $0.isComparable(with: other) }
        case (_, .mixed(let kinds)): return kinds.allSatisfy { isComparable(with: $0) }
        case (.link(let a), .link(let b)): return a.isEmpty || b.isEmpty || a == b
        case (.embedded, .embedded): return false
        // Realm compares a string with binary data as its UTF-8 bytes.
        case (.string, .data), (.data, .string): return true
        default: return self == other
        }
    }
}
