import CLMDB

#if canImport(Glibc)
    import Glibc
#endif

/// One thing wrong in an LMDB file's page structure.
package struct PageProblem: Sendable, Hashable, CustomStringConvertible {
    /// The page it is on, or `nil` for what concerns the whole file.
    package var page: Int?
    /// The database (B-tree) it belongs to: a name, `(main)`, `(free)` or `(meta)`.
    package var database: String
    /// What is wrong.
    package var message: String

    package var description: String {
        if let page { return "page \(page) of \(database): \(message)" }
        return "\(database): \(message)"
    }
}

/// Validates an LMDB file's B-trees page by page, before anything lets LMDB walk them.
///
/// LMDB trusts its file: a page number past the end of the map is a `SIGBUS`, a
/// damaged node offset reads outside its page, a loop of child pointers never
/// ends. This check reads the file itself, with `pread` and a bounds check on every
/// field (``PageFile``), against the layout in mdb.c, and says what it finds:
///
/// - the meta pages (``MetaPages``), and that the pages they reach are in the file;
/// - every page header: its page number, its kind (a branch above the last level, a
///   leaf on it), `mp_lower` and `mp_upper` within the page, at least one node;
/// - every node: inside its page, the nodes exactly filling the space below `mp_upper`,
///   known flags, keys no longer than LMDB's maximum, child pointers in range;
/// - the order of keys, within each page and against the separators of its parents,
///   by each database's comparison (`MDB_REVERSEKEY`, `MDB_INTEGERKEY`, the duplicate
///   orders of `MDB_DUPSORT`);
/// - overflow chains (`F_BIGDATA`): an overflow page, long enough for the value, in the file;
/// - sub-pages and sub-databases of duplicates (`F_DUPDATA`, `F_SUBDATA`);
/// - that no page is reached twice, that every page is either in a tree or on the free
///   list and not both, and that each tree's depth, page counts and entries match its record.
///
/// It pins its snapshot with a read transaction, so a live store can be checked while
/// others write. It reads each page once: the cost is one `pread` per page.
package struct PageCheck {
    /// LMDB's `PAGEHDRSZ` on 64-bit platforms.
    static let headerSize = 16
    /// LMDB's `NODESIZE`.
    static let nodeHeaderSize = 8
    /// LMDB's `CURSOR_STACK`: no tree is deeper.
    static let maximumDepth = 32
    static let branchFlag = 0x01, leafFlag = 0x02, overflowFlag = 0x04, metaFlag = 0x08
    static let dirtyFlag = 0x10, leaf2Flag = 0x20, subpageFlag = 0x40
    static let bigDataFlag = 0x01, subDataFlag = 0x02, duplicateDataFlag = 0x04
    /// The most problems listed; past it, one line says there are more.
    static let maximumProblems = 100

    private let environment: Environment

    /// A check of `environment`'s file.
    package init(environment: Environment) {
        self.environment = environment
    }

    /// Every problem found in the latest snapshot, at most ``maximumProblems``; empty for a sound file.
    package func problems() throws -> [PageProblem] {
        // The read transaction keeps every page of the snapshot from being reused while we read.
        let snapshot = try environment.beginRead()
        defer { snapshot.abort() }
        let found = try Self.problems(file: PageFile(path: environment.path), maxKeySize: environment.maxKeySize)
        guard !found.isEmpty else { return found }
        // A meta page read while another process commits may be torn: damage must be there twice.
        usleep(5_000)
        return try Self.problems(file: PageFile(path: environment.path), maxKeySize: environment.maxKeySize)
    }

    /// Every problem in the file at `path`, without LMDB: for a file that may not even open.
    ///
    /// Without a read transaction, a store that another process writes meanwhile may show
    /// pages being reused; use ``problems()`` on an open environment for a live store.
    package static func problems(path: String) throws -> [PageProblem] {
        try problems(file: PageFile(path: path), maxKeySize: 511)
    }

    static func problems(file: PageFile, maxKeySize: Int) throws -> [PageProblem] {
        let metas: MetaPages
        switch Result(catching: { () throws(ObjDBError) in try MetaPages(file: file) }) {
        case .success(let read): metas = read
        case .failure(let error): return [PageProblem(page: nil, database: "(meta)", message: error.description)]
        }
        let metaProblems = metas.problems(newestOnly: false)
        if !metas.problems(newestOnly: true).isEmpty {
            return metaProblems.map { PageProblem(page: nil, database: "(meta)", message: $0) }
        }
        let walker = PageWalker(file: file, meta: metas.newest, maxKeySize: maxKeySize)
        for problem in metaProblems { walker.report(nil, "(meta)", problem) }
        walker.walkEverything()
        return walker.finish()
    }

    /// Refuses a snapshot whose pages lie past the end of the file (a truncated file), before
    /// LMDB maps it. LMDB may leave the file shorter than its last page when the last pages
    /// are free, so a short file is refused only when a missing page is not on the free list.
    static func checkLength(file: PageFile, metas: MetaPages) throws(ObjDBError) {
        let meta = metas.newest
        // The meta pages were read after the size: a commit since may have grown the file.
        file.refreshSize()
        let pageSize = UInt64(meta.pageSize)
        let filePages = UInt64(file.size) / pageSize
        guard meta.lastPage >= filePages else { return }
        let missing = meta.lastPage - filePages + 1
        let truncated = ObjDBError.damagedStore(
            path: file.path,
            reason: "the file holds \(file.size) bytes, but its last page (\(meta.lastPage), of \(pageSize) bytes) "
                + "ends at \((meta.lastPage + 1) * pageSize): the file was truncated")
        // Each missing page would need an 8-byte entry on the free list, which lives in the file.
        guard missing <= UInt64(file.size) / 8 else { throw truncated }
        let walker = PageWalker(file: file, meta: meta, maxKeySize: 511)
        walker.walkFreeList()
        guard walker.problemCount == 0, walker.freePages(from: Int(filePages), through: Int(meta.lastPage)) else {
            throw truncated
        }
    }

    /// Checks the trees LMDB walks while a store opens (the main database, which names the others,
    /// and the named databases in `names`: the store's metadata), so that opening a damaged file is
    /// an error instead of a crash.
    static func checkOpening(file: PageFile, maxKeySize: Int, following names: [String]) throws(ObjDBError) {
        let metas = try MetaPages(file: file)
        let walker = PageWalker(file: file, meta: metas.newest, maxKeySize: maxKeySize)
        walker.walkMain(following: Set(names))
        if let first = walker.finish().first {
            throw .damagedStore(path: file.path, reason: first.description)
        }
    }

    static func isValidPageSize(_ size: Int) -> Bool {
        size >= 512 && size <= 65_536 && size & (size - 1) == 0
    }
}

