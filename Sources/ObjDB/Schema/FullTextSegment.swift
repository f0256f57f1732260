/// Where a full-text index keeps its statistics and recent segment (``PostingCodec/recentKey(_:)``).
///
/// Format 4 gives them a database of their own (``DatabaseNames/fullTextSegment(_:propertyID:)``),
/// the statistics after the entries, so a write of a new object copies the segment's root and one
/// leaf instead of a path down the chunks' B-tree and two of its leaves. A store of format 2 or 3
/// kept them in the chunks' database, statistics first: opened read-only it is read there, and an
/// open that may write moves them (``FullTextIndexWriter/moveSegmentOutOfChunks()``).
package struct FullTextSegment: Sendable {
    /// The database holding the recent entries and the statistics.
    package let database: DatabaseHandle
    /// The statistics entry's key in ``database``.
    package let statisticsKey: [UInt8]

    /// The segment of the index `index`, in `segment` when the store has it, in `index` otherwise.
    init(index: DatabaseHandle, segment: DatabaseHandle?) {
        if let segment {
            database = segment
            statisticsKey = PostingCodec.segmentStatisticsKey
        } else {
            database = index
            statisticsKey = PostingCodec.statisticsKey
        }
    }

    /// Whether the segment shares the chunks' database (a store of format 2 or 3 opened read-only).
    package func isInChunks(of index: DatabaseHandle) -> Bool {
        database == index
    }
}
