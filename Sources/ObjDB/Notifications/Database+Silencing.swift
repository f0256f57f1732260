extension Database {
    /// Runs `body` in a write transaction whose commit does not notify the observers of `tokens`
    /// (the change is one they made themselves, say, and have already shown).
    @discardableResult
    public func write<Result>(withoutNotifying tokens: [NotificationToken], _ body: (WriteTransaction) throws -> Result)
        throws -> Result
    {
        // Commits before this one get their own round first, so the silenced round holds only this one.
        notifier.runRound()
        let scope = try WriteScope(database: self, snapshot: Snapshot(owner: self))
        scope.silencedObserverIDs = Set(tokens.map(\.observerID))
        let result = try WriteTransaction(scope: scope).run(body)
        // A snapshot of exactly this commit, for a round of its own (unless another commit already followed).
        guard let committed = scope.committedVersion else { return result }
        let snapshot: Transaction
        do {
            snapshot = try environment.beginRead()
        } catch {
            // The write committed; without a snapshot of it (a full reader table), the notifier's
            // next round may fold it with a later commit, which the silenced observer then hears.
            notifier.runRound()
            return result
        }
        if snapshot.id == committed { notifier.runRound(using: snapshot) } else { snapshot.abort() }
        return result
    }
}
