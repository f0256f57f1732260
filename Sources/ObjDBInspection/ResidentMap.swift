import Foundation

/// Keeps a long scan of a store in flat memory: every so many bytes read, it drops the pages of
/// the store's memory map from this process's resident set (`madvise(MADV_DONTNEED)`).
///
/// LMDB reads through a shared, read-only map of the file, so every page a scan touches stays
/// resident, and a full scan of a 10 GB store would hold 10 GB. Dropping the pages costs nothing
/// to correctness: they are clean, the kernel's page cache keeps them, and the next touch maps
/// them again (a minor fault). Pointers into the map stay valid. Without a map to find (not
/// Linux), it does nothing.
package final class ResidentMap {
    private let path: String
    private let interval: Int
    private var notes = 0
    private var faultsAtTrim = 0

    /// The map of the store file at `path`, trimmed whenever about `interval` bytes may have become resident.
    package init(path: String, interval: Int = 8 << 20) {
        self.interval = interval
        self.path = path
        faultsAtTrim = Self.pageFaults()
    }

    /// Notes one entry read from the map (of `bytes`); now and then, trims.
    ///
    /// What became resident is estimated from the page faults taken: each may map up to 16
    /// pages (the kernel's fault-around), which a scan of scattered pages (an index, the
    /// backlinks) does not use, so counting the bytes read would undercount by as much.
    @inline(__always)
    package func note(_ bytes: Int) {
        notes &+= 1
        if notes & 0xFF == 0 { check() }
    }

    private func check() {
        let faults = Self.pageFaults()
        if (faults - faultsAtTrim) * Self.faultAround >= interval { trim() }
    }

    /// Drops the map's pages from the resident set now.
    package func trim() {
        // Looked up each time: a write may have grown (and so moved) the map.
        for range in Self.mappings(of: path) {
            _ = madvise(UnsafeMutableRawPointer(bitPattern: range.start), range.length, MADV_DONTNEED)
        }
        faultsAtTrim = Self.pageFaults()
    }

    /// The most a page fault maps: Linux's default fault-around of 64 KiB.
    private static let faultAround = 64 << 10

    private static func pageFaults() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_minflt + usage.ru_majflt
    }

    /// The address ranges mapping the file at `path`, from `/proc/self/maps`.
    private static func mappings(of path: String) -> [(start: UInt, length: Int)] {
        guard let resolved = realpath(path, nil) else { return [] }
        let file = String(cString: resolved)
        free(resolved)
        guard let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8) else { return [] }
        var ranges: [(start: UInt, length: Int)] = []
        for line in maps.split(separator: "\n") where line.hasSuffix(file) {
            let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count == 6, fields[5].trimmingCharacters(in: .whitespaces) == file else { continue }
            let bounds = fields[0].split(separator: "-")
            guard bounds.count == 2, let start = UInt(bounds[0], radix: 16), let end = UInt(bounds[1], radix: 16),
                end > start
            else { continue }
            ranges.append((start, Int(end - start)))
        }
        return ranges
    }
}
