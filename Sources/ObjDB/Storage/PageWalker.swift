import CLMDB

/// The walk behind ``PageCheck``: each tree of one snapshot, page by page, with every field
/// bounds-checked. A page found damaged is reported and not descended into.
final class PageWalker {
    private let file: PageFile
    private let pageSize: Int
    private let lastPage: Int
    private let meta: MetaPage
    private let maxKeySize: Int
    private var used: [UInt64]
    private var free: [UInt64]
    private var problems: [PageProblem] = []
    private(set) var problemCount = 0

    init(file: PageFile, meta: MetaPage, maxKeySize: Int) {
        self.file = file
        self.meta = meta
        self.maxKeySize = maxKeySize
        pageSize = meta.pageSize
        lastPage = Int(meta.lastPage)
        used = [UInt64](repeating: 0, count: lastPage / 64 + 1)
        free = used
        // The meta pages belong to no tree.
        used[0] |= 0b11
    }

    func report(_ page: Int?, _ database: String, _ message: String) {
        problemCount += 1
        if problems.count < PageCheck.maximumProblems {
            problems.append(PageProblem(page: page, database: database, message: message))
        }
    }

    func finish() -> [PageProblem] {
        if problemCount > problems.count {
            problems.append(
                PageProblem(
                    page: nil, database: "(file)",
                    message: "\(problemCount - problems.count) more problems are not listed"))
        }
        return problems
    }

    // MARK: What to walk

    /// The free list, the main database, every named database, and then whether each page is in
    /// exactly one place.
    func walkEverything() {
        walkFreeList()
        walkMain(following: nil)
        guard problemCount == 0 else { return }
        var leaked: [ClosedRange<Int>] = []
        for page in 2...max(lastPage, 2) where page <= lastPage {
            let inTree = isSet(used, page)
            let isFree = isSet(free, page)
            if inTree && isFree {
                report(page, "(free)", "the page is on the free list but also in use")
            } else if !inTree && !isFree {
                if let last = leaked.last, last.upperBound == page - 1 {
                    leaked[leaked.count - 1] = last.lowerBound...page
                } else {
                    leaked.append(page...page)
                }
            }
        }
        for range in leaked {
            let pages =
                range.count == 1 ? "page \(range.lowerBound) is" : "pages \(range.lowerBound)…\(range.upperBound) are"
            report(nil, "(file)", "\(pages) neither in a tree nor on the free list")
        }
    }

    /// The free database: its tree, and the pages its records list.
    func walkFreeList() {
        walk(Tree(name: "(free)", kind: .free, record: meta.free, flags: Int(MDB_INTEGERKEY)))
    }

    /// The main database, then the named databases it lists (only those in `names`, if given).
    func walkMain(following names: Set<String>?) {
        var named: [Tree] = []
        walk(Tree(name: "(main)", kind: .main, record: meta.main, flags: meta.main.flags), named: &named)
        for tree in named where names?.contains(tree.name) ?? true {
            walk(tree)
        }
    }

    /// Whether every page of `first…last` is on the free list.
    func freePages(from first: Int, through last: Int) -> Bool {
        guard first <= last else { return true }
        return (first...last).allSatisfy { $0 <= lastPage && isSet(free, $0) }
    }

    // MARK: Trees

    struct Tree {
        enum Kind { case free, main, named, duplicates }
        /// The database's name, or for duplicates the name of the database they are in.
        let baseName: String
        /// For the duplicates of one key, that key (described only when a problem is reported).
        let duplicatesOf: ArraySlice<UInt8>?
        let kind: Kind
        let record: TreeRecord
        let keyOrder: KeyOrder
        /// How a `MDB_DUPSORT` tree orders the values of one key; `nil` otherwise.
        let duplicateOrder: KeyOrder?
        /// `MDB_DUPFIXED`: duplicates are `LEAF2` pages of fixed-size values.
        let duplicateFixed: Bool

        /// The name problems are reported under: `plain`, or `plain (duplicates of 'key')`.
        var name: String {
            guard let duplicatesOf else { return baseName }
            return "\(baseName) (duplicates of \(describeKey(duplicatesOf)))"
        }

