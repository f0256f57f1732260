/// The bindings of a store's model classes, found by class.
///
/// Every read of an object by primary key and every add looks its class up here. A store has a
/// handful of classes, and comparing a few identities costs less than hashing one, so up to
/// ``linearLimit`` classes are searched in a list; more go in a dictionary.
struct BindingsByClass: Sendable {
    private let list: [(ObjectIdentifier, TypeBinding)]
    private let dictionary: [ObjectIdentifier: TypeBinding]

    init(_ bindings: [ObjectIdentifier: TypeBinding]) {
        if bindings.count <= Self.linearLimit {
            list = Array(bindings)
            dictionary = [:]
        } else {
            list = []
            dictionary = bindings
        }
    }

    /// The binding of class `type`, if the store was opened with it.
    subscript(_ type: ObjectBase.Type) -> TypeBinding? {
        let identity = ObjectIdentifier(type)
        if dictionary.isEmpty {
            for (candidate, binding) in list where candidate == identity { return binding }
            return nil
        }
        return dictionary[identity]
    }

    /// The most classes searched in a list.
    private static let linearLimit = 16
}
