/// Delete rules (``DeleteRule``): deleting an object whose links cascade deletes what they lead to,
/// in the same write; a link that denies stops the delete before anything is deleted.
extension WriteScope {
    /// An object of a type, by its type's name and table key.
    struct DeletedObject: Hashable {
        let type: String
        let key: [UInt8]
    }

    /// Deletes the object `key` of `binding`'s type and every object its cascading links reach, in
    /// the order they are reached, each once (a cycle ends where it began). First every object to
    /// delete is found and every denying link checked: a deny throws with nothing deleted.
    func deleteFollowingRules(key: [UInt8], in binding: TypeBinding, record known: RecordReader?) throws {
        var plan: [(TypeBinding, [UInt8])] = [(binding, key)]
        var planned: Set<DeletedObject> = [DeletedObject(type: binding.schema.name, key: key)]
        var denials: [(origin: TypeBinding, property: BoundProperty, target: TypeBinding, key: [UInt8])] = []
        let codec = ValueCodec(schema: catalog.schemaIndex)
        var next = 0
        while next < plan.count {
            let (current, currentKey) = plan[next]
            next += 1
            guard !current.ruledLinks.isEmpty else { continue }
            guard let reader = try (next == 1 ? known : nil) ?? record(in: current, key: currentKey) else { continue }
            for property in current.ruledLinks {
                guard let target = property.schema.objectType.flatMap({ catalog.bindings[$0] }) else { continue }
                let linked = Self.linkedKeys(codec.decodeField(reader.field(property.slot), of: property.schema))
                for targetKey in linked {
                    switch property.schema.deleteRule ?? .nullify {
                    case .cascade:
                        let object = DeletedObject(type: target.schema.name, key: targetKey)
                        guard !planned.contains(object), try record(in: target, key: targetKey) != nil else { continue }
                        planned.insert(object)
                        plan.append((target, targetKey))
                    case .deny:
                        denials.append((current, property, target, targetKey))
                    case .nullify:
                        break
                    }
                }
            }
        }
        for denial in denials
        where !planned.contains(DeletedObject(type: denial.target.schema.name, key: denial.key)) {
            guard try record(in: denial.target, key: denial.key) != nil else { continue }
            throw ObjDBError.deleteDenied(
                type: denial.origin.schema.name, property: denial.property.schema.name,
                linkedType: denial.target.schema.name)
        }
        for (position, (target, targetKey)) in plan.enumerated() {
            // Deleting one object rewrites the records linking to it: each is read again here.
            if position > 0, try record(in: target, key: targetKey) == nil { continue }
            try delete(key: targetKey, in: target, record: position == 0 ? known : nil, followingRules: false)
            if position > 0 { deletedByRules.insert(DeletedObject(type: target.schema.name, key: targetKey)) }
        }
    }

    /// The table keys a link field's value leads to: one link, or a list's, a set's or a map's.
    private static func linkedKeys(_ value: StoredValue) -> [[UInt8]] {
        switch value {
        case .link(_, let key): return [ObjectKeyCodec.encode(key)]
        case .list(let values): return values.flatMap(linkedKeys)
        case .map(let entries): return entries.keys.sorted().flatMap { linkedKeys(entries[$0]!) }
        default: return []
        }
    }
}