        init(name: String, kind: Kind, record: TreeRecord, flags: Int, duplicatesOf: ArraySlice<UInt8>? = nil) {
            baseName = name
            self.duplicatesOf = duplicatesOf
            self.kind = kind
            self.record = record
            let sorted = flags & Int(MDB_DUPSORT) != 0
            keyOrder = kind == .duplicates ? KeyOrder(duplicateFlags: flags) : KeyOrder(keyFlags: flags)
            duplicateOrder = sorted && kind != .duplicates ? KeyOrder(duplicateFlags: flags) : nil
            duplicateFixed = flags & Int(MDB_DUPFIXED) != 0
        }
    }

    struct Counts: Equatable {
        var branch: UInt64 = 0
        var leaf: UInt64 = 0
        var overflow: UInt64 = 0
        var entries: UInt64 = 0
    }

    private func walk(_ tree: Tree) {
        var ignored: [Tree] = []
        walk(tree, named: &ignored)
    }

    private func walk(_ tree: Tree, named: inout [Tree]) {
        let record = tree.record
        if let problem = record.problem(lastPage: meta.lastPage) {
            report(nil, tree.name, problem)
            return
        }
        guard record.root != TreeRecord.noRoot else { return }
        let before = problemCount
        var counts = Counts()
        walkPage(Int(record.root), of: tree, level: 1, lower: nil, upper: nil, counts: &counts, named: &named)
        guard problemCount == before else { return }
        let recorded = Counts(
            branch: record.branchPages, leaf: record.leafPages, overflow: record.overflowPages,
            entries: record.entries)
        if counts != recorded {
            report(
                nil, tree.name,
                "the tree holds \(counts.branch) branch, \(counts.leaf) leaf and \(counts.overflow) overflow pages "
                    + "and \(counts.entries) entries; its record says \(recorded.branch), \(recorded.leaf), "
                    + "\(recorded.overflow) and \(recorded.entries)")
        }
    }

    private func walkPage(
        _ pageNumber: Int, of tree: Tree, level: Int, lower: [UInt8]?, upper: [UInt8]?, counts: inout Counts,
        named: inout [Tree]
    ) {
        guard let page = readPage(pageNumber, of: tree) else { return }
        let isBranch = level < tree.record.depth
        let flags = page.uint16(at: 10)!
        let leaf2 = PageCheck.leafFlag | PageCheck.leaf2Flag
        if isBranch {
            guard flags == PageCheck.branchFlag else {
                return report(
                    pageNumber, tree.name,
                    "level \(level) of \(tree.record.depth) should be a branch page; its flags are \(hex(flags))")
            }
            counts.branch += 1
        } else if flags == leaf2 && tree.kind == .duplicates && tree.duplicateFixed {
            counts.leaf += 1
            return walkFixedLeaf(
                page, base: 0, size: pageSize, pageNumber: pageNumber, of: tree, lower: lower,
                upper: upper, counts: &counts)
        } else {
            guard flags == PageCheck.leafFlag else {
                return report(
                    pageNumber, tree.name,
                    "level \(level) of \(tree.record.depth) should be a leaf page; its flags are \(hex(flags))")
            }
            counts.leaf += 1
        }
        guard
            let nodes = readNodes(
                page, base: 0, size: pageSize, isBranch: isBranch, pageNumber: pageNumber, of: tree)
        else { return }
        let first = isBranch ? 1 : 0
        guard
            checkOrder(
                page, count: nodes.count - first, key: { nodes[first + $0].key }, order: tree.keyOrder,
                lower: lower, upper: upper, pageNumber: pageNumber, of: tree, what: isBranch ? "separator key" : "key")
        else { return }
        if isBranch {
            for (index, node) in nodes.enumerated() {
                let child = node.childPage
                guard child >= 2, child <= UInt64(lastPage) else {
                    report(pageNumber, tree.name, "child \(index) points at page \(child), outside 2…\(lastPage)")
                    continue
                }
                let childLower = index == 0 ? lower : Array(page[node.key])
                let childUpper = index + 1 < nodes.count ? Array(page[nodes[index + 1].key]) : upper
                walkPage(
                    Int(child), of: tree, level: level + 1, lower: childLower, upper: childUpper, counts: &counts,
                    named: &named)
            }
            return
        }
        for node in nodes {
            walkLeafNode(node, in: page, pageNumber: pageNumber, of: tree, counts: &counts, named: &named)
        }
    }

