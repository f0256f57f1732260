/// What adding an object does when an object with its primary key exists.
public enum UpdatePolicy: Sendable, Hashable {
    /// Throw ``ObjDBError/primaryKeyExists(type:key:)``.
    case error
    /// Update the properties whose values differ; observers see only those as changed.
    case modified
    /// Overwrite every property; observers see every property as changed.
    case all
}
