import Foundation
import ObjDB

/// What `objdb-inspect info` reports about a store: its format, its file and map,
/// its readers, and the shape of every named database.
package struct StoreInfo: Sendable {
    /// The store file's path.
    package var path: String
    /// The store's ObjDB format version.
    package var formatVersion: UInt32
    /// The app's schema version stored in the file, if a schema is stored.
    package var schemaVersion: UInt64?
    /// The store file's size on disk, in bytes.
    package var fileSize: Int
    /// LMDB's environment report, readers included.
    package var environment: EnvironmentInfo
    /// Stale reader slots cleared when the store was opened for this report.
    package var staleReadersCleared: Int
    /// LMDB's main database, which names the others.
    package var mainDatabase: DatabaseStatistics
    /// Each named database and its statistics, in name order.
    package var databases: [(name: String, statistics: DatabaseStatistics)]

    /// The oldest snapshot an open read transaction pins, and how many commits behind the latest it is.
    package var oldestPinnedVersion: (version: Int, behind: Int)? {
        guard let oldest = environment.readers.map(\.transactionID).min() else { return nil }
        return (oldest, environment.lastTransactionID - oldest)
    }

    /// Opens the store at `path` read-only and reads its report in one snapshot.
    package static func read(path: String) throws -> StoreInfo {
        let (environment, version) = try StoreFormat.validate(
            try Environment.openForReading(path: path, checking: [DatabaseNames.meta]))
        let (databases, schemaVersion) = try environment.read { transaction in
            let databases = try environment.databaseNames().map { name in
                (name, try transaction.statistics(of: try transaction.openDatabase(named: name)))
            }
            return (databases, try StoredSchema.read(in: transaction)?.version)
        }
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        return StoreInfo(
            path: path, formatVersion: version, schemaVersion: schemaVersion,
            fileSize: (attributes?[.size] as? Int) ?? 0,
            environment: try environment.info(), staleReadersCleared: environment.staleReadersCleared,
            mainDatabase: try environment.mainStatistics(), databases: databases)
    }
}