    /// One leaf node's value: in place, on overflow pages, a named database, or duplicates.
    private func walkLeafNode(
        _ node: Node, in page: [UInt8], pageNumber: Int, of tree: Tree, counts: inout Counts, named: inout [Tree]
    ) {
        let big = PageCheck.bigDataFlag
        let sub = PageCheck.subDataFlag
        let dup = PageCheck.duplicateDataFlag
        var name: String { tree.name }
        var keyText: String { describeKey(page[node.key]) }
        switch node.flags {
        case 0, big:
            if tree.kind == .duplicates {
                guard node.flags == 0, node.dataSize == 0 else {
                    return report(pageNumber, name, "the duplicate \(keyText) carries data (flags \(hex(node.flags)))")
                }
            }
            if node.flags == big {
                guard let pages = claimOverflow(node, in: page, pageNumber: pageNumber, of: tree) else { return }
                counts.overflow += UInt64(pages.count)
                if tree.kind == .free { readFreeRecord(node, overflow: pages.first, pageNumber: pageNumber, page) }
            } else if tree.kind == .free {
                readFreeRecord(node, overflow: nil, pageNumber: pageNumber, page)
            }
            counts.entries += 1
        case sub where tree.kind == .main:
            guard node.dataSize == TreeRecord.size, let record = TreeRecord(page, at: node.dataStart) else {
                return report(pageNumber, name, "the database \(keyText) has a record of \(node.dataSize) bytes")
            }
            let validFlags = 0x7E
            guard record.flags & ~validFlags == 0 else {
                return report(pageNumber, name, "the database \(keyText) has unknown flags \(hex(record.flags))")
            }
            let databaseName = String(decoding: page[node.key], as: UTF8.self)
            named.append(Tree(name: databaseName, kind: .named, record: record, flags: record.flags))
            counts.entries += 1
        case dup where tree.duplicateOrder != nil:
            walkSubpage(node, in: page, pageNumber: pageNumber, of: tree, counts: &counts)
        case sub | dup where tree.duplicateOrder != nil:
            guard node.dataSize == TreeRecord.size, let record = TreeRecord(page, at: node.dataStart) else {
                return report(pageNumber, name, "the duplicates of \(keyText) have a record of \(node.dataSize) bytes")
            }
            let flags = tree.record.flags
            let duplicates = Tree(
                name: tree.baseName, kind: .duplicates, record: record, flags: flags, duplicatesOf: page[node.key])
            walk(duplicates)
            counts.entries += record.entries
        default:
            report(pageNumber, name, "the node \(keyText) has flags \(hex(node.flags)), invalid in this database")
        }
    }

    /// Duplicates kept inside the node (`F_DUPDATA` without `F_SUBDATA`): a small leaf page, `P_SUBP`.
    private func walkSubpage(_ node: Node, in page: [UInt8], pageNumber: Int, of tree: Tree, counts: inout Counts) {
        let base = node.dataStart
        let size = node.dataSize
        var name: String { tree.name }
        guard size >= PageCheck.headerSize, let flags = page.uint16(at: base + 10) else {
            return report(pageNumber, name, "a sub-page of duplicates is \(size) bytes, too short for its header")
        }
        let required = PageCheck.leafFlag | PageCheck.subpageFlag
        var allowed = required | PageCheck.dirtyFlag
        if tree.duplicateFixed { allowed |= PageCheck.leaf2Flag }
        guard flags & required == required, flags & ~allowed == 0 else {
            return report(pageNumber, name, "a sub-page of duplicates has flags \(hex(flags))")
        }
        let duplicates = Tree(
            name: tree.baseName, kind: .duplicates, record: tree.record, flags: tree.record.flags,
            duplicatesOf: page[node.key])
        var subCounts = Counts()
        if flags & PageCheck.leaf2Flag != 0 {
            walkFixedLeaf(
                page, base: base, size: size, pageNumber: pageNumber, of: duplicates, lower: nil, upper: nil,
                counts: &subCounts)
        } else {
            guard
                let nodes = readNodes(
                    page, base: base, size: size, isBranch: false, pageNumber: pageNumber, of: duplicates)
            else { return }
            for node in nodes where node.flags != 0 || node.dataSize != 0 {
                return report(pageNumber, duplicates.name, "a duplicate carries data (flags \(hex(node.flags)))")
            }
            guard
                checkOrder(
                    page, count: nodes.count, key: { nodes[$0].key }, order: duplicates.keyOrder, lower: nil,
                    upper: nil, pageNumber: pageNumber, of: duplicates, what: "duplicate")
            else { return }
            subCounts.entries = UInt64(nodes.count)
        }
        counts.entries += subCounts.entries
    }

