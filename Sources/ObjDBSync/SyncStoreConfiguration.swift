import ObjDB

extension Configuration {
    /// The schema version of ObjDBSync's models: 1 since ``Timeline/gaps`` (#14), 2 since the
    /// properties X API v2 brought (#31: ``Tweet/editHistoryIds``, ``Tweet/conversationId``, …), 3 since
    /// the full-text indexes of tweets, users and articles (#27); stores written before #14 are version 0.
    public static let syncSchemaVersion: UInt64 = 3

    /// A configuration for a store of every ObjDBSync model (Twitter's and NYT's), at
    /// ``syncSchemaVersion``: a store written by an earlier version opens, gaining the new
    /// properties (an older timeline has no gaps).
    ///
    /// ```swift
    /// let db = try Database(configuration: .syncStore(path: "cache.objdb"))
    /// ```
    public static func syncStore(path: String) -> Configuration {
        var configuration = Configuration(path: path, types: TwitterImporter.modelTypes + NYTImporter.modelTypes)
        configuration.schemaVersion = syncSchemaVersion
        return configuration
    }
}
