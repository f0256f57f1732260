import CBaselines

/// Tweets as columns: Swift values for ObjDB, and the same tweets as flat C arrays for the
/// baselines, built once before anything is timed so no engine pays for converting them.
final class TweetColumns: @unchecked Sendable {
    // @unchecked: nothing changes after `init`, and the C columns are freed only in `deinit`,
    // when no thread can use them any more.
    let ids: [Int64]
    let userIds: [Int64]
    let createdAt: [Double]
    let retweetCounts: [Int]
    let texts: [String]
    let langs: [String]

    /// The same tweets for C: pointers into the buffers below.
    let flat: bench_tweets
    private let buffers: [UnsafeMutableRawPointer]

    var count: Int { ids.count }

    init(
        ids: [Int64], userIds: [Int64], createdAt: [Double], retweetCounts: [Int], texts: [String], langs: [String]
    ) {
        precondition(
            [userIds.count, createdAt.count, retweetCounts.count, texts.count, langs.count].allSatisfy {
                $0 == ids.count
            }, "every column holds one value per tweet")
        self.ids = ids
        self.userIds = userIds
        self.createdAt = createdAt
        self.retweetCounts = retweetCounts
        self.texts = texts
        self.langs = langs

        var buffers: [UnsafeMutableRawPointer] = []
        func copy<T>(_ values: [T]) -> UnsafePointer<T> {
            let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: Swift.max(values.count, 1))
            _ = buffer.initialize(from: values)
            buffers.append(UnsafeMutableRawPointer(buffer.baseAddress!))
            return UnsafePointer(buffer.baseAddress!)
        }
        func concatenate(_ strings: [String]) -> (UnsafePointer<UInt8>, UnsafePointer<Int>) {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(strings.reduce(0) { $0 + $1.utf8.count })
            var offsets = [0]
            offsets.reserveCapacity(strings.count + 1)
            for string in strings {
                bytes.append(contentsOf: string.utf8)
                offsets.append(bytes.count)
            }
            return (copy(bytes), copy(offsets))
        }
        let (textBytes, textOffsets) = concatenate(texts)
        let (langBytes, langOffsets) = concatenate(langs)
        flat = bench_tweets(
            count: ids.count, ids: copy(ids), user_ids: copy(userIds), created_at: copy(createdAt),
            retweet_counts: copy(retweetCounts.map(Int64.init)), texts: textBytes,
            text_offsets: textOffsets, langs: langBytes, lang_offsets: langOffsets)
        self.buffers = buffers
    }

    deinit {
        for buffer in buffers { buffer.deallocate() }
    }
}
