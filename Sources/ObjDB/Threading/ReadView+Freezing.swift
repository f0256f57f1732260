extension ReadView {
    /// An immutable snapshot of the view's current version, readable from any thread or task.
    ///
    /// Freezing copies nothing: the snapshot shares the view's read transaction.
    public func freeze() throws -> FrozenView {
        snapshot.confinement.require("freeze")
        if snapshot.isFrozen { return FrozenView(snapshot: snapshot) }
        precondition(!snapshot.isWriting, "A view cannot be frozen while it writes; freeze it after the write.")
        let shared = try snapshot.shareTransaction()
        return FrozenView(snapshot: Snapshot(owner: database, frozenAt: shared))
    }
}
