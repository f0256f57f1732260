import Foundation

/// One pass of the notifier: from the version its observers last saw to the newest one.
struct NotificationRound {
    /// The version the notifier's last round reached, `nil` on the first round.
    let oldVersion: Int?
    let newVersion: Int
    /// A snapshot at `newVersion`.
    let new: Snapshot
    /// The shared read transaction at `newVersion`, which views adopt.
    let snapshot: Transaction
    /// The observers each commit up to `newVersion` was made without notifying, by version,
    /// for the versions some observer has not yet passed.
    let silencedByVersion: [Int: Set<Int>]
    /// Whether observers may keep `new` past the round; not while map growth waits for readers to end.
    let mayKeepSnapshot: Bool
    let log: ChangeLogReader

    /// The folded change log from `version` (an observer's) to `newVersion`; `nil` when the log
    /// may not cover it, and the observer must compare records instead.
    func changes(since version: Int) throws -> ChangeSet? {
        try log.changes(since: version)
    }

    /// Whether every commit after `version` (the observer's own, which may be behind the last
    /// round's when its view was busy) through `newVersion` was made without notifying `observerID`.
    /// A range that mixes silenced and other commits is heard in full: its changes cannot be told apart.
    func silences(_ observerID: Int, since version: Int?) -> Bool {
        guard let version, newVersion > version else { return false }
        return ((version + 1)...newVersion).allSatisfy { silencedByVersion[$0]?.contains(observerID) == true }
    }
}
