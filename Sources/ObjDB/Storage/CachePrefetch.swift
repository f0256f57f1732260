import CLMDB

/// Starts loading bytes into the processor's caches before they are read.
///
/// A record LMDB just found sits in a page the search did not touch beyond the record's first
/// bytes; reading a field further in (the text after a short header) waits for memory. Asking
/// for those cache lines as soon as the record is found lets that wait overlap the object
/// layer's own work on the row.
enum CachePrefetch {
    @inline(__always)
    static func load(_ bytes: UnsafeRawBufferPointer) {
        if let start = bytes.baseAddress { objdb_prefetch(start, bytes.count) }
    }

    /// Prefetches a whole page the first time a walk reaches it out of order, and the two pages
    /// after it in the file while the walk goes from each page to the next one there.
    ///
    /// A leaf page holds its entries in the order they were inserted, not in key order, so a
    /// cursor walk jumps about inside the page and the processor's own prefetcher cannot follow:
    /// asking for the page's lines at once lets their loads overlap instead of waiting for each
    /// in turn. They still arrive after the walk needs the page's first rows. A sorted load or a
    /// compacted store lays its leaves out one after another, so once the walk has stepped to the
    /// adjacent page it asks for the two after it: with one page ahead, a raw walk of tweets spent
    /// half its samples on LMDB's reads of node headers, and two took a quarter off its time. The
    /// first step of a run asks for the page it lands on too; later ones were asked for before. A
    /// walk whose every step jumps asks only for the page it enters.
    struct PageTracker {
        private var current: UInt = 0
        /// Whether the pages after `current` were asked for: the walk came to it from the page before.
        private var isAhead = false

        @inline(__always)
        mutating func enter(_ bytes: UnsafeRawBufferPointer) {
            guard let start = bytes.baseAddress else { return }
            let page = UInt(bitPattern: start) & ~UInt(Self.pageSize - 1)
            guard page != current else { return }
            let sequential = page == current &+ UInt(Self.pageSize)
            current = page
            // Lines already asked for cost a cache hit each to ask for again.
            if sequential {
                let first = isAhead ? page &+ UInt(Self.pageSize) : page
                objdb_prefetch(UnsafeRawPointer(bitPattern: first), Int(page &+ UInt(3 * Self.pageSize) &- first))
            } else {
                objdb_prefetch(UnsafeRawPointer(bitPattern: page), Self.pageSize)
            }
            isAhead = sequential
        }

        /// LMDB's page size here (the operating system's); a larger one is only prefetched in part.
        private static let pageSize = 4096
    }
}
