import Foundation

/// What changed in a ``SectionedResults`` since its last notification.
///
/// ```swift
/// token = try sections.observe { change in
///     switch change {
///     case .initial:
///         tableView.reloadData()
///     case .update(_, let deletions, let insertions, let modifications, let sectionsToInsert, let sectionsToDelete):
///         tableView.performBatchUpdates {
///             tableView.deleteRows(at: deletions, with: .automatic)
///             tableView.deleteSections(sectionsToDelete, with: .automatic)
///             tableView.insertSections(sectionsToInsert, with: .automatic)
///             tableView.insertRows(at: insertions, with: .automatic)
///             tableView.reloadRows(at: modifications, with: .automatic)
///         }
///     case .error(let error):
///         print("live sections stopped:", error)
///     }
/// }
/// ```
///
/// An index path is `[section, row]`. In the batch-update convention of `UITableView` and Realm's
/// sectioned results: `deletions` are
/// index paths in the old sections and `sectionsToDelete` old section indices, removed first;
/// then `sectionsToInsert` (indices in the new sections) and `insertions` (index paths in them)
/// are inserted. Rows of a deleted or inserted section are not listed: they go and come with it.
/// `modifications` are index paths in the new sections of objects that stayed in place but
/// changed. An object that moved (within its section or to another) is a deletion and an
/// insertion; a section whose place among the others changed is deleted and inserted.
public enum SectionedResultsChange<Collection> {
    /// The first delivery: the sections as the query first found them.
    case initial(Collection)
    /// A commit changed the sections.
    case update(
        Collection, deletions: [IndexPath], insertions: [IndexPath], modifications: [IndexPath],
        sectionsToInsert: IndexSet, sectionsToDelete: IndexSet)
    /// The observer could not be served, and stopped: no delivery follows.
    case error(any Error)

    /// The collection delivered; `nil` for ``error(_:)``.
    public var collection: Collection? {
        switch self {
        case .initial(let collection), .update(let collection, _, _, _, _, _): return collection
        case .error: return nil
        }
    }
}

extension SectionedResults {
    /// Calls `block` with the sections now (`.initial`) and after every commit that changes the
    /// objects they hold (`.update`), on the view's queue, as ``Results/observe(keyPaths:_:)`` does
    /// for the results: the same rules for the queue, the key paths and the token.
    ///
    /// - Throws: ``ObjDBError/unknownProperty(type:property:)`` for an unknown key path.
    /// - Precondition: as for ``Results/observe(keyPaths:_:)``: the view is live and has a queue to
    ///   deliver on, and this is called there.
    public func observe(
        keyPaths: [String]? = nil, _ block: @escaping (SectionedResultsChange<SectionedResults<Key, Element>>) -> Void
    ) throws -> NotificationToken {
        let sectioning = self
        var previous: SectionLayout<Key>?
        return try results.observe(keyPaths: keyPaths) { change in
            func sectioned(_ results: Results<Element>) -> SectionedResults<Key, Element> {
                sectioning.resectioning(results)
            }
            switch change {
            case .initial(let results):
                let sections = sectioned(results)
                previous = sections.layout
                block(.initial(sections))
            case .update(let results, let deletions, let insertions, let modifications):
                let sections = sectioned(results)
                let new = sections.layout
                let diff = SectionDiff(
                    old: previous ?? SectionLayout(), new: new, deletions: deletions, insertions: insertions,
                    modifications: modifications)
                previous = new
                block(
                    .update(
                        sections, deletions: diff.deletions, insertions: diff.insertions,
                        modifications: diff.modifications, sectionsToInsert: diff.sectionsToInsert,
                        sectionsToDelete: diff.sectionsToDelete))
            case .error(let error):
                block(.error(error))
            }
        }
    }
}

/// The section and row changes between two layouts, from the flat results' change set: objects
/// the flat change set moves are deleted and inserted, those it keeps in place keep their relative
/// order, so in a section both layouts share they stay, and the rest come and go.
struct SectionDiff {
    var deletions: [IndexPath] = []
    var insertions: [IndexPath] = []
    var modifications: [IndexPath] = []
    var sectionsToInsert = IndexSet()
    var sectionsToDelete = IndexSet()

    init<Key: Hashable>(
        old: SectionLayout<Key>, new: SectionLayout<Key>, deletions flatDeletions: [Int],
        insertions flatInsertions: [Int],
        modifications flatModifications: [Int]
    ) {
        let removed = Set(flatDeletions.map { old.objectKeys[$0] })
        let added = Set(flatInsertions.map { new.objectKeys[$0] })
        let moved = removed.intersection(added)
        let modified = Set(flatModifications.map { new.objectKeys[$0] })

        // The sections both layouts hold, kept where their order among the others stayed (the
        // longest run of them in the same order): the rest are deleted and inserted.
        var oldIndex: [Key: Int] = [:]
        for (index, section) in old.sections.enumerated() { oldIndex[section.key] = index }
        let shared = new.sections.indices.compactMap { newIndex in
            oldIndex[new.sections[newIndex].key].map { (old: $0, new: newIndex) }
        }
        let kept = longestIncreasingRun(shared.map(\.old)).map { shared[$0] }
        let keptOld = Set(kept.map(\.old))
        let keptNew = Set(kept.map(\.new))
        sectionsToDelete = IndexSet(old.sections.indices.filter { !keptOld.contains($0) })
        sectionsToInsert = IndexSet(new.sections.indices.filter { !keptNew.contains($0) })

        for pair in kept {
            let oldRows = old.sections[pair.old].positions.map { old.objectKeys[$0] }
            let newRows = new.sections[pair.new].positions.map { new.objectKeys[$0] }
            let staying = Set(oldRows).intersection(newRows).subtracting(moved).subtracting(removed)
            for (row, key) in oldRows.enumerated() where !staying.contains(key) {
                deletions.append(IndexPath(indexes: [pair.old, row]))
            }
            for (row, key) in newRows.enumerated() {
                if !staying.contains(key) {
                    insertions.append(IndexPath(indexes: [pair.new, row]))
                } else if modified.contains(key) {
                    modifications.append(IndexPath(indexes: [pair.new, row]))
                }
            }
        }
        deletions.sort()
        insertions.sort()
        modifications.sort()
    }

}