    /// A `P_LEAF2` page (or sub-page): `count` values of `mp_pad` bytes each, right after the header.
    private func walkFixedLeaf(
        _ page: [UInt8], base: Int, size: Int, pageNumber: Int, of tree: Tree, lower: [UInt8]?, upper: [UInt8]?,
        counts: inout Counts
    ) {
        guard let width = page.uint16(at: base + 8),
            let (count, _) = readBounds(
                page, base: base, size: size,
                pageNumber: pageNumber, of: tree)
        else { return }
        let start = base + PageCheck.headerSize
        guard width <= maxKeySize, count * width <= size - PageCheck.headerSize else {
            return report(pageNumber, tree.name, "\(count) fixed-size values of \(width) bytes do not fit in the page")
        }
        guard
            checkOrder(
                page, count: count, key: { (start + $0 * width)..<(start + ($0 + 1) * width) }, order: tree.keyOrder,
                lower: lower, upper: upper, pageNumber: pageNumber, of: tree, what: "value")
        else { return }
        counts.entries += UInt64(count)
    }

    // MARK: Pages and nodes

    struct Node {
        let offset: Int
        let low: Int
        let high: Int
        let flags: Int
        let key: Range<Int>
        let dataStart: Int
        /// A branch node's child: `mn_lo`, `mn_hi` and, on 64-bit, `mn_flags` as the top 16 bits.
        var childPage: UInt64 { UInt64(low) | UInt64(high) << 16 | UInt64(flags) << 32 }
        /// A leaf node's value size (`NODEDSZ`).
        var dataSize: Int { low | high << 16 }
    }

    /// Claims and reads a page of a tree: in range, not reached before, in the file, its header's page number its own.
    private func readPage(_ pageNumber: Int, of tree: Tree) -> [UInt8]? {
        guard claim(pageNumber, of: tree) else { return nil }
        guard let page = file.read(offset: pageNumber * pageSize, count: pageSize) else {
            report(pageNumber, tree.name, "the page lies past the end of the file (\(file.size) bytes)")
            return nil
        }
        let stored = page.uint64(at: 0)!
        guard stored == UInt64(pageNumber) else {
            report(pageNumber, tree.name, "the page's header says it is page \(stored)")
            return nil
        }
        return page
    }

    private func claim(_ pageNumber: Int, of tree: Tree) -> Bool {
        guard pageNumber >= 2, pageNumber <= lastPage else {
            report(nil, tree.name, "a pointer to page \(pageNumber), outside 2…\(lastPage)")
            return false
        }
        guard !isSet(used, pageNumber) else {
            report(pageNumber, tree.name, "the page is reached a second time (a loop, or pages shared between trees)")
            return false
        }
        used[pageNumber / 64] |= 1 << UInt64(pageNumber % 64)
        return true
    }

    /// `mp_lower` and `mp_upper` of the page at `base`: the number of nodes and where they start.
    private func readBounds(_ page: [UInt8], base: Int, size: Int, pageNumber: Int, of tree: Tree) -> (Int, Int)? {
        let lower = page.uint16(at: base + 12)!
        let upper = page.uint16(at: base + 14)!
        guard lower >= PageCheck.headerSize, (lower - PageCheck.headerSize) % 2 == 0, lower <= upper, upper <= size
        else {
            report(pageNumber, tree.name, "mp_lower \(lower) and mp_upper \(upper) do not fit a page of \(size) bytes")
            return nil
        }
        let count = (lower - PageCheck.headerSize) / 2
        guard count >= 1 else {
            report(pageNumber, tree.name, "the page holds no node")
            return nil
        }
        return (count, upper)
    }

