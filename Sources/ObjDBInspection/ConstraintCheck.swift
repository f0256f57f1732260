import ObjDB

/// ``StoreCheck``'s check of one uniqueness constraint's index (FORMAT.md, "Uniqueness
/// constraints"): exactly one entry per object without `nil` in the constraint's properties, under
/// the key its values give, leading to it.
struct ConstraintCheck {
    let transaction: Transaction
    let binding: TypeBinding
    let compound: CompoundKey
    let source: RecordSource
    let maxKeySize: Int

    /// Every problem found, one sentence each.
    func problems() throws -> [String] {
        guard let index = compound.index, let table = binding.table else { return [] }
        let label = "uniqueness constraint \(binding.schema.name)\(compound.label)"
        var expected = EntryDigest()
        try transaction.cursor(table).forEach { entry in
            // A damaged record is reported once, with the objects.
            guard let reader = RecordReader(validating: entry.value) else { return true }
            let values = source.values(of: reader, in: binding)
            let parts = compound.properties.map { values[$0.position] }
            if case .key(let key) = CompoundKeyCodec.entry(for: parts, maxKeySize: maxKeySize) {
                key.withUnsafeBytes { expected.add($0, entry.key) }
            }
            return true
        }
        var stored = EntryDigest()
        var problems: [String] = []
        try transaction.cursor(index).forEach { entry in
            stored.add(entry.key, entry.value)
            if try transaction.get(entry.value, in: table) == nil {
                problems.append("\(label): an entry points at a missing object")
            }
            return true
        }
        if stored != expected {
            problems.append(
                "\(label): holds \(stored.count) entries that do not match its objects' \(expected.count)")
        }
        return problems
    }
}