/// How a tree orders its keys (or a `MDB_DUPSORT` tree its values): mdb.c's `mdb_cmp_memn`,
/// `mdb_cmp_memnr` and `mdb_cmp_int`/`mdb_cmp_cint`.
enum KeyOrder {
    case bytes
    case reverseBytes
    case integer

    init(keyFlags flags: Int) {
        if flags & Int(MDB_REVERSEKEY) != 0 {
            self = .reverseBytes
        } else if flags & Int(MDB_INTEGERKEY) != 0 {
            self = .integer
        } else {
            self = .bytes
        }
    }

    init(duplicateFlags flags: Int) {
        if flags & Int(MDB_INTEGERDUP) != 0 {
            self = .integer
        } else if flags & Int(MDB_REVERSEDUP) != 0 {
            self = .reverseBytes
        } else {
            self = .bytes
        }
    }

    /// `a` compared with `b`: negative, zero or positive; `nil` for integer keys of different sizes.
    func compare(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int? {
        switch self {
        case .bytes:
            let common = min(a.count, b.count)
            if common > 0 {
                let comparison = memcmp(a.baseAddress!, b.baseAddress!, common)
                if comparison != 0 { return Int(comparison) }
            }
            return a.count - b.count
        case .reverseBytes:
            if let comparison = Self.compareFromEnd(a, b, count: min(a.count, b.count)) { return comparison }
            return a.count - b.count
        case .integer:
            guard a.count == b.count else { return nil }
            return Self.compareFromEnd(a, b, count: a.count) ?? 0
        }
    }

    /// The first difference of the last `count` bytes of `a` and `b`, read from the end; `nil` when there is none.
    private static func compareFromEnd(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer, count: Int) -> Int? {
        var index = 1
        while index <= count {
            let x = a[a.count - index]
            let y = b[b.count - index]
            if x != y { return Int(x) - Int(y) }
            index += 1
        }
        return nil
    }
}