    /// The nodes of the page (or sub-page) at `base`, each inside the page, together exactly
    /// filling the space from `mp_upper` to the end, as LMDB keeps them.
    private func readNodes(
        _ page: [UInt8], base: Int, size: Int, isBranch: Bool, pageNumber: Int, of tree: Tree
    ) -> [Node]? {
        guard let (count, upper) = readBounds(page, base: base, size: size, pageNumber: pageNumber, of: tree) else {
            return nil
        }
        var nodes: [Node] = []
        nodes.reserveCapacity(count)
        var filled = 0
        let header = PageCheck.nodeHeaderSize
        for index in 0..<count {
            let pointer = page.uint16(at: base + PageCheck.headerSize + 2 * index)!
            guard pointer >= upper, pointer % 2 == 0, pointer <= size - header else {
                report(
                    pageNumber, tree.name, "node \(index) is at offset \(pointer), outside \(upper)…\(size - header)")
                return nil
            }
            let at = base + pointer
            let low = page.uint16(at: at)!
            let high = page.uint16(at: at + 2)!
            let flags = page.uint16(at: at + 4)!
            let keySize = page.uint16(at: at + 6)!
            let keyLimit = tree.kind == .duplicates ? maxKeySize : (isBranch && index == 0 ? maxKeySize : maxKeySize)
            guard keySize <= keyLimit, (keySize > 0 || tree.kind == .duplicates || (isBranch && index == 0)) else {
                report(pageNumber, tree.name, "node \(index) has a key of \(keySize) bytes (1…\(keyLimit) allowed)")
                return nil
            }
            var dataSize = 0
            if !isBranch {
                dataSize = flags & PageCheck.bigDataFlag != 0 ? 8 : low | high << 16
            }
            let nodeSize = header + keySize + dataSize
            guard nodeSize <= size - pointer else {
                report(
                    pageNumber, tree.name, "node \(index) (\(nodeSize) bytes at offset \(pointer)) runs past the page")
                return nil
            }
            filled += nodeSize + nodeSize % 2
            nodes.append(
                Node(
                    offset: at, low: low, high: high, flags: flags, key: (at + header)..<(at + header + keySize),
                    dataStart: at + header + keySize))
        }
        guard filled == size - upper else {
            report(
                pageNumber, tree.name, "the nodes fill \(filled) bytes, but mp_upper leaves \(size - upper) for them")
            return nil
        }
        return nodes
    }

    /// Keys strictly ascending, and within the separators the parent pages give.
    ///
    /// `key(i)` is where the `i`th of `count` keys lies in `page` (inside it: ``readNodes`` checked that).
    private func checkOrder(
        _ page: [UInt8], count: Int, key: (Int) -> Range<Int>, order: KeyOrder, lower: [UInt8]?, upper: [UInt8]?,
        pageNumber: Int, of tree: Tree, what: String
    ) -> Bool {
        let failure: String? = page.withUnsafeBytes { bytes in
            func slice(_ range: Range<Int>) -> UnsafeRawBufferPointer {
                precondition(range.lowerBound >= 0 && range.upperBound <= bytes.count, "a key outside its page")
                return UnsafeRawBufferPointer(rebasing: bytes[range])
            }
            var previous: UnsafeRawBufferPointer? = nil
            for index in 0..<count {
                let current = slice(key(index))
                if let previous {
                    guard let comparison = order.compare(previous, current) else {
                        return "integer \(what)s of different sizes"
                    }
                    guard comparison < 0 else { return "\(what) \(index) is not after the one before it" }
                }
                if index == 0, let lower {
                    let comparison = lower.withUnsafeBytes { order.compare($0, current) }
                    guard let comparison, comparison <= 0 else {
                        return "\(what) \(index) sorts before its parent's separator"
                    }
                }
                if index == count - 1, let upper {
                    let comparison = upper.withUnsafeBytes { order.compare(current, $0) }
                    guard let comparison, comparison < 0 else {
                        return "\(what) \(index) sorts after its parent's next separator"
                    }
                }
                previous = current
            }
            return nil
        }
        if let failure {
            report(pageNumber, tree.name, failure)
            return false
        }
        return true
    }

