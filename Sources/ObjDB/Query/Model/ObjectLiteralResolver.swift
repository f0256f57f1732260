/// Settles the link literals of a string predicate against the store when the query is made:
/// `obj('Type', key)` must name a type of the store, `O<n>` takes the type the link it is compared
/// with leads to, and a link to an object that does not exist is the null link, as realm-core's
/// `find_primary_key` makes it (so `owner == obj('Person', 'nobody')` is `owner == nil`).
struct ObjectLiteralResolver {
    let catalog: StoreCatalog
    let root: TypeBinding
    /// Whether the object of a type with this table key exists in the snapshot the query is made in.
    let exists: (TypeBinding, [UInt8]) throws -> Bool

    func resolve(_ expression: QueryExpression) throws -> QueryExpression {
        switch expression {
        case .constant: return expression
        case .not(let inner): return .not(try resolve(inner))
        case .and(let parts): return .and(try parts.map(resolve))
        case .or(let parts): return .or(try parts.map(resolve))
        case .comparison(var comparison):
            guard comparison.value.holdsLink else { return expression }
            comparison.value = try resolve(comparison.value, comparedWith: linkTarget(of: comparison.path))
            return .comparison(comparison)
        case .operands(var comparison):
            let leftTarget = linkTarget(of: comparison.left)
            let rightTarget = linkTarget(of: comparison.right)
            comparison.left = try resolve(comparison.left, comparedWith: rightTarget)
            comparison.right = try resolve(comparison.right, comparedWith: leftTarget)
            return .operands(comparison)
        }
    }

    private func resolve(_ operand: QueryOperand, comparedWith target: String?) throws -> QueryOperand {
        switch operand {
        case .value(let value):
            return value.holdsLink ? .value(try resolve(value, comparedWith: target)) : operand
        case .keyPath: return operand
        case .arithmetic(let op, let left, let right):
            return .arithmetic(op, try resolve(left, comparedWith: nil), try resolve(right, comparedWith: nil))
        case .subqueryCount(var subquery):
            guard let element = linkTarget(of: .keyPath(subquery.collection)).flatMap({ catalog.bindings[$0] }) else {
                return operand
            }
            subquery.predicate = try ObjectLiteralResolver(catalog: catalog, root: element, exists: exists)
                .resolve(subquery.predicate)
            return .subqueryCount(subquery)
        }
    }

    private func resolve(_ value: StoredValue, comparedWith target: String?) throws -> StoredValue {
        switch value {
        case .list(let values): return .list(try values.map { try resolve($0, comparedWith: target) })
        case .link(let written, let key):
            let name = written.isEmpty ? target : written
            guard let name else {
                throw invalid(
                    "\(ObjectKeyLiteral.text(key)) names an object by its key, so it must be compared with a link")
            }
            guard let binding = catalog.bindings[name], !binding.schema.isEmbedded else {
                throw invalid("\(value.literalText) names the type \(name), which the store does not have")
            }
            guard let objectKey = try self.key(key, of: binding, written: written) else { return .null }
            return try exists(binding, ObjectKeyCodec.encode(objectKey)) ? .link(type: name, key: objectKey) : .null
        default:
            return value
        }
    }

    /// The object key a literal names in `binding`'s table; `nil` when no object can have it.
    private func key(_ key: ObjectKey, of binding: TypeBinding, written: String) throws -> ObjectKey? {
        guard let primaryKey = binding.primaryKey?.schema.type else {
            guard case .internalID = key else {
                throw invalid(
                    "obj('\(binding.schema.name)', …) names an object by its primary key, and \(binding.schema.name) "
                        + "has none; name it by its internal ID, such as O1")
            }
            return key
        }
        switch (key, primaryKey) {
        case (.internalID(let number), _) where primaryKey.isInteger:
            return Int64(exactly: number).map(ObjectKey.int)
        case (.internalID, _):
            throw invalid(
                "\(ObjectKeyLiteral.text(key)) names an object by an integer key, and \(binding.schema.name) is keyed "
                    + "by its \(primaryKey.rawValue) primary key; use obj('\(binding.schema.name)', key)")
        case (.int, _) where primaryKey.isInteger: return key
        case (.string, .string), (.uuid, .uuid): return key
        default: return nil
        }
    }

    /// The type of the objects a key path of names leads to, when it ends at links.
    private func linkTarget(of path: [String]) -> String? {
        var current = root
        var last: PropertySchema?
        for name in path {
            guard let property = current[name] else { return nil }
            last = property.schema
            if let next = property.schema.objectType.flatMap({ catalog.bindings[$0] }) { current = next }
        }
        guard let last, last.type == .object || last.type == .linkingObjects else { return nil }
        return last.objectType
    }

    private func linkTarget(of operand: QueryOperand) -> String? {
        guard case .keyPath(let path) = operand else { return nil }
        var names: [String] = []
        for step in path.steps {
            switch step {
            case .name(let name): names.append(name)
            case .key, .index: continue
            case .element: return nil
            }
        }
        return linkTarget(of: names)
    }

    private func invalid(_ reason: String) -> ObjDBError {
        .invalidQuery(type: root.schema.name, reason: reason)
    }
}

/// How a link literal is written back in messages.
enum ObjectKeyLiteral {
    static func text(_ key: ObjectKey) -> String {
        switch key {
        case .internalID(let number): return "O\(number)"
        default: return key.description
        }
    }
}

extension StoredValue {
    /// Whether the value is a link, or a list holding one.
    fileprivate var holdsLink: Bool {
        switch self {
        case .link: return true
        case .list(let values): return values.contains { $0.holdsLink }
        default: return false
        }
    }

    fileprivate var literalText: String {
        guard case .link(let type, let key) = self else { return description }
        return type.isEmpty ? ObjectKeyLiteral.text(key) : "obj('\(type)', \(key))"
    }
}

extension ReadView {
    /// `expression` with its link literals settled in this view's snapshot.
    func resolvingObjectLiterals(_ expression: QueryExpression, for binding: TypeBinding) throws -> QueryExpression {
        try Self.resolvingObjectLiterals(expression, for: binding, in: snapshot)
    }

    static func resolvingObjectLiterals(_ expression: QueryExpression, for binding: TypeBinding, in snapshot: Snapshot)
        throws -> QueryExpression
    {
        try ObjectLiteralResolver(catalog: snapshot.catalog, root: binding) { target, key in
            try snapshot.record(in: target, key: key) != nil
        }.resolve(expression)
    }
}
