extension Schema {
    /// Checks the rules across types: links name types of the schema, embedded
    /// types are only embedded, and linking objects name a link back.
    func validate() throws {
        for type in types {
            for property in type.properties {
                guard let target = property.objectType else { continue }
                guard let targetType = self[target] else {
                    throw ObjDBError.invalidSchema(
                        type: type.name, reason: "\(property.name) refers to \(target), which is not in the schema")
                }
                switch property.type {
                case .object where targetType.isEmbedded:
                    throw ObjDBError.invalidSchema(
                        type: type.name,
                        reason: "\(property.name) links to the embedded type \(target); declare it as embedded")
                case .embedded where !targetType.isEmbedded:
                    throw ObjDBError.invalidSchema(
                        type: type.name, reason: "\(property.name) embeds \(target), which is not an EmbeddedObject")
                case .linkingObjects:
                    guard let origin = property.originProperty, let link = targetType[origin],
                        link.type == .object, link.objectType == type.name
                    else {
                        throw ObjDBError.invalidSchema(
                            type: type.name,
                            reason: "\(property.name) follows \(target).\(property.originProperty ?? "?"), "
                                + "which is not a link to \(type.name)")
                    }
                default:
                    break
                }
            }
        }
    }
}