    /// Claims the overflow pages of an `F_BIGDATA` node.
    ///
    /// - Returns: the run's page numbers, or `nil` when it is damaged (reported).
    private func claimOverflow(_ node: Node, in page: [UInt8], pageNumber: Int, of tree: Tree) -> Range<Int>? {
        let first = page.uint64(at: node.dataStart)!
        let size = node.dataSize
        let needed = (PageCheck.headerSize - 1 + size) / pageSize + 1
        var name: String { tree.name }
        guard first >= 2, first <= UInt64(lastPage), UInt64(lastPage) - first + 1 >= UInt64(needed) else {
            report(pageNumber, name, "a value of \(size) bytes points at overflow page \(first), outside 2…\(lastPage)")
            return nil
        }
        let start = Int(first)
        guard let header = file.read(offset: start * pageSize, count: PageCheck.headerSize) else {
            report(start, name, "the overflow page lies past the end of the file (\(file.size) bytes)")
            return nil
        }
        let flags = header.uint16(at: 10)!
        let pages = header.uint32(at: 12)!
        guard header.uint64(at: 0)! == first, flags == PageCheck.overflowFlag else {
            report(start, name, "a value's overflow page has header page \(header.uint64(at: 0)!), flags \(hex(flags))")
            return nil
        }
        guard pages >= needed, pages - 1 <= lastPage - start else {
            report(start, name, "an overflow run of \(pages) pages cannot hold \(size) bytes within the file's pages")
            return nil
        }
        guard (start + pages) * pageSize <= file.size else {
            report(start, name, "the overflow run of \(pages) pages lies past the end of the file")
            return nil
        }
        for number in start..<(start + pages) {
            guard claim(number, of: tree) else { return nil }
        }
        return start..<(start + pages)
    }

    /// A free-list record: a transaction ID and the pages it freed (`count`, then the page numbers).
    private func readFreeRecord(_ node: Node, overflow: Int?, pageNumber: Int, _ page: [UInt8]) {
        let size = node.dataSize
        let bytes: [UInt8]
        if let overflow {
            guard let read = file.read(offset: overflow * pageSize + PageCheck.headerSize, count: size) else {
                return report(overflow, "(free)", "a free-list record runs past the end of the file")
            }
            bytes = read
        } else {
            bytes = Array(page[node.dataStart..<(node.dataStart + size)])
        }
        guard node.key.count == 8, size % 8 == 0, size >= 8, let count = bytes.uint64(at: 0),
            count <= UInt64(size / 8 - 1)
        else {
            return report(
                pageNumber, "(free)", "a free-list record of \(size) bytes (key \(node.key.count) bytes) is malformed")
        }
        for index in 0..<Int(count) {
            let number = bytes.uint64(at: 8 + 8 * index)!
            guard number >= 2, number <= UInt64(lastPage) else {
                report(pageNumber, "(free)", "the free list names page \(number), outside 2…\(lastPage)")
                continue
            }
            let free = Int(number)
            if isSet(self.free, free) {
                report(free, "(free)", "the page is on the free list twice")
            }
            self.free[free / 64] |= 1 << UInt64(free % 64)
        }
    }

    private func isSet(_ bits: [UInt64], _ page: Int) -> Bool {
        bits[page / 64] & (1 << UInt64(page % 64)) != 0
    }
}

/// A key as problems show it: as text if it is printable, else its first bytes in hex.
private func describeKey(_ key: ArraySlice<UInt8>) -> String {
    if !key.isEmpty, key.count <= 64, key.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
        return "'\(String(decoding: key, as: UTF8.self))'"
    }
    return "key "
        + key.prefix(16).map {
            String($0, radix: 16).count == 1 ? "0\(String($0, radix: 16))" : String($0, radix: 16)
        }.joined()
        + (key.count > 16 ? "…" : "")
}

private func hex(_ value: Int) -> String { "0x" + String(value, radix: 16) }
