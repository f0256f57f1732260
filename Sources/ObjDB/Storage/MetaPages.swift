/// LMDB's `MDB_db` (mdb.c): one B-tree's flags, depth, page counts, entries and root, 48 bytes,
/// in a meta page (the free and main databases) or in a main-database leaf (a named database).
struct TreeRecord: Equatable {
    static let size = 48
    /// `P_INVALID`: the root of an empty tree.
    static let noRoot = UInt64.max

    /// `md_pad`: the page size in the free database's record, the value size of `MDB_DUPFIXED` trees.
    var pad: Int
    /// `md_flags`: `MDB_REVERSEKEY`, `MDB_DUPSORT`, `MDB_INTEGERKEY`, … (``DatabaseOptions``).
    var flags: Int
    var depth: Int
    var branchPages: UInt64
    var leafPages: UInt64
    var overflowPages: UInt64
    var entries: UInt64
    var root: UInt64

    init?(_ bytes: [UInt8], at offset: Int) {
        guard let pad = bytes.uint32(at: offset), let flags = bytes.uint16(at: offset + 4),
            let depth = bytes.uint16(at: offset + 6), let branch = bytes.uint64(at: offset + 8),
            let leaf = bytes.uint64(at: offset + 16), let overflow = bytes.uint64(at: offset + 24),
            let entries = bytes.uint64(at: offset + 32), let root = bytes.uint64(at: offset + 40)
        else { return nil }
        self.pad = pad
        self.flags = flags
        self.depth = depth
        branchPages = branch
        leafPages = leaf
        overflowPages = overflow
        self.entries = entries
        self.root = root
    }

    /// What is wrong with the record for a file whose last page is `lastPage`, or `nil`.
    func problem(lastPage: UInt64) -> String? {
        if root == Self.noRoot {
            guard depth == 0, entries == 0, branchPages == 0, leafPages == 0, overflowPages == 0 else {
                return "an empty tree (no root page) records depth \(depth) and \(entries) entries"
            }
            return nil
        }
        if root < 2 || root > lastPage { return "its root page \(root) is outside pages 2…\(lastPage)" }
        if depth < 1 || depth > PageCheck.maximumDepth {
            return "its depth \(depth) is outside 1…\(PageCheck.maximumDepth)"
        }
        return nil
    }
}

/// One of LMDB's two meta pages (`MDB_meta` after the page header): the start of a snapshot.
///
/// Page 0 and page 1 each hold one; a commit writes the one of its transaction ID's parity,
/// and LMDB opens the one with the higher ID. Layout (64-bit): page header (16 bytes), then
/// magic `0xBEEFC0DE` (4), version 1 (4), fixed address (8), map size (8), the free and main
/// databases' ``TreeRecord``s (2 × 48; the free one's `md_pad` is the page size), last page
/// (8), transaction ID (8).
struct MetaPage {
    static let magic = 0xBEEF_C0DE
    static let dataVersion = 1
    /// The bytes to read: the page header and `MDB_meta`.
    static let byteCount = PageCheck.headerSize + 136

    let index: Int
    let storedPageNumber: UInt64
    let pageFlags: Int
    let magic: Int
    let version: Int
    let mapSize: UInt64
    let free: TreeRecord
    let main: TreeRecord
    let lastPage: UInt64
    let transactionID: UInt64

    var pageSize: Int { free.pad }

    init?(_ bytes: [UInt8], index: Int) {
        let base = PageCheck.headerSize
        guard let storedPageNumber = bytes.uint64(at: 0), let pageFlags = bytes.uint16(at: 10),
            let magic = bytes.uint32(at: base), let version = bytes.uint32(at: base + 4),
            let mapSize = bytes.uint64(at: base + 16), let free = TreeRecord(bytes, at: base + 24),
            let main = TreeRecord(bytes, at: base + 72), let lastPage = bytes.uint64(at: base + 120),
            let transactionID = bytes.uint64(at: base + 128)
        else { return nil }
        self.index = index
        self.storedPageNumber = storedPageNumber
        self.pageFlags = pageFlags
        self.magic = magic
        self.version = version
        self.mapSize = mapSize
        self.free = free
        self.main = main
        self.lastPage = lastPage
        self.transactionID = transactionID
    }

