import Foundation

/// How an ``Environment`` opens its LMDB file.
package struct EnvironmentOptions: Sendable, Hashable {
    /// Opens with `MDB_RDONLY`: every write fails with ``ObjDBError/readOnly(path:operation:)``.
    package var readOnly = false

    /// Creates the file when it does not exist (never in read-only mode).
    package var createIfMissing = true

    /// The map size a store opens with; the map then grows geometrically.
    package var initialMapSize = defaultInitialMapSize

    /// The largest the map may grow to. A write that needs more fails with
    /// ``ObjDBError/mapFull(path:mapSize:maxMapSize:openReaders:)``.
    package var maxMapSize = defaultMaxMapSize

    /// 64 GiB. The map only reserves address space (the file grows as pages are written, and
    /// LMDB maps it read-only, so it costs no memory either), and LMDB's docs advise a map as
    /// large as possible: a single write of tens of millions of objects (10^7 tweets take about
    /// 4 GB) fits without growing, and growth, which needs a moment with no read transaction
    /// open in the process, is rarely needed at all. 2,000 stores this size fit in x86-64's
    /// 128 TiB of user address space.
    package static let defaultInitialMapSize = 1 << 36

    /// 1 TiB.
    package static let defaultMaxMapSize = 1 << 40

    /// The fraction of the map in use above which the next write grows it first.
    package var growthThreshold = 0.5

    /// Slots in the reader table: the most read transactions open at once across
    /// all processes using the file (`mdb_env_set_maxreaders`).
    package var maxReaders: UInt32 = 126

    /// The most named databases the store may hold (`mdb_env_set_maxdbs`).
    package var maxDatabases: UInt32 = 256

    /// The most bytes a write transaction holds in ``BulkLoad``s (entries and their bookkeeping)
    /// before it puts them: a quarter of the machine's memory, at most 4 GiB (about 20 million
    /// tweets). Inserts after that fall where they may and split the full leaves they land in,
    /// so the bound is generous.
    package var maxBulkLoadBytes = Int(min(ProcessInfo.processInfo.physicalMemory / 4, 4 << 30))

    /// What a commit waits for before it returns.
    package var durability: Durability = .full

    /// The permission bits of a newly created store file and lock file (before the umask):
    /// by default only the owner may read or write them.
    package var fileMode: UInt32 = 0o600

    package init() {}

    /// What a committed write survives.
    package enum Durability: Sendable, Hashable {
        /// Survives a power loss: the commit syncs data and meta pages.
        case full
        /// Survives a crash of the process, but a power loss may undo the last
        /// commits (`MDB_NOSYNC`); the file stays consistent.
        case processCrashOnly
    }
}

extension EnvironmentOptions {
    /// The most reader slots and named databases an environment takes (LMDB allocates a slot of
    /// the lock file per reader, and an array entry per database, up front).
    static let maximumReaders: UInt32 = 65_536
    static let maximumDatabases: UInt32 = 65_535
    /// The largest map: half of x86-64's 128 TiB of user address space.
    static let maximumMapSize = 1 << 46

    /// Throws ``ObjDBError/invalidArgument(_:reason:)`` for the first option outside its range.
    func validate() throws(ObjDBError) {
        func refuse(_ name: String, _ reason: String) -> ObjDBError { .invalidArgument(name, reason: reason) }
        guard (1...Self.maximumReaders).contains(maxReaders) else {
            throw refuse("maxReaders", "must be 1…\(Self.maximumReaders), not \(maxReaders)")
        }
        guard (1...Self.maximumDatabases).contains(maxDatabases) else {
            throw refuse("maxDatabases", "must be 1…\(Self.maximumDatabases), not \(maxDatabases)")
        }
        guard (1...Self.maximumMapSize).contains(initialMapSize) else {
            throw refuse("initialMapSize", "must be 1…\(Self.maximumMapSize) bytes, not \(initialMapSize)")
        }
        guard (1...Self.maximumMapSize).contains(maxMapSize) else {
            throw refuse("maxMapSize", "must be 1…\(Self.maximumMapSize) bytes, not \(maxMapSize)")
        }
        guard growthThreshold > 0, growthThreshold <= 1 else {
            throw refuse("growthThreshold", "must be above 0 and at most 1, not \(growthThreshold)")
        }
        guard fileMode & ~0o777 == 0, fileMode & 0o600 == 0o600 else {
            throw refuse(
                "fileMode",
                "must be permission bits (0o777 at most) that let the owner read and write, not 0o"
                    + String(fileMode, radix: 8))
        }
    }
}
