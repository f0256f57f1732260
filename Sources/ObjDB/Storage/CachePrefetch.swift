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
}
