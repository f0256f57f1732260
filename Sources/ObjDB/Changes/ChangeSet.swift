/// What a run of commits did to objects: the change log's entries between two versions, folded.
///
/// Folding keeps the net effect: an object inserted and deleted in between is gone
/// from the set; one deleted and inserted again counts as modified in every property.
struct ChangeSet {
    /// The changes of each type that changed, by type name.
    var types: [String: TypeChangeSet] = [:]

    /// Whether any object of `type` may have changed.
    func touches(_ type: String) -> Bool {
        types[type] != nil
    }

    /// Whether nothing changed.
    var isEmpty: Bool { types.isEmpty }
}

/// The net changes to the objects of one type.
struct TypeChangeSet {
    /// Whether the type changed too much to list: every object may have changed, and ``objects`` is incomplete.
    var isWholesale = false
    /// The changed objects by table key.
    var objects: [[UInt8]: LoggedObjectChange] = [:]

    mutating func fold(_ kind: ObjectChangeKind, key: [UInt8], properties: [UInt16]) {
        guard var change = objects[key] else {
            objects[key] = LoggedObjectChange(
                existedBefore: kind != .inserted, existsAfter: kind != .deleted, properties: Set(properties),
                allProperties: false)
            return
        }
        switch kind {
        case .inserted:
            change.existsAfter = true
            // Deleted and inserted again: nothing of the old object can be assumed to remain.
            if change.existedBefore { change.allProperties = true }
        case .modified:
            change.properties.formUnion(properties)
        case .deleted:
            change.existsAfter = false
        }
        if !change.existedBefore && !change.existsAfter {
            objects[key] = nil
        } else {
            objects[key] = change
        }
    }
}

/// The net change to one object across a run of commits.
struct LoggedObjectChange: Equatable {
    /// Whether the object existed at the older version.
    var existedBefore: Bool
    /// Whether it exists at the newer version.
    var existsAfter: Bool
    /// The IDs of the properties that changed, when it existed at both.
    var properties: Set<UInt16>
    /// Whether every property must be taken as changed.
    var allProperties: Bool

}
