extension ObjDBError.Code {
    /// A delete met a link whose delete rule is ``DeleteRule/deny`` and that still leads to an object;
    /// nothing was deleted.
    public static let deleteDenied = Self(rawValue: "deleteDenied")
}

extension ObjDBError {
    /// ``Code/deleteDenied``.
    public static let deleteDenied = Code.deleteDenied

    /// A `type` object could not be deleted: its `property`, whose delete rule is deny, still links
    /// to a `linkedType` object that the delete would not also delete. Nothing was deleted.
    public static func deleteDenied(type: String, property: String, linkedType: String) -> ObjDBError {
        ObjDBError(
            .deleteDenied,
            "a \(type) cannot be deleted while its \(property) links to a \(linkedType) (delete rule deny); "
                + "nothing was deleted", typeName: type, propertyName: property, details: [linkedType])
    }
}
