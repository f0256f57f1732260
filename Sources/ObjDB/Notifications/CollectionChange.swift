/// What changed in a collection since its last notification, as ``Results/observe(keyPaths:_:)``
/// and ``Results/changes`` report it.
///
/// ```swift
/// token = try tweets.observe { change in
///     switch change {
///     case .initial(let tweets):
///         table.reload(tweets)
///     case .update(let tweets, let deletions, let insertions, let modifications):
///         table.apply(deleting: deletions, inserting: insertions, reloading: modifications)
///     }
/// }
/// ```
///
/// The index arrays follow the batch-update convention of Realm and `UITableView`: remove
/// `deletions` (indices in the old collection), then insert `insertions` (indices in the new
/// one); `modifications` are indices in the new collection of objects that stayed in place
/// but changed. An object whose change moved it is a deletion and an insertion. Every array
/// is sorted ascending.
public enum CollectionChange<Collection> {
    /// The first delivery: the collection as the query first found it.
    case initial(Collection)
    /// A commit changed the collection.
    case update(Collection, deletions: [Int], insertions: [Int], modifications: [Int])

    /// The collection delivered.
    public var collection: Collection {
        switch self {
        case .initial(let collection), .update(let collection, _, _, _): return collection
        }
    }
}

extension CollectionChange: Sendable where Collection: Sendable {}

/// What changed in an observed object, as ``ObjectObservable/observe(keyPaths:_:)`` reports it.
public enum ObjectChange<Observed> {
    /// One or more of the object's properties changed; `properties` name them, in declaration order.
    case change(Observed, [PropertyChange])
    /// The object was deleted; no more notifications follow.
    case deleted
}

extension ObjectChange: Sendable where Observed: Sendable {}

/// One property of an observed object that a commit changed.
public struct PropertyChange: Sendable, Hashable {
    /// The property's name.
    public var name: String
    /// Its value before the commit, when the notifier still had that version.
    public var oldValue: StoredValue?
    /// Its value after the commit.
    public var newValue: StoredValue?
}
