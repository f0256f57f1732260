/// One property of an object type, as declared and as stored.
public struct PropertySchema: Codable, Sendable, Hashable {
    /// The property's stable ID in records. It never changes for the life of the
    /// property, so a rename or another property's removal rewrites no record.
    public var id: UInt16
    /// The property's name.
    public var name: String
    /// The kind of value it stores (of each element, for a collection).
    public var type: PropertyType
    /// Whether it holds one value, a list, a set or a map.
    public var collection: CollectionKind
    /// Whether the value (or each element) may be `nil`.
    public var isOptional: Bool
    /// Whether it is the type's primary key.
    public var isPrimaryKey: Bool
    /// Its secondary index, if any.
    public var index: IndexKind?
    /// For links, embedded objects and linking objects: the type at the other end.
    public var objectType: String?
    /// For linking objects: the property of ``objectType`` whose links are followed back.
    public var originProperty: String?
    /// For links: what deleting the object does to the objects the link leads to; `nil` is
    /// ``DeleteRule/nullify``.
    public var deleteRule: DeleteRule?

    /// Creates a property description.
    public init(
        id: UInt16 = 0, name: String, type: PropertyType, collection: CollectionKind = .single,
        isOptional: Bool = false, isPrimaryKey: Bool = false, index: IndexKind? = nil, objectType: String? = nil,
        originProperty: String? = nil, deleteRule: DeleteRule? = nil
    ) {
        self.id = id
        self.name = name
        self.type = type
        self.collection = collection
        self.isOptional = isOptional
        self.isPrimaryKey = isPrimaryKey
        self.index = index
        self.objectType = objectType
        self.originProperty = originProperty
        self.deleteRule = deleteRule == .nullify ? nil : deleteRule
    }

    /// Whether the property's value lives in the record (linking objects do not).
    public var isStored: Bool { type != .linkingObjects }

    /// Whether an index is kept for it: a secondary index, not the primary key (the table's own key).
    package var isIndexed: Bool { index != nil && !isPrimaryKey }

    /// A description such as `String?`, `List<Tag>` or `Map<String, Int>`, for messages.
    public var typeDescription: String {
        var element = objectType ?? type.rawValue
        if type == .linkingObjects { return "LinkingObjects<\(element)>" }
        if isOptional { element += "?" }
        switch collection {
        case .single: return element
        case .list: return "List<\(element)>"
        case .set: return "MutableSet<\(element)>"
        case .map: return "Map<String, \(element)>"
        }
    }

    /// The same property ignoring its stored ID, to compare declared against stored.
    func sameDeclaration(as other: PropertySchema) -> Bool {
        var left = self
        var right = other
        left.id = 0
        right.id = 0
        return left == right
    }
}
