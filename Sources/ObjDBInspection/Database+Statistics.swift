import ObjDB

/// The B-tree shapes of a store this process has open: what `objdb-inspect info` prints for a
/// file, without opening the file a second time (LMDB allows one environment per file per process).
extension Database {
    /// LMDB's main database (named `(main)`), then every named database in name order, each with
    /// its statistics, read in one snapshot.
    package func databaseStatistics() throws -> [(name: String, statistics: DatabaseStatistics)] {
        let environment = self.environment
        return try environment.read { transaction in
            let main = try transaction.statistics(of: try transaction.mainDatabase())
            let cursor = try transaction.cursor(try transaction.mainDatabase())
            var names: [String] = []
            try cursor.forEach { entry in
                names.append(String(decoding: entry.key, as: UTF8.self))
                return true
            }
            return try [("(main)", main)]
                + names.map { name in
                    (name, try transaction.statistics(of: try transaction.openDatabase(named: name)))
                }
        }
    }
}