    /// Whether LMDB takes this for a meta page of its format (`mdb_env_read_header`).
    var isLMDBMeta: Bool { pageFlags & PageCheck.metaFlag != 0 && magic == Self.magic }

    /// What is wrong with this meta page on its own, one sentence each.
    var problems: [String] {
        var problems: [String] = []
        if storedPageNumber != UInt64(index) { problems.append("it records page number \(storedPageNumber)") }
        if !PageCheck.isValidPageSize(pageSize) { problems.append("its page size \(pageSize) is not a power of two") }
        if lastPage < 1 || lastPage > UInt64(Int.max / max(pageSize, 1) - 1) {
            problems.append("its last page \(lastPage) is out of range")
        }
        for (name, tree) in [("free", free), ("main", main)] {
            if let problem = tree.problem(lastPage: lastPage) { problems.append("the \(name) database: \(problem)") }
        }
        return problems
    }
}

/// The two meta pages of a file, checked before LMDB trusts them.
struct MetaPages {
    let metas: [MetaPage]

    /// The meta page LMDB opens: the one with the higher transaction ID (page 0 on a tie).
    var newest: MetaPage { metas[1].transactionID > metas[0].transactionID ? metas[1] : metas[0] }
    var older: MetaPage { metas[1].transactionID > metas[0].transactionID ? metas[0] : metas[1] }
    var pageSize: Int { newest.pageSize }

    /// Reads both meta pages, as LMDB does: page 1 lies one page size (read from page 0) after page 0.
    ///
    /// - Throws: ``ObjDBError/notAnObjDBStore(path:reason:)`` when page 0 is not an LMDB meta
    ///   page (not an LMDB file) or is of another LMDB version, ``ObjDBError/damagedStore(path:reason:)``
    ///   when page 1 is missing or is not one.
    init(file: PageFile) throws(ObjDBError) {
        let path = file.path
        guard let first = file.read(offset: 0, count: MetaPage.byteCount), let meta0 = MetaPage(first, index: 0),
            meta0.isLMDBMeta
        else {
            throw .notAnObjDBStore(path: path, reason: "it is not an LMDB file (no LMDB meta page)")
        }
        guard meta0.version == MetaPage.dataVersion else {
            throw .notAnObjDBStore(path: path, reason: "it was written by an incompatible LMDB version")
        }
        guard PageCheck.isValidPageSize(meta0.pageSize) else {
            throw .damagedStore(
                path: path, reason: "meta page 0 records a page size of \(meta0.pageSize), not a power of two")
        }
        guard let second = file.read(offset: meta0.pageSize, count: MetaPage.byteCount),
            let meta1 = MetaPage(second, index: 1), meta1.isLMDBMeta, meta1.version == MetaPage.dataVersion
        else {
            throw .damagedStore(path: path, reason: "page 1 is not an LMDB meta page")
        }
        metas = [meta0, meta1]
    }

    /// What is wrong with the meta pages, alone and together, one sentence each.
    ///
    /// - Parameter newestOnly: only what makes the newest snapshot unsafe to open (what
    ///   opening refuses); otherwise also the older meta page, and whether the two agree.
    func problems(newestOnly: Bool) -> [String] {
        var problems = newest.problems.map { "meta page \(newest.index): \($0)" }
        if newestOnly { return problems }
        problems += older.problems.map { "meta page \(older.index): \($0)" }
        if metas[0].pageSize != metas[1].pageSize {
            problems.append(
                "the meta pages disagree on the page size (\(metas[0].pageSize), \(metas[1].pageSize))")
        }
        if older.lastPage > newest.lastPage {
            problems.append(
                "the older meta page (transaction \(older.transactionID)) has a later last page "
                    + "(\(older.lastPage)) than the newer one (transaction \(newest.transactionID), \(newest.lastPage))"
            )
        }
        for meta in metas where meta.transactionID != 0 && meta.transactionID % 2 != UInt64(meta.index) {
            problems.append(
                "meta page \(meta.index) holds transaction \(meta.transactionID), of the other page's parity")
        }
        return problems
    }
}
