/// What deleting an object does to the objects one of its links leads to, as Core Data's delete
/// rules have it. Declared on a link, a list, a set or a map of links with
/// `@Persisted(deleteRule:)`.
///
/// ```swift
/// final class Brewery: Object {
///     @Persisted(primaryKey: true) var name = ""
///     @Persisted(deleteRule: .cascade) var beers: List<Beer>    // deleting a brewery deletes its beers
///     @Persisted(deleteRule: .deny) var owner: Person?          // a brewery with an owner cannot be deleted
/// }
/// ```
///
/// Whatever the rule, links *to* a deleted object are cleared: a to-one link becomes `nil`, and
/// the object leaves the lists, sets and maps that held it.
public enum DeleteRule: String, Codable, Sendable, Hashable, CaseIterable {
    /// The linked objects stay (the default).
    case nullify
    /// The linked objects are deleted too, in the same write, and what their own rules say
    /// happens to them; an object reached twice, or by a cycle, is deleted once.
    case cascade
    /// Deleting the object throws ``ObjDBError/deleteDenied(type:property:linkedType:)`` while
    /// the link leads to an object that the same delete does not also delete; nothing is deleted.
    case deny
}
