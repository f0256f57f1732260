import Synchronization

/// A service a layer above the database attaches to it: made on first use, ended with it.
protocol DatabaseAttachment: AnyObject, Sendable {
    /// The database is going away.
    func databaseWillClose()
}

/// Hears about every commit through its database, as GRDB's `TransactionObserver` does: the
/// notifier registers this way, so the write path names nothing of the layers above.
protocol CommitObserver: AnyObject, Sendable {
    /// The write that makes `version` is about to commit; `silencing` names the observers
    /// its caller asked not to notify.
    func willCommit(version: Int, silencing: Set<Int>)
    /// The commit of `version` failed: the next write reuses the number.
    func didFailToCommit(version: Int)
    /// `version` committed.
    func didCommit(version: Int)
}

/// The attachments of one database, by type.
final class DatabaseAttachments: Sendable {
    private let state = Lock<
        (attachments: [ObjectIdentifier: any DatabaseAttachment], observers: [any CommitObserver])
    >(
        ([:], []))

    /// The attachment of type `A`, made by `make` the first time.
    func attachment<A: DatabaseAttachment>(_ type: A.Type, orMake make: () -> A) -> A {
        state.withLock { state in
            if let existing = state.attachments[ObjectIdentifier(type)] as? A { return existing }
            let made = make()
            state.attachments[ObjectIdentifier(type)] = made
            if let observer = made as? any CommitObserver { state.observers.append(observer) }
            return made
        }
    }

    /// The attachment of type `A`, if one was made.
    func existing<A: DatabaseAttachment>(_ type: A.Type) -> A? {
        state.withLock { $0.attachments[ObjectIdentifier(type)] as? A }
    }

    /// The attachments that observe commits.
    var commitObservers: [any CommitObserver] {
        state.withLock { $0.observers }
    }

    /// Tells every attachment that the database is going away.
    func endAll() {
        let all = state.withLock { state in
            defer { state = ([:], []) }
            return Array(state.attachments.values)
        }
        for attachment in all { attachment.databaseWillClose() }
    }
}
