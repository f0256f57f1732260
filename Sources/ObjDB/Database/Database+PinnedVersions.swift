/// The versions open read transactions hold, across every process using the file.
///
/// LMDB cannot reuse a page that a pinned version still reads, so one view left unrefreshed
/// makes every later write take new pages and the file grow. This tells who holds what.
public struct PinnedVersions: Sendable, Hashable {
    /// The last committed version.
    public var latest: Int
    /// The oldest version a reader holds, or `nil` when nothing is pinned.
    public var oldest: Int?
    /// The distinct versions readers hold.
    public var versions: [Int]
    /// Open read transactions, in every process.
    public var readers: Int

    /// How many commits the oldest pinned version is behind the latest (0 when nothing is pinned).
    public var lag: Int { oldest.map { latest - $0 } ?? 0 }
}

extension Database {
    /// Which versions open read transactions (views, frozen snapshots, other processes) hold now.
    ///
    /// ```swift
    /// let pinned = try db.pinnedVersions()
    /// if pinned.lag > 1_000 { print("a view holds version \(pinned.oldest!), \(pinned.lag) commits behind") }
    /// ```
    public func pinnedVersions() throws -> PinnedVersions {
        let info = try environment.info()
        let versions = Set(info.readers.map(\.transactionID)).sorted()
        return PinnedVersions(
            latest: info.lastTransactionID, oldest: versions.first, versions: versions, readers: info.readers.count)
    }

    /// Fails when reading the latest version would pin one version more than
    /// ``Configuration/maximumLiveVersions`` allows.
    func checkLiveVersions() throws {
        guard let maximum = configuration.maximumLiveVersions else { return }
        let pinned = try pinnedVersions()
        if pinned.versions.count >= maximum, !pinned.versions.contains(pinned.latest), let oldest = pinned.oldest {
            throw ObjDBError.tooManyLiveVersions(
                path: configuration.path, live: pinned.versions.count, maximum: maximum, oldest: oldest)
        }
    }
}
