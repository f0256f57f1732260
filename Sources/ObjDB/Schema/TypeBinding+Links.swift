extension TypeBinding {
    /// One link a record holds: its target and the top-level property holding it.
    package struct Link: Hashable {
        package let targetType: String
        package let targetKey: [UInt8]
        package let propertyID: UInt16
    }

    /// The links `values` of an object of this type hold, by the top-level property holding each.
    package func links(in values: [StoredValue]) -> Set<Link> {
        var links = Set<Link>()
        for property in linkProperties {
            collectLinks(values[property.position], propertyID: property.schema.id, into: &links)
        }
        return links
    }

    private func collectLinks(_ value: StoredValue, propertyID: UInt16, into links: inout Set<Link>) {
        switch value {
        case .link(let type, let key):
            links.insert(Link(targetType: type, targetKey: ObjectKeyCodec.encode(key), propertyID: propertyID))
        case .list(let elements):
            for element in elements { collectLinks(element, propertyID: propertyID, into: &links) }
        case .map(let entries):
            for element in entries.values { collectLinks(element, propertyID: propertyID, into: &links) }
        case .embedded(let fields):
            for field in fields.values { collectLinks(field, propertyID: propertyID, into: &links) }
        default:
            break
        }
    }
}
