import Foundation

/// Reads the change log for one round, once per starting version.
final class ChangeLogReader {
    private let database: Database
    private let transaction: Transaction
    /// The first version after which every commit is known to be logged; `nil` when none is.
    private let completeFrom: Int?
    private var read: [Int: ChangeSet?] = [:]

    init(database: Database, transaction: Transaction, completeFrom: Int?) {
        self.database = database
        self.transaction = transaction
        self.completeFrom = completeFrom
    }

    func changes(since version: Int) throws -> ChangeSet? {
        if let known = read[version] { return known }
        var changes: ChangeSet?
        if let completeFrom, let log = database.changeLog, let meta = database.meta,
            try version >= completeFrom
                || (version == completeFrom - 1
                    && ChangeLog.hasEntry(of: completeFrom, in: transaction, log: log))
        {
            changes = try ChangeLog.changes(after: version, in: transaction, log: log, meta: meta)
        }
        read[version] = .some(changes)
        return changes
    }
}
